#include "diagnose.hpp"

#include "restricted.hpp"

namespace napkin::cli {

Diagnostic diagnose(std::exception_ptr e, std::size_t memory_limit) {
  if (!memory_limit) return napkin::diagnose(e);
  const Diagnostic bound = memory_diagnostic(memory_limit);
  return napkin::diagnose(e, &bound);
}

Result failed(const Diagnostic& d) { return Result{"", render(d), 2}; }

}  // namespace napkin::cli
