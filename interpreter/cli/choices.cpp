#include "choices.hpp"

namespace napkin::cli {
namespace {

// The parser checked the word: it is one of the table's.
template <typename E, std::size_t N>
E named(const WordTable<E, N>& table, std::string_view word) {
  return value_named(table, word).value_or(table[0].first);
}

// A text, JSON or TOML report lists every check: it is no document to lay out.
std::string run_conflict(const RunArgs& run) {
  if (run.checks != CheckDisplay::List && run.format != Format::markdown && run.format != Format::latex)
    return "--checks beside and --checks none lay out a document: use them with --format markdown or latex";
  if (run.brief != Brief::Trees && run.format != Format::json && run.format != Format::toml)
    return "--brief shortens the JSON or TOML report: use it with --format json or toml";
  return "";
}

}  // namespace

std::string settle_run(const RunWords& words, RunArgs& run) {
  run.steps = words.steps.empty() ? std::nullopt : std::optional(named(kStepDepthNames, words.steps));
  run.checks = named(kCheckDisplayNames, words.checks);
  run.brief = words.brief.empty() ? Brief::Trees : named(kBriefNames, words.brief);
  return run_conflict(run);
}

}  // namespace napkin::cli
