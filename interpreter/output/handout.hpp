#pragma once
// `napkin handout`: the student's sheet, made from the solution file itself
// so that the two cannot drift apart. It keeps the file's words and its
// givens and leaves a blank, with the unit it expects, for every answer.
//
// The answers (docs/output.md, "Handouts"): every field a scenario defines
// in its own block that is computed (its formula names something, and is
// neither a bare name such as `max_context` nor a record such as `drill` or
// `drill with { ... }`, nor an alias of a given such as `tp = node.tp`), and
// every computed field or `let` a check pins. Everything else the file
// writes is given: a literal with its value, any other formula as written
// (never its value: a computed value that is not an answer may still be one
// in disguise), and a record with the figures of it the file reads.
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/derivation/term.hpp"
#include "section_kind.hpp"

namespace napkin {

struct HandoutItem {
  enum class Kind { Question, Given, Answer };
  Kind kind = Kind::Given;
  std::vector<std::string> paragraphs;  // Question: the comment's paragraphs, as written
  std::string name;                     // Given, Answer: the field or let
  Term shown;                           // Given: its value (a literal) or its formula
  std::string unit;                     // Answer: the unit the author chose, else the dimension's base unit ("" for a number)
  double points = 0;                    // Answer: what the checks that pin it are worth (0: the file states no points)
  std::string expects;                  // Answer: what else it is, "true or false", "text"; "" for a quantity
  std::string note;                     // the comment at the end of its line
  // Given, a record (`gpu = h200`): the figures of it the file reads, each
  // with its value, listed where the record is first given.
  std::vector<std::pair<std::string, Term>> figures;
};

struct HandoutSection {
  SectionKind kind = SectionKind::record;
  std::string keyword;  // a record's, as declared: model, hardware, scenario, record
  std::string name;
  std::string title;  // the first paragraph of the comment above it ("" when there is none)
  std::string base;  // what it extends
  Term origin;       // `decode with { gpu = h100_sxm }` for a record made so; empty otherwise
  std::vector<HandoutItem> items;
};

struct Handout {
  std::string title;                // the first paragraph of the file's opening comment, or the file's name
  std::vector<std::string> intro;   // the rest of that comment, paragraph by paragraph
  std::vector<HandoutSection> sections;
  std::vector<std::string> answers;  // qualified names, in order
};

// A section's heading, as the solution sheet's (section_title.hpp): its
// title and its name, which the student's file must use; its name alone
// where it has no title; "values" for the lets.
std::string handout_heading(const HandoutSection& s);

// Evaluates `m` (errors are thrown, as `napkin check` throws them) and
// builds its handout. `name` stands as the title where the file has no
// opening comment.
Handout build_handout(Interpreter& in, Module* m, const std::string& name);

std::string handout_text(const Handout& h);
std::string handout_markdown(const Handout& h);
std::string handout_latex(const Handout& h);
std::string handout_json(const Handout& h);  // handout_json.cpp

}  // namespace napkin
