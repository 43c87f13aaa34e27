// napkin-docgen: writes docs/stdlib.md from the standard library's sources.
//
// Every module (stdlib/*.napkin), record, input (with its default), unit and
// function, with its signature and the first sentence of its doc comment
// (the `#` lines right above it, or the comment at the end of its line).
// Links only napkin_grammar: it parses the files, it never evaluates them.
//
//   napkin-docgen --stdlib DIR [--conventions FILE] [--out FILE | --check FILE]
//
// --out writes the reference; --check exits 1 when FILE differs from what
// would be written (the `docs.stdlib` test); neither prints it. Either way a
// function with no doc comment directly above it is an error (exit 1).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "grammar/comments.hpp"
#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"

namespace fs = std::filesystem;
using namespace napkin;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The text of a comment without `#` and one space.
std::string comment_text(const Comment& c) {
  std::string t = c.text.substr(1);
  if (!t.empty() && t[0] == ' ') t.erase(0, 1);
  return t;
}

// The first sentence of a paragraph: up to a ". " that does not end an
// abbreviation ("et al.", "e.g.", "eq.") or an initial, or the whole paragraph.
std::string first_sentence(const std::string& para) {
  static const char* const kAbbrev[] = {"al", "e.g", "i.e", "eq", "Eq", "vs", "cf", "Fig", "fig", "approx"};
  for (std::size_t i = 0; i + 1 < para.size(); ++i) {
    if (para[i] != '.' || para[i + 1] != ' ') continue;
    std::size_t w = para.rfind(' ', i);
    std::string word = para.substr(w == std::string::npos ? 0 : w + 1, i - (w == std::string::npos ? 0 : w + 1));
    if (word.size() <= 1) continue;
    bool abbrev = false;
    for (const char* a : kAbbrev) abbrev = abbrev || word == a || word == std::string("(") + a;
    if (abbrev) continue;
    return para.substr(0, i + 1);
  }
  return para;
}

std::string escape_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

std::string code(const std::string& s) {
  if (s.find('`') != std::string::npos) return "`` " + s + " ``";
  return "`" + s + "`";
}

class Module {
 public:
  Module(std::string name, std::string text) {
    file_.name = "std/" + name;
    file_.text = std::move(text);
    module_ = parse_module(file_);
    comments_ = find_comments(file_.text);
    for (const auto& c : comments_) {
      int line = file_.line_col(c.begin).first;
      if (c.own_line) own_[line] = comment_text(c);
      else trailing_[line] = comment_text(c);
    }
  }

  int line_of(std::uint32_t offset) const { return file_.line_col(offset).first; }

  // The `#` lines directly above `line`, joined into a paragraph; a line of
  // only dashes ("# ---- x ----") ends the block.
  std::string doc_above(int line) const {
    std::vector<std::string> lines;
    for (int l = line - 1; l > 0; --l) {
      auto it = own_.find(l);
      if (it == own_.end()) break;
      if (it->second.rfind("----", 0) == 0) break;
      lines.push_back(it->second);
    }
    std::reverse(lines.begin(), lines.end());
    return join(lines);
  }

  std::string trailing(int line) const {
    auto it = trailing_.find(line);
    return it == trailing_.end() ? "" : it->second;
  }

  // The file's opening paragraph without its "std/NAME — " prefix.
  std::string summary() const {
    std::vector<std::string> lines;
    for (int l = 1; own_.count(l); ++l) lines.push_back(own_.at(l));
    std::string para = join(lines);
    auto dash = para.find("\xE2\x80\x94 ");
    return dash == std::string::npos ? para : para.substr(dash + std::string("\xE2\x80\x94 ").size());
  }

  static std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) {
      std::string t = trim(l);
      if (t.empty()) {
        if (!out.empty()) break;  // the first paragraph only
        continue;
      }
      if (!out.empty()) out += ' ';
      for (char c : t)
        if (!(c == ' ' && !out.empty() && out.back() == ' ')) out += c;
    }
    return out;
  }

  const ast::Module& ast() const { return module_; }
  const std::string& name() const { return file_.name; }

 private:
  SourceFile file_;
  ast::Module module_;
  std::vector<Comment> comments_;
  std::map<int, std::string> own_;
  std::map<int, std::string> trailing_;
};

