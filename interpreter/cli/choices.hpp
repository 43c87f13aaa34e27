#pragma once
// What the `run` and `explain` options accept, and which combinations of
// them mean nothing: one list for `napkin` (CLI11 checks against it) and for
// the playground's entry, which reads the few arguments a page passes.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "word_table.hpp"

namespace napkin::cli {

inline const std::vector<Format> kReportFormats{Format::text, Format::json, Format::toml, Format::markdown, Format::latex};

// Each option's words and what each means, in the order --help lists them.
inline constexpr WordTable<StepDepth, 5> kStepDepthNames{{
    {StepDepth::Short, "short"},
    {StepDepth::One, "one"},
    {StepDepth::Factors, "factors"},
    {StepDepth::Flat, "flat"},
    {StepDepth::All, "all"},
}};
inline constexpr WordTable<CheckDisplay, 3> kCheckDisplayNames{{
    {CheckDisplay::List, "list"},
    {CheckDisplay::Beside, "beside"},
    {CheckDisplay::None, "none"},
}};
inline constexpr WordTable<Brief, 2> kBriefNames{{
    {Brief::Lines, "lines"},
    {Brief::Values, "values"},
}};

inline const std::vector<std::string> kStepDepths = words_of(kStepDepthNames);
inline const std::vector<std::string> kCheckDisplays = words_of(kCheckDisplayNames);
inline const std::vector<std::string> kBriefLevels = words_of(kBriefNames);

// Reads the words into `run` (each is one of its choices, checked by the
// parser that filled them), then says what is wrong with the combination,
// or "".
std::string settle_run(const RunWords& words, RunArgs& run);

}  // namespace napkin::cli
