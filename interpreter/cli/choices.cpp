#include "choices.hpp"

namespace napkin::cli {

std::string run_conflict(const RunArgs& run) {
  // A text, JSON or TOML report lists every check: it is no document to lay out.
  if (run.checks != "list" && run.format != Format::markdown && run.format != Format::latex)
    return "--checks beside and --checks none lay out a document: use them with --format markdown or latex";
  if (!run.brief.empty() && run.format != Format::json && run.format != Format::toml)
    return "--brief shortens the JSON or TOML report: use it with --format json or toml";
  return "";
}

}  // namespace napkin::cli
