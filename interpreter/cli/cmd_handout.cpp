#include <filesystem>

#include "guarded.hpp"
#include "interpreter/output/handout.hpp"

namespace napkin::cli {

Result cmd_handout(const HandoutArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    // Without an opening comment, the file's name is the title (never its directory).
    const Handout h = build_handout(in, m, std::filesystem::path(a.file).stem().string());
    if (a.format == Format::markdown) return Result{handout_markdown(h), "", 0};
    if (a.format == Format::latex) return Result{handout_latex(h), "", 0};
    if (a.format == Format::json) return Result{handout_json(h), "", 0};
    return Result{handout_text(h), "", 0};
  });
}

}  // namespace napkin::cli