std::string signature(const ast::Stmt& s) {
  std::string out = "fn " + s.name + "(";
  for (std::size_t i = 0; i < s.params.size(); ++i) {
    if (i) out += ", ";
    out += s.params[i].name;
    if (s.params[i].default_value) out += " = " + print_expr(*s.params[i].default_value);
  }
  return out + ")";
}

std::string type_text(const ast::FieldDecl& f) {
  return f.type.kind == ast::TypeKind::None ? "" : f.type.text;
}

std::string field_doc(const Module& m, const ast::FieldDecl& f) {
  int line = m.line_of(f.span.begin);
  std::string doc = m.trailing(line);
  if (doc.empty()) doc = first_sentence(m.doc_above(line));
  return doc;
}

void write_record(std::ostream& out, const Module& m, const ast::Stmt& s) {
  int line = m.line_of(s.span.begin);
  std::string doc = m.doc_above(line);
  out << "### " << s.record_kind << " `" << s.name << "`\n\n";
  if (!doc.empty()) out << doc << "\n\n";
  if (s.value) {
    out << code(s.record_kind + " " + s.name + " = " + print_expr(*s.value)) << "\n\n";
    return;
  }
  std::vector<const ast::FieldDecl*> inputs, derived;
  for (const auto& f : s.fields) {
    if (f.type.kind != ast::TypeKind::None || !f.value || ast::is_literal(*f.value)) inputs.push_back(&f);
    else derived.push_back(&f);
  }
  if (!inputs.empty()) {
    out << "| input | type | default | |\n|---|---|---|---|\n";
    for (const auto* f : inputs) {
      std::string def = f->value ? code(print_expr(*f->value)) : "required";
      std::string type = type_text(*f);
      out << "| `" << f->name << "` | " << (type.empty() ? "" : code(type)) << " | " << escape_cell(def) << " | "
          << escape_cell(field_doc(m, *f)) << " |\n";
    }
    out << "\n";
  }
  if (!derived.empty()) {
    out << "| derived | formula | |\n|---|---|---|\n";
    for (const auto* f : derived) {
      out << "| `" << f->name << "` | " << escape_cell(code(print_expr(*f->value))) << " | "
          << escape_cell(field_doc(m, *f)) << " |\n";
    }
    out << "\n";
  }
}

// A catalog entry: `KIND NAME extends BASE { a = 1, ... }`, one table row.
void write_catalog_row(std::ostream& out, const Module& m, const ast::Stmt& s) {
  int line = m.line_of(s.span.begin);
  std::string doc = first_sentence(m.doc_above(line));
  std::string fields;
  for (const auto& f : s.fields) {
    if (f.name == "name") continue;
    if (!fields.empty()) fields += ", ";
    fields += f.name + " = " + (f.value ? print_expr(*f.value) : "?");
  }
  out << "| `" << s.name << "` | " << code(print_expr(*s.base)) << " | " << escape_cell(doc) << " | "
      << escape_cell(fields.empty() ? "" : code(fields)) << " |\n";
}

// Functions without a doc comment directly above them, as "std/NAME:LINE: fn F":
// each function's description is the comment written above it, so a
// function without one (or one that shares its neighbour's) is an error.
std::vector<std::string> undocumented;

