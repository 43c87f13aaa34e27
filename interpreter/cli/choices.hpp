#pragma once
// What the `run` and `explain` options accept, and which combinations of
// them mean nothing: one list for `napkin` (CLI11 checks against it) and for
// the playground's entry, which reads the few arguments a page passes.
#include <string>
#include <vector>

#include "commands.hpp"

namespace napkin::cli {

inline const std::vector<Format> kReportFormats{Format::text, Format::json, Format::toml, Format::markdown, Format::latex};
inline const std::vector<std::string> kStepDepths{"short", "one", "factors", "flat", "all"};
inline const std::vector<std::string> kCheckDisplays{"list", "beside", "none"};
inline const std::vector<std::string> kBriefLevels{"lines", "values"};

// What is wrong with this combination of `run`'s options, or "" when
// nothing is (each option's own value is already one of its choices).
std::string run_conflict(const RunArgs& run);

}  // namespace napkin::cli
