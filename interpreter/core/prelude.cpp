// The modules `napkin eval` evaluates an expression in: the whole standard
// library, or only the modules that define the names it uses.
#include "prelude.hpp"

#include <fmt/format.h>

#include <string_view>

#include "stdlib_files.hpp"
#include "stdlib_names.hpp"

namespace napkin {

namespace {

// The names an expression uses: not a member's name, not an argument's.
void names_in(const ast::Expr& e, std::vector<std::string_view>& out) {
  if (e.kind == ast::ExprKind::Name) out.push_back(e.text);
  ast::for_each_child(e, [&](const ast::Expr& c) { names_in(c, out); });
}

std::size_t std_index(std::string_view name) {
  for (std::size_t i = 0; i < kStdlibCount; ++i)
    if (name == kStdlib[i].name) return i;
  return kStdlibCount;
}

// The built-in modules in the order load_parsed declares them when
// prelude() imports them all: each after the modules it imports.
void load_order(std::size_t i, std::vector<char>& seen, std::vector<std::size_t>& out) {
  if (seen[i]) return;
  seen[i] = 1;
  for (std::size_t j = 0; j < kStdlib[i].import_count; ++j)
    if (const std::size_t k = std_index(kStdlib[i].imports[j]); k < kStdlibCount) load_order(k, seen, out);
  out.push_back(i);
}

}  // namespace

Module* prelude_for(Interpreter& in, const ast::Expr& e) {
  if (!in.options().stdlib_dir.empty()) return nullptr;  // the directory's modules may define other names
  std::vector<std::string_view> names;
  names_in(e, names);
  std::vector<char> need(kStdlibCount, 0);
  for (std::string_view n : names) {
    std::size_t found = kStdlibCount;
    for (std::size_t i = 0; i < kStdlibCount; ++i)
      for (std::size_t j = 0; j < kStdlib[i].name_count; ++j)
        if (n == kStdlib[i].names[j]) {
          if (found != kStdlibCount && found != i) return nullptr;  // two define it: prelude()'s order decides
          found = i;
        }
    if (found != kStdlibCount) need[found] = 1;
  }
  std::vector<char> seen(kStdlibCount, 0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < kStdlibCount; ++i) load_order(i, seen, order);
  // With what they import: a module comes after its imports in `order`, so a
  // walk from the end reaches each import after the module that needs it.
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (need[*it])
      for (std::size_t j = 0; j < kStdlib[*it].import_count; ++j)
        if (const std::size_t k = std_index(kStdlib[*it].imports[j]); k < kStdlibCount) need[k] = 1;
  // Base units are numbered as they are declared and a unit is written in
  // that order (`W*request`): the modules declaring them must come first in
  // the whole library's order, so that loading the rest later, as prelude()
  // does when this fails, numbers them as a run that loads it all at once.
  // std/units is loaded before any module: it is never left out.
  bool left_out = false;
  for (std::size_t i : order)
    if (kStdlib[i].base_units && std::string_view(kStdlib[i].name) != stdlib_names::units_module) {
      if (!need[i])
        left_out = true;
      else if (left_out)
        return nullptr;
    }
  std::string text;
  std::string name = "<prelude:";
  for (std::size_t i : order)
    if (need[i]) {
      text += fmt::format("import \"std/{}\"\n", kStdlib[i].name);
      name += fmt::format(" std/{}", kStdlib[i].name);
    }
  return in.load_source(name + ">", text, "");
}

Module* Interpreter::prelude() {
  // Loaded once: a second load of "<prelude>" finds the first.
  std::string text;
  for (const auto& n : std_modules()) text += "import \"std/" + n + "\"\n";
  return load_source("<prelude>", text, "");
}

}  // namespace napkin
