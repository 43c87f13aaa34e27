#pragma once
// What the diff tests share: two versions of a file, each in its own
// interpreter, and the exercise's text to edit.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "interpreter/review/diff.hpp"

namespace napkin::test {

struct Pair {
  Interpreter old_in, new_in;
  Version before, after;

  Pair(const std::string& old_text, const std::string& new_text) {
    before = {&old_in, old_in.load_source("old.napkin", old_text, ""), {}};
    after = {&new_in, new_in.load_source("new.napkin", new_text, ""), {}};
    before.report = build_report(old_in, before.module, false);
    after.report = build_report(new_in, after.module, false);
  }

  Diff diff(double threshold = 0) { return diff_versions(before, after, threshold); }
};

inline std::string exercise() {
  std::ifstream in(std::filesystem::path(NAPKIN_SOURCE_DIR) / "examples/exercise1_size_a_model.napkin");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace napkin::test