// One module's section: its summary, imports, units, records (base ones
// in full, the rest as catalog rows) and functions.
void write_module(std::ostream& out, const Module& m) {
  out << "## " << m.name() << "\n\n";
  if (!m.summary().empty()) out << m.summary() << "\n\n";

  std::vector<std::string> imports, units, dimensions, spellings;
  for (const auto& s : m.ast().statements) {
    if (s.kind == ast::StmtKind::Import) imports.push_back(code(s.name));
    if (s.kind == ast::StmtKind::Unit)
      units.push_back(code(s.value ? s.name + " = " + print_expr(*s.value) : s.name));
    if (s.kind == ast::StmtKind::Dimension) dimensions.push_back(code(s.fields.at(0).type.text) + " (" + s.name + ")");
    if (s.kind == ast::StmtKind::Suggest)
      for (const auto& w : s.suggested_spellings()) spellings.push_back(code(w.name) + " → " + code(s.name));
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string r;
    for (const auto& x : v) r += (r.empty() ? "" : ", ") + x;
    return r;
  };
  if (!imports.empty()) out << "Imports " << list(imports) << ".\n\n";
  if (!units.empty()) out << "Units: " << list(units) << ".\n\n";
  if (!dimensions.empty()) out << "Dimension names: " << list(dimensions) << ".\n\n";
  if (!spellings.empty()) out << "Suggested for other spellings: " << list(spellings) << ".\n\n";

  // Base records (no `extends`) in full; the rest as catalog rows.
  bool catalog_open = false;
  for (const auto& s : m.ast().statements) {
    if (s.kind != ast::StmtKind::Record || s.base) continue;
    write_record(out, m, s);
  }
  for (const auto& s : m.ast().statements) {
    if (s.kind != ast::StmtKind::Record || !s.base) continue;
    if (!catalog_open) {
      out << "### Catalog\n\n| name | extends | | sets |\n|---|---|---|---|\n";
      catalog_open = true;
    }
    write_catalog_row(out, m, s);
  }
  if (catalog_open) out << "\n";

  bool fns_open = false;
  for (const auto& s : m.ast().statements) {
    if (s.kind == ast::StmtKind::Let) {
      out << "- " << code("let " + s.name + " = " + print_expr(*s.value)) << "\n";
      continue;
    }
    if (s.kind != ast::StmtKind::Fn) continue;
    if (!fns_open) {
      out << "### Functions\n\n";
      fns_open = true;
    }
    std::string doc = first_sentence(m.doc_above(m.line_of(s.span.begin)));
    if (doc.empty())
      undocumented.push_back(m.name() + ":" + std::to_string(m.line_of(s.span.begin)) + ": fn " + s.name);
    out << "- " << code(signature(s)) << "  \n  " << code("= " + print_expr(*s.value));
    if (!doc.empty()) out << "  \n  " << doc;
    out << "\n";
  }
  if (fns_open) out << "\n";
}

std::string generate(const fs::path& dir, const fs::path& conventions) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".napkin") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  std::vector<Module> modules;
  for (const auto& f : files) modules.emplace_back(f.stem().string(), read_file(f));

  std::ostringstream out;
  out << "<!-- Generated by stdlib/docgen from stdlib/*.napkin: do not edit. Regenerate with\n"
         "     `cmake --build BUILD --target stdlib-docs`; the test docs.stdlib fails when it drifts. -->\n\n";
  out << "# The standard library\n\n"
         "The standard library is napkin code, embedded in the binary: `import \"std/NAME\"` loads\n"
         "`stdlib/NAME.napkin`. This page lists every module, record, input (with its default),\n"
         "unit and function, with the first sentence of its doc comment; the sources say the rest.\n\n";
  if (!conventions.empty()) out << read_file(conventions) << "\n";

  out << "## Modules\n\n| module | |\n|---|---|\n";
  for (const auto& m : modules) {
    std::string anchor = m.name();
    anchor.erase(std::remove(anchor.begin(), anchor.end(), '/'), anchor.end());
    out << "| [`" << m.name() << "`](#" << anchor << ") | " << escape_cell(first_sentence(m.summary())) << " |\n";
  }
  out << "\n";

  for (const auto& m : modules) write_module(out, m);
  std::string text = out.str();
  while (text.size() >= 2 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir, conventions, out, check;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "napkin-docgen: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--stdlib") dir = next();
    else if (a == "--conventions") conventions = next();
    else if (a == "--out") out = next();
    else if (a == "--check") check = next();
    else {
      std::cerr << "usage: napkin-docgen --stdlib DIR [--conventions FILE] [--out FILE | --check FILE]\n";
      return 2;
    }
  }
  if (dir.empty()) {
    std::cerr << "napkin-docgen: --stdlib DIR is required\n";
    return 2;
  }
  std::string text;
  try {
    text = generate(dir, conventions);
  } catch (const Error& e) {
    std::cerr << "napkin-docgen: a standard-library file does not parse: " << e.what() << "\n";
    return 2;
  }
  if (!undocumented.empty()) {
    for (const auto& u : undocumented)
      std::cerr << u << " has no doc comment directly above it; write one (`# what it returns`)\n";
    return 1;
  }
  if (!check.empty()) {
    if (!fs::exists(check) || read_file(check) != text) {
      std::cerr << check.string() << " is not what stdlib/docgen generates from stdlib/*.napkin;\n"
                << "regenerate it: cmake --build BUILD --target stdlib-docs\n";
      return 1;
    }
    return 0;
  }
  if (!out.empty()) {
    std::ofstream f(out, std::ios::binary);
    f << text;
    return f ? 0 : 2;
  }
  std::cout << text;
  return 0;
}
