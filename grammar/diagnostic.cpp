#include "diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <system_error>

#include "grammar/code_format.hpp"
#include "grammar/diagnose.hpp"
#include "grammar/text_width.hpp"
#include "utf8.hpp"

namespace napkin {
namespace {

// A 10 MB line is shown cut, not whole: up to kMax code points, starting
// far enough to the right that the first caret on it is visible.
constexpr std::size_t kMax = 200;
constexpr std::size_t kMaxText = 400;  // a message, label, note or help line

struct Window {
  std::size_t start = 0;  // first code point shown
  std::size_t indent = 0;  // columns taken by the leading "… "
};

Window window_for(std::size_t caret_col) {
  if (caret_col <= kMax - 40) return {};
  return {caret_col - 60, 2};
}

// The byte offset of code point `n` of `s` (or s.size()).
std::size_t byte_of(std::string_view s, std::size_t n) {
  std::size_t i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n-- == 0) break;
  return i;
}

// The line as it may be printed: a byte that is not UTF-8 text, or a
// control character, shows as U+FFFD, one column like the byte it stands for.
std::string printable(std::string_view s) {
  std::string out;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence(p + i, s.size() - i);
    if (len == 0 || (len == 1 && p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7F) {
      out += "\uFFFD";
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

// A message, label, note or help line, clipped, with its control characters
// (ESC, BEL, CR: bytes a file or a value can carry) written as \x1b so that
// a file cannot drive the terminal its errors are printed on.
std::string text_line(std::string_view s) {
  const std::string clipped = clip(s, kMaxText);
  std::string out;
  for (const char c : clipped) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7F) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

std::string clean_line(std::string_view line, const Window& w) {
  const std::size_t b = byte_of(line, w.start);
  std::string_view shown = line.substr(b);
  const std::size_t e = byte_of(shown, kMax);
  std::string out = w.start > 0 ? "… " : "";
  out += printable(shown.substr(0, e));
  if (e < shown.size()) out += " …";
  std::replace(out.begin(), out.end(), '\t', ' ');
  return out;
}

}  // namespace

std::string render(const Diagnostic& d) {
  std::string out;
  const Label* primary = nullptr;
  for (const auto& l : d.labels)
    if (l.primary && l.span.valid()) {
      primary = &l;
      break;
    }
  if (!primary)
    for (const auto& l : d.labels)
      if (l.span.valid()) {
        primary = &l;
        break;
      }
  const std::string message = text_line(d.message);
  if (primary) out += fmt::format("{}: ", primary->span.where());
  out += fmt::format("{}: {}\n", error_tag(d.code), message);

  // Labels in source order, one source line shown once with every caret
  // under it; the file the heading names first, under the heading.
  std::vector<const Label*> labels;
  for (const auto& l : d.labels)
    if (l.span.valid()) labels.push_back(&l);
  const SourceFile* heading = primary ? primary->span.file : nullptr;
  std::stable_sort(labels.begin(), labels.end(), [heading](const Label* a, const Label* b) {
    if (a->span.file != b->span.file) {
      if (a->span.file == heading || b->span.file == heading) return a->span.file == heading;
      return a->span.file->name < b->span.file->name;
    }
    return a->span.begin < b->span.begin;
  });

  int gutter = 1;
  for (const Label* l : labels)
    gutter = std::max(gutter, static_cast<int>(fmt::format("{}", l->span.file->line_col(l->span.begin).first).size()));

  const SourceFile* last_file = primary ? primary->span.file : nullptr;
  int last_line = -1;
  Window window;
  for (const Label* l : labels) {
    const auto [line, col] = l->span.file->line_col(l->span.begin);
    if (l->span.file != last_file) {
      out += fmt::format("{:>{}}--> {}\n", "", gutter, l->span.where());
      last_file = l->span.file;
      last_line = -1;
    }
    if (!l->span.file->quotable) {  // its place, never its text
      if (line != last_line) out += fmt::format("{:>{}} = note: line {}, column {}: the file is not napkin source, so its text is not shown\n", "", gutter, line, col);
      last_line = line;
      continue;
    }
    const std::string_view raw = l->span.file->line_text(line);
    if (line != last_line) {
      window = window_for(static_cast<std::size_t>(col));
      out += fmt::format("{:>{}} |\n", "", gutter);
      out += fmt::format("{:>{}} | {}\n", line, gutter, clean_line(raw, window));
      last_line = line;
    }
    // Width: to the end of the span, or of the line for spans that go on.
    const std::size_t line_start = static_cast<std::size_t>(raw.data() - l->span.file->text.data());
    const std::size_t span_end = std::min<std::size_t>(l->span.end, line_start + raw.size());
    std::size_t width = span_end > l->span.begin
                            ? code_points(std::string_view(l->span.file->text).substr(l->span.begin, span_end - l->span.begin))
                            : 1;
    width = std::clamp<std::size_t>(width, 1, kMax);
    const std::size_t from = std::max<std::size_t>(static_cast<std::size_t>(col - 1), window.start) - window.start;
    const std::size_t pad = std::min(from, kMax) + window.indent;
    out += fmt::format("{:>{}} | {}{}{}{}\n", "", gutter, std::string(pad, ' '),
                       std::string(width, l->primary ? '^' : '-'), l->text.empty() ? "" : " ", text_line(l->text));
  }
  for (const auto& n : d.notes) out += fmt::format("{:>{}} = note: {}\n", "", gutter, text_line(n));
  if (!d.help.empty()) out += fmt::format("{:>{}} = help: {}\n", "", gutter, text_line(d.help));
  return out;
}

std::string error_tag(Code code) { return error_tag(code_text(code)); }

std::string error_tag(std::string_view code_text) { return fmt::format("error[{}]", code_text); }

std::string headline(const Diagnostic& d) { return fmt::format("{}: {}", error_tag(d.code), d.message); }

std::string clip(std::string_view s, std::size_t max) {
  const std::size_t end = byte_of(s, max);
  if (end >= s.size()) return std::string(s);
  return std::string(s.substr(0, byte_of(s, max - 1))) + "…";
}

std::string mention(Diagnostic& d, const Span& at, Mention::In in, bool column) {
  std::string text = column ? at.where() : at.where_line();
  if (at.valid()) d.mentions.push_back({text, at, column, in, in == Mention::In::note ? d.notes.size() : 0});
  return text;
}

void fail(Code code, Span at, std::string message, std::string help) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.labels.push_back({at, "", true});
  d.help = std::move(help);
  throw Error(std::move(d));
}

Diagnostic unplaced(Code code, std::string message, std::string help) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.help = std::move(help);
  return d;
}

void fail(Code code, std::string message, std::string help) {
  throw Error(unplaced(code, std::move(message), std::move(help)));
}

Diagnostic diagnose(std::exception_ptr e, const Diagnostic* out_of_memory) {
  try {
    std::rethrow_exception(e);
  } catch (const Error& err) {
    return err.diagnostic();
  } catch (const std::bad_alloc&) {
    if (out_of_memory) return *out_of_memory;
    return unplaced(codes::size_limit, "out of memory");
  } catch (const std::system_error& err) {  // file I/O a library reports its own way
    return unplaced(codes::io, err.what());
  } catch (const std::exception& err) {
    return unplaced(codes::internal, std::string("internal error: ") + err.what() + "; please report it");
  } catch (...) {
    return unplaced(codes::internal, "internal error: an exception napkin does not know; please report it");
  }
}

}  // namespace napkin
