#include "diagnose.hpp"

#include <new>
#include <system_error>

#include "restricted.hpp"

namespace napkin::cli {

Diagnostic diagnose(std::exception_ptr e, std::size_t memory_limit) {
  try {
    std::rethrow_exception(e);
  } catch (const Error& err) {
    return err.diagnostic();
  } catch (const std::bad_alloc&) {
    if (memory_limit) return memory_diagnostic(memory_limit);
    return unplaced(codes::size_limit, "out of memory");
  } catch (const std::system_error& err) {  // file I/O a library reports its own way
    return unplaced(codes::io, err.what());
  } catch (const std::exception& err) {
    return unplaced(codes::internal, std::string("internal error: ") + err.what() + "; please report it");
  } catch (...) {
    return unplaced(codes::internal, "internal error: an exception napkin does not know; please report it");
  }
}

Result failed(const Diagnostic& d) { return Result{"", render(d), 2}; }

}  // namespace napkin::cli
