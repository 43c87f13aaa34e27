#include "diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace napkin {
namespace {

std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string clean_line(std::string_view line) {
  std::string out(line);
  std::replace(out.begin(), out.end(), '\t', ' ');
  constexpr std::size_t kMax = 200;  // a 10 MB line is shown cut, not whole
  if (out.size() > kMax) out = out.substr(0, kMax) + " …";
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
  if (primary)
    out += fmt::format("{}: error[{}]: {}\n", primary->span.where(), d.code, d.message);
  else
    out += fmt::format("error[{}]: {}\n", d.code, d.message);

  // Labels in source order, one source line shown once with every caret under it.
  std::vector<const Label*> labels;
  for (const auto& l : d.labels)
    if (l.span.valid()) labels.push_back(&l);
  std::stable_sort(labels.begin(), labels.end(), [](const Label* a, const Label* b) {
    if (a->span.file != b->span.file) return a->span.file->name < b->span.file->name;
    return a->span.begin < b->span.begin;
  });

  int gutter = 1;
  for (const Label* l : labels)
    gutter = std::max(gutter, static_cast<int>(fmt::format("{}", l->span.file->line_col(l->span.begin).first).size()));

  const SourceFile* last_file = primary ? primary->span.file : nullptr;
  int last_line = -1;
  for (const Label* l : labels) {
    const auto [line, col] = l->span.file->line_col(l->span.begin);
    if (l->span.file != last_file) {
      out += fmt::format("{:>{}}--> {}\n", "", gutter, l->span.where());
      last_file = l->span.file;
      last_line = -1;
    }
    const std::string_view raw = l->span.file->line_text(line);
    if (line != last_line) {
      out += fmt::format("{:>{}} |\n", "", gutter);
      out += fmt::format("{:>{}} | {}\n", line, gutter, clean_line(raw));
      last_line = line;
    }
    // Width: to the end of the span, or of the line for spans that go on.
    const std::size_t line_start = static_cast<std::size_t>(raw.data() - l->span.file->text.data());
    const std::size_t span_end = std::min<std::size_t>(l->span.end, line_start + raw.size());
    std::size_t width = span_end > l->span.begin
                            ? code_points(std::string_view(l->span.file->text).substr(l->span.begin, span_end - l->span.begin))
                            : 1;
    width = std::clamp<std::size_t>(width, 1, 200);
    const std::size_t pad = std::min<std::size_t>(static_cast<std::size_t>(col - 1), 200);
    out += fmt::format("{:>{}} | {}{}{}{}\n", "", gutter, std::string(pad, ' '),
                       std::string(width, l->primary ? '^' : '-'), l->text.empty() ? "" : " ", l->text);
  }
  for (const auto& n : d.notes) out += fmt::format("{:>{}} = note: {}\n", "", gutter, n);
  if (!d.help.empty()) out += fmt::format("{:>{}} = help: {}\n", "", gutter, d.help);
  return out;
}

void fail(const char* code, Span at, std::string message, std::string help) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.labels.push_back({at, "", true});
  d.help = std::move(help);
  throw Error(std::move(d));
}

}  // namespace napkin
