#pragma once
// What `napkin layout` prints of a search (analysis/layout_search.hpp): the
// ranked layouts as text, Markdown or JSON, and why each loses to the first.
#include <cstddef>
#include <string>

#include "interpreter/analysis/layout_search.hpp"

namespace napkin {

std::string layout_text(const Interpreter& in, const LayoutResult& r, std::size_t top);
std::string layout_markdown(const Interpreter& in, const LayoutResult& r, std::size_t top);
// `against`: another plan's search, whose best layout is compared (layout_change_text).
std::string layout_json(const Interpreter& in, const LayoutResult& r, std::size_t top,
                        const LayoutResult* against = nullptr);

// Whether the best layout of `other` (the same search over another plan: a
// new model, another cluster) is the best layout of `r`: one line, "against
// NAME: the best layout changes: A (t) → B (t')" or "... stays A (t → t')".
std::string layout_change_text(const Interpreter& in, const LayoutResult& r, const LayoutResult& other);

}  // namespace napkin
