// A large file is formatted a piece at a time (layout/format_pieces.hpp):
// the pieces, joined, must be exactly the layout of the whole file. Checked
// by cutting every file of the repository at every place a cut is allowed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "interpreter/layout/format_pieces.hpp"
#include "interpreter/layout/formatter.hpp"

namespace fs = std::filesystem;
using namespace napkin;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The layout of `text` cut as small as cuts go, or "" when a piece does not
// parse on its own.
std::string in_pieces(const std::string& text, std::size_t* count = nullptr) {
  std::string out;
  const auto pieces = format_pieces(text, 1);
  if (count) *count = pieces.size();
  for (const FormatPiece& p : pieces) {
    if (p.blank_before) out += '\n';
    out += format_source(SourceFile{"piece.napkin", std::string(p.text), ""});
  }
  return out;
}

}  // namespace

TEST_CASE("the pieces of every file in the repository format to the whole file's layout", "[fmt]") {
  int files = 0, cut = 0;
  for (const char* dir : {"examples", "stdlib", "tests/stdlib", "tests/errors", "bench"})
    for (const auto& e : fs::directory_iterator(fs::path(NAPKIN_SOURCE_DIR) / dir)) {
      if (e.path().extension() != ".napkin") continue;
      const std::string text = slurp(e.path());
      std::string whole;
      try {
        whole = format_source(SourceFile{"piece.napkin", text, ""});
      } catch (const Error&) {
        continue;  // an error case that does not parse
      }
      INFO(e.path().string());
      std::size_t pieces = 0;
      CHECK(in_pieces(text, &pieces) == whole);
      ++files;
      cut += pieces > 1;
    }
  CHECK(files > 40);
  CHECK(cut > 20);  // most files are cut somewhere
}

TEST_CASE("format_pieces cuts only between whole statements", "[fmt]") {
  // Between one-line lets with no blank line: joined as they are.
  CHECK(format_pieces("let a = 1\nlet b = 2\n", 1).size() == 2);
  // A statement that goes on past a blank line, or a line that ends in an
  // operator, a keyword or a comment, is never cut.
  CHECK(format_pieces("let a = 1 +\n\n2\nlet b = 3\n", 1).size() == 1);
  CHECK(format_pieces("let a = 1 +\n\n2\n\nlet b = 3\n", 1).size() == 2);  // cut only before `let b`
  CHECK(format_pieces("let a = x to\n\nlet b = 3\n", 1).size() == 1);
  CHECK(format_pieces("let a = 1 # one\nlet b = 3\n", 1).size() == 1);
  // Inside a block, nothing is cut.
  CHECK(format_pieces("record r {\n  a = 1\n\nlet b = 2\n}\n", 1).size() == 1);
  // A line the layout wraps is not one that stays one line: not cut
  // without a blank line.
  std::string long_let = "let a = 1";
  for (int i = 0; i < 40; ++i) long_let += " + 1";
  long_let += "\n";
  CHECK(format_pieces(long_let + "let b = 2\n", 1).size() == 1);
  CHECK(format_pieces(long_let + "\nlet b = 2\n", 1).size() == 2);
  // Pieces are at least the size asked for.
  std::string many;
  for (int i = 0; i < 1000; ++i) many += "let a" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  const auto pieces = format_pieces(many, 1000);
  CHECK(pieces.size() > 5);
  for (std::size_t i = 0; i + 1 < pieces.size(); ++i) CHECK(pieces[i].text.size() >= 1000);
  CHECK(in_pieces(many) == format_source(SourceFile{"m.napkin", many, ""}));
}
