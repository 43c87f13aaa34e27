// Comments as a document's prose (interpreter/output/prose.hpp) and the
// comment blocks they come from (grammar/comments.hpp).
#include <catch2/catch.hpp>

#include "grammar/comments.hpp"
#include "interpreter/output/escape.hpp"
#include "interpreter/output/prose.hpp"

using namespace napkin;

TEST_CASE("comment blocks keep their paragraphs, drop rules and trim headings") {
  const std::string file =
      "# Title line.\n#\n# First paragraph,\n# still it.\n\nimport \"std/hardware\"\n\n"
      "# ---- 1. Parameters --------\n# the question\nscenario s {\n  x = 1\n}\n";
  const auto comments = find_comments(file);
  const CommentBlock opening = opening_comment(file, comments);
  CHECK(opening.text == "Title line.\n\nFirst paragraph,\nstill it.");
  CHECK(opening.begin == 0);
  const CommentBlock above = comment_block_above(file, comments, static_cast<std::uint32_t>(file.find("scenario")));
  // A ruled heading is a paragraph of its own: the sentence under it does
  // not run into it.
  CHECK(above.text == "1. Parameters\n\nthe question");
}

TEST_CASE("a file that opens with a statement has no opening comment") {
  const std::string file = "let x = 1\n# later\nlet y = 2\n";
  CHECK(opening_comment(file, find_comments(file)).text.empty());
}

TEST_CASE("light Markdown: paragraphs, code, emphasis, lists, exponents and indices") {
  const auto blocks = parse_prose("one\ntwo\n\n- a\n- b\n  more\nafter `x^2` and *this*, 10^9, N_blocks, lm_head");
  REQUIRE(blocks.size() == 3);
  CHECK_FALSE(blocks[0].item);
  CHECK(blocks[0].spans[0].text == "one two");
  CHECK(blocks[1].item);
  CHECK(blocks[2].item);  // a line after an item, not indented, still continues it
  CHECK(prose_markdown("one\ntwo\n\nthree") == "one two\n\nthree");
  CHECK(prose_markdown("- a\n- b") == "- a\n- b");
  CHECK(prose_markdown("`x^2` and *this*, 10^9, N_blocks, lm_head") ==
        "`x^2` and *this*, 10⁹, N\\_blocks, lm\\_head");
  CHECK(prose_markdown("h_kv, d^2, x^-1, d_head") == "hₖᵥ, d², x⁻¹, d\\_head");  // Unicode where it has the letters
  CHECK(prose_markdown("a * b * c") == "a \\* b \\* c");  // a product, not emphasis
}

TEST_CASE("Markdown prose is never markup") {
  CHECK(prose_markdown("<!-- x --> <script> & [a](b)") == "&lt;\\!-- x --&gt; &lt;script&gt; &amp; \\[a\\](b)");
  CHECK(prose_markdown("1. not a list") == "1\\. not a list");
  CHECK(prose_markdown("# not a heading") == "\\# not a heading");
  CHECK(prose_markdown("- ") == "\\- ");
  CHECK(prose_markdown("bell \a") == "bell \\\\x07");
  CHECK(markdown_code("a`b") == "``a`b``");
}

TEST_CASE("LaTeX prose escapes every special character") {
  CHECK(prose_latex("\\input{x} $ % & # ~ ^ _ `") ==
        "\\textbackslash{}input\\{x\\} \\$ \\% \\& \\# $\\sim$ $^\\wedge$ \\_\\allowbreak{} "
        "\\textasciigrave{}");
  CHECK(prose_latex("`code_name` and *it*, 10^9, h_kv") ==
        "\\texttt{code\\_\\allowbreak{}name} and \\emph{it}, 10\\textsuperscript{9}, h\\textsubscript{kv}");
  CHECK(prose_latex("esc \x1b") == "esc \\textbackslash{}x1b");
  CHECK(prose_latex("- a\n- b\n\nafter") == "\\begin{itemize}\n\\item a\n\\item b\n\\end{itemize}\n\nafter");
}
