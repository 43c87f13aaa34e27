#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "interpreter/review/diff.hpp"
#include "interpreter/derivation/explain.hpp"
#include "interpreter/io/read_source.hpp"
#include "grammar/platform/from_chars.hpp"
#include "guarded.hpp"
#include "interpreter/run/solve_statements.hpp"

namespace napkin::cli {
namespace {

namespace fs = std::filesystem;

std::string directory_of(const std::string& path) { return fs::path(path).parent_path().generic_string(); }

bool regular(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// Reads `path` once (it may be a pipe: `<(git show HEAD~1:plan.napkin)`) and
// loads it under `name`, resolving its imports against `dir`.
Module* load(Interpreter& in, const std::string& path, const std::string& name, const std::string& dir) {
  std::string text;
  if (path != "/dev/null") {  // git's stand-in for a file that does not exist on one side
    if (const int err = read_source(path, text, /*allow_pipe=*/true)) {
      Diagnostic d;
      d.code = codes::io;
      d.message = fmt::format("cannot read {}: {}", path, read_error_text(err));
      throw Error(std::move(d));
    }
  }
  return in.load_source(name, std::move(text), dir);
}

// "0.1%" or "0.001".
bool parse_threshold(std::string s, double& out) {
  double scale = 1;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    scale = 0.01;
  }
  auto [p, ec] = from_chars_double(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(out) || out < 0) return false;
  out *= scale;
  return true;
}

struct Sides {
  std::string before_path, after_path, before_name, after_name, before_dir, after_dir;
};

// Which files, under which names, importing from where.
bool sides(const DiffArgs& a, Sides& s, std::string& why) {
  if (a.git) {
    // A rename adds the new path and a description: nine arguments.
    if (a.files.size() != 7 && a.files.size() != 9) {
      why = "with --git, napkin diff takes the arguments git gives an external diff: "
            "PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [NEW-PATH RENAME]";
      return false;
    }
    const std::string& renamed = a.files.size() == 9 ? a.files[7] : a.files[0];
    s = {a.files[1], a.files[4], "a/" + a.files[0], "b/" + renamed, directory_of(a.files[0]), directory_of(renamed)};
  } else {
    if (a.files.size() != 2) {
      why = "napkin diff takes two files: OLD NEW";
      return false;
    }
    s = {a.files[0], a.files[1], a.files[0], a.files[1], directory_of(a.files[0]), directory_of(a.files[1])};
    // A version read from a pipe has no directory: it imports from the other's.
    if (!regular(s.before_path) && regular(s.after_path)) s.before_dir = s.after_dir;
    if (!regular(s.after_path) && regular(s.before_path)) s.after_dir = s.before_dir;
  }
  if (!a.base_dir.empty()) s.before_dir = s.after_dir = a.base_dir;
  return true;
}

// The tree of `name`, or the error that stands in its place.
struct Explained {
  std::optional<ExplainNode> tree;
  std::string error;
};

Explained explain_one(Interpreter& in, Module* m, const std::string& name) {
  try {
    return {explain(in, m, name, -1), ""};
  } catch (const Error& e) {
    return {std::nullopt, render(e.diagnostic())};
  }
}

Result explain_both(const DiffArgs& a, Version& before, Version& after, const Sides& s) {
  Explained old_tree = explain_one(*before.in, before.module, a.explain);
  Explained new_tree = explain_one(*after.in, after.module, a.explain);
  if (!old_tree.tree && !new_tree.tree) return Result{"", new_tree.error, 2};
  if (old_tree.tree && new_tree.tree) fold_unchanged(*old_tree.tree, *new_tree.tree);
  const ExplainSide b{s.before_name, old_tree.tree ? explain_text(*old_tree.tree) : old_tree.error};
  const ExplainSide n{s.after_name, new_tree.tree ? explain_text(*new_tree.tree) : new_tree.error};
  Result r;
  r.code = b.text == n.text ? 0 : 1;
  if (a.format == Format::json) {
    nlohmann::ordered_json j = {{"name", a.explain},
                                {"before", {{"file", b.title}, {"text", b.text}}},
                                {"after", {{"file", n.title}, {"text", n.text}}}};
    r.out = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } else if (a.format == Format::markdown) {
    r.out = fmt::format("**Before** (`{}`)\n\n```\n{}```\n\n**After** (`{}`)\n\n```\n{}```\n", b.title, b.text,
                        n.title, n.text);
  } else {
    r.out = explain_side_by_side(b, n);
  }
  return r;
}

}  // namespace

Result cmd_diff(const DiffArgs& a, const Common& c) {
  Sides s;
  std::string why;
  double threshold = 0;
  if (a.git && a.files.size() == 1)  // an unmerged path: git shows the conflict itself
    return Result{fmt::format("napkin diff: {} is unmerged\n", a.files[0]), "", 0};
  try {
    if (!sides(a, s, why)) fail(codes::usage, why);
    if (!a.threshold.empty() && !parse_threshold(a.threshold, threshold))
      fail(codes::usage, fmt::format("--threshold {} is not a fraction or a percentage such as 0.1%", a.threshold));
    // A bare 10 is a move of 1000%: a reviewer who meant ten percent would
    // see every change hidden and a green gate.
    if (!a.threshold.empty() && a.threshold.back() != '%' && threshold >= 1)
      fail(codes::usage,
           fmt::format("--threshold {} reads as a move of {:g}%: write {:g}% for {:g} percent, or a fraction below 1 "
                       "(0.1 is 10%)",
                       a.threshold, threshold * 100, threshold, threshold));
  } catch (const Error& e) {
    return stopped_by(c, e.diagnostic());
  }
  // Both versions' interpreters outlive the command when the process ends
  // with it: taking apart two files of 100,000 fields was a tenth of the run.
  auto before_owner = std::make_unique<Interpreter>(options(c));
  auto after_owner = std::make_unique<Interpreter>(options(c));
  Interpreter& before_in = *before_owner;
  Interpreter& after_in = *after_owner;
  // Only --explain prints a derivation, and only an input that names
  // another record lists what was read of it: otherwise recording what
  // every formula read is work and memory nothing uses.
  before_in.set_tracing(!a.explain.empty());
  after_in.set_tracing(!a.explain.empty());
  std::unique_ptr<Interpreter> traced_before, traced_after;
  Result r;
  try {
    auto evaluate = [&](Interpreter& b_in, Interpreter& a_in) {
      Version before{&b_in, load(b_in, s.before_path, s.before_name, s.before_dir), {}};
      Version after{&a_in, load(a_in, s.after_path, s.after_name, s.after_dir), {}};
      before.report = build_report(b_in, before.module, false, false, Derivations::Results);
      after.report = build_report(a_in, after.module, false, false, Derivations::Results);
      // What the files' `solve` statements find moves with their inputs too.
      before.report.solves = solve_statements(b_in, before.module, 0);
      after.report.solves = solve_statements(a_in, after.module, 0);
      return std::pair{std::move(before), std::move(after)};
    };
    auto [before, after] = evaluate(before_in, after_in);
    if (!a.explain.empty()) {
      r = explain_both(a, before, after, s);
    } else {
      Diff d = diff_versions(before, after, threshold);
      if (d.records_changed) {  // once more, traced, to list the figures of those records the files read
        traced_before = std::make_unique<Interpreter>(options(c));
        traced_after = std::make_unique<Interpreter>(options(c));
        auto [b2, a2] = evaluate(*traced_before, *traced_after);
        d = diff_versions(b2, a2, threshold);
      }
      r.out = a.format == Format::json ? diff_json(d) : a.format == Format::markdown ? diff_markdown(d) : diff_text(d);
      r.code = d.anything_moved() ? 1 : 0;
    }
  } catch (...) {
    r = stopped_by(c, diagnose(std::current_exception()));
  }
  if (c.process_ends) {
    std::vector<std::unique_ptr<Interpreter>> both;
    for (auto* owner : {&before_owner, &after_owner, &traced_before, &traced_after})
      if (*owner) both.push_back(std::move(*owner));
    leave_for_exit(std::move(both));
  }
  if (a.git) {
    // git stops at an external diff that exits non-zero, so every outcome,
    // an error included, is printed as the diff itself.
    r.out = fmt::format("napkin diff {} {}\n{}{}", s.before_name, s.after_name, r.out, r.err);
    r.err.clear();
    r.code = 0;
  }
  return r;
}

}  // namespace napkin::cli
