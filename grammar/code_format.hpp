#pragma once
// fmt::format("{}", Code::add_mismatch) is "E0201".
#include <string_view>

#include <fmt/format.h>

#include "grammar/error_codes.hpp"

template <>
struct fmt::formatter<napkin::Code> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(napkin::Code c, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(napkin::code_text(c), ctx);
  }
};
