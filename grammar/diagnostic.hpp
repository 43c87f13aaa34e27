#pragma once
// Diagnostics are data: a code, a message, labelled spans and help. They are
// rendered separately (`render`), so tests compare exact text and the CLI
// decides where it goes.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/error_codes.hpp"
#include "grammar/source.hpp"

namespace napkin {

struct Label {
  Span span;
  std::string text;
  bool primary = true;
};

// A place the message, a note or the help names in its words: a document
// carries it as data beside them, so that a reader who shows places its own
// way (a notebook's cell[3]:2) replaces `text` without reading the prose.
struct Mention {
  enum class In : std::uint8_t { message, note, help };
  std::string text;  // the words as written: "plan.napkin:12:3", or "plan.napkin:12" without the column
  Span span;
  bool column = true;  // `text` names the column too
  In in = In::message;
  std::size_t note = 0;  // which note, for In::note
};

struct Diagnostic {
  Code code = Code::internal;  // every site that reports an error sets its own
  std::string message;
  std::vector<Label> labels;
  std::vector<std::string> notes;  // "note: ..." lines, e.g. a cycle's chain
  std::string help;                // "help: ..." what to write instead
  std::vector<Mention> mentions;   // each place the words above name (mention())
};

// `at` as a message, note or help writes it, "file:line:col" (or with
// `column` false "file:line"), kept in `d.mentions` as said `in` the message,
// the help, or the note written next (d.notes.size()): every place written
// into a diagnostic's words goes through here.
std::string mention(Diagnostic& d, const Span& at, Mention::In in, bool column = true);

// Rendered like a compiler: "file:line:col: error[E0201]: message", then the
// source line(s) with carets under each label. This file is the only one
// that spells an error's "error[CODE]" (tests/errors/one_renderer.sh fails
// on a literal anywhere else): every other output asks it for the pieces.
std::string render(const Diagnostic& d);
// "error[E0400]": how a table cell, a plot or a list marks a failed value.
std::string error_tag(Code code);
std::string error_tag(std::string_view code_text);  // from a code's text, "E0400"
// "error[E0400]: division by zero": the first line without its place and
// unescaped, for an output that escapes text its own way (JSON, LaTeX).
std::string headline(const Diagnostic& d);

class Error : public std::exception {
 public:
  explicit Error(Diagnostic d) : diag_(std::move(d)) {}
  const Diagnostic& diagnostic() const { return diag_; }
  Diagnostic& diagnostic() { return diag_; }
  const char* what() const noexcept override { return diag_.message.c_str(); }

 private:
  Diagnostic diag_;
};

// A field that has no value was needed. `napkin run` shows such a field as
// "needs NAME" and carries on; everything else reports it as an error.
class MissingInput : public Error {
 public:
  MissingInput(Diagnostic d, std::string field, Span declared)
      : Error(std::move(d)), field_(std::move(field)), declared_(declared) {}
  const std::string& field() const { return field_; }
  Span declared_at() const { return declared_; }

 private:
  std::string field_;
  Span declared_;
};

[[noreturn]] void fail(Code code, Span at, std::string message, std::string help = {});
// An error with no place in any file: a command-line option, a probe, a file
// napkin could not read or write.
Diagnostic unplaced(Code code, std::string message, std::string help = {});
[[noreturn]] void fail(Code code, std::string message, std::string help = {});

// `s` cut to at most `max` code points, ending in "…" when cut: a value shown
// in a message may be a 10 MB string or a list of 100,000 items.
std::string clip(std::string_view s, std::size_t max);

}  // namespace napkin
