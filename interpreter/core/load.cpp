// Loading modules: files, the embedded standard library and imports, each
// file parsed once and its bindings registered. The units a module declares
// and uses are settled in unit_resolution.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "grammar/compiled_ast.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "declarations.hpp"
#include "interpreter.hpp"
#include "interpreter/io/import_policy.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "stdlib_names.hpp"
#include "suggest.hpp"

namespace napkin {

namespace fs = std::filesystem;

Module* Interpreter::load_file(const std::string& path) {
  std::string text;
  if (opts_.imports.restricted) {
    // A submission is read as an import is: a symbolic link planted in its
    // place (to /proc/self/environ, or to the reference) is refused unread.
    if (auto refused = read_restricted_file(path, text)) throw Error(std::move(*refused));
  } else if (const int err = read_source(path, text, /*allow_pipe=*/true)) {
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot read {}: {}", path, read_error_text(err));
    throw Error(std::move(d));
  }
  const fs::path p(path);
  const std::string name = p.lexically_normal().generic_string();
  // A file named on the command line is read whatever its name; one whose
  // name does not end in .napkin (a pipe, anything else, or a link to such a
  // file) is quoted in no diagnostic until it parses, and is refused if it
  // is not text.
  if (named_as_source(path)) return load_source(name, std::move(text), p.parent_path().generic_string());
  if (const std::string why = not_text_reason(text); !why.empty()) {
    Diagnostic d;
    d.code = codes::not_source;
    d.message = fmt::format("{} is not napkin source: {}", name, why);
    d.help = "napkin reads UTF-8 text; a napkin file's name ends in .napkin";
    throw Error(std::move(d));
  }
  auto file = std::make_unique<SourceFile>();
  file->name = name;
  file->text = std::move(text);
  file->dir = p.parent_path().generic_string();
  file->quotable = false;  // until it parses (load_parsed)
  try {
    return load_parsed(std::move(file));
  } catch (Error& e) {
    Diagnostic& d = e.diagnostic();
    const bool here = !d.labels.empty() && d.labels[0].span.valid() && !d.labels[0].span.file->quotable;
    if (here) {  // a parse error: its words may quote the file too
      d.message = fmt::format("{} does not parse as napkin source ({}); its text is not shown, as its name does not end in .napkin",
                              name, code_text(d.code));
      d.help.clear();
      d.notes.clear();
      for (auto& l : d.labels) l.text.clear();
    }
    throw;
  }
}

Module* Interpreter::load_source(std::string name, std::string text, std::string dir) {
  auto file = std::make_unique<SourceFile>();
  file->name = std::move(name);
  file->text = std::move(text);
  file->dir = std::move(dir);
  return load_parsed(std::move(file));
}

std::vector<std::string> Interpreter::std_modules() {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kStdlibCount; ++i) out.emplace_back(kStdlib[i].name);
  return out;
}

Module* Interpreter::load_std(const std::string& name) {
  // A standard module's name is a plain name: `std/../x` would read a file
  // beside --stdlib DIR, or anywhere, past the import policy.
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
                          std::string::npos)
    return nullptr;
  const std::string display = "std/" + name;
  if (auto it = loaded_.find(display); it != loaded_.end()) return it->second;
  auto file = std::make_unique<SourceFile>();
  file->name = display;
  bool found = false;
  const CompiledAst* compiled = nullptr;  // the built-in copy's tree, parsed when napkin was built
  if (!opts_.stdlib_dir.empty()) {
    // A module the directory lacks comes from the built-in copy; one it has
    // is read as any source file is: a regular file, up to the size limit.
    const fs::path p = fs::path(opts_.stdlib_dir) / (name + ".napkin");
    const int err = read_source(p.string(), file->text);
    if (err && err != ENOENT) {
      Diagnostic d;
      d.code = codes::io;
      d.message = fmt::format("cannot read {} for std/{}: {}", p.generic_string(), name, read_error_text(err));
      throw Error(std::move(d));
    }
    found = !err;
  }
  for (std::size_t i = 0; !found && i < kStdlibCount; ++i)
    if (name == kStdlib[i].name) {
      file->text.assign(kStdlib[i].text, kStdlib[i].size);
      if (kStdlib[i].ast.size) compiled = &kStdlib[i].ast;  // else embedded as text only (the playground)
      found = true;
    }
  if (!found) return nullptr;
  Module* m = load_parsed(std::move(file), compiled);
  m->is_std = true;
  return m;
}

std::unique_ptr<SourceFile> Interpreter::read_import(Module* from, const ast::Stmt& imp) {
  fs::path p = fs::path(from->file->dir) / imp.name;
  auto file = std::make_unique<SourceFile>();
  file->name = p.lexically_normal().generic_string();
  file->dir = p.lexically_normal().parent_path().generic_string();
  if (auto refused = read_import_source(opts_.imports, imp.name, fs::path(from->file->dir), ".napkin", imp.name_span,
                                        file->text)) {
    throw Error(std::move(*refused));
  } else if (std::error_code ec; file->text.empty() && !fs::exists(fs::status(p, ec))) {
    Diagnostic d;
    d.code = codes::import_not_found;
    d.message = fmt::format("cannot find the file \"{}\" (looked for {})", imp.name, file->name);
    d.labels.push_back({imp.name_span, "imported here", true});
    d.help = "paths are relative to the importing file; the standard library is imported as \"std/NAME\"";
    throw Error(std::move(d));
  }
  return file;
}

// One `import` of a module being loaded: a file beside it or a standard
// module, refused where it closes a cycle or names no module.
Module* Interpreter::load_import(Module* m, const ast::Stmt& st) {
  std::string dep_key;
  std::unique_ptr<SourceFile> dep_file;
  if (st.name.rfind("std/", 0) == 0) {
    dep_key = st.name;
  } else {
    dep_file = read_import(m, st);
    dep_key = dep_file->name;
  }
  if (std::find(loading_.begin(), loading_.end(), dep_key) != loading_.end()) {
    std::string chain;
    for (auto it = std::find(loading_.begin(), loading_.end(), dep_key); it != loading_.end(); ++it) chain += *it + " -> ";
    Diagnostic d;
    d.code = codes::import_cycle;
    d.message = "import cycle: " + chain + dep_key;
    d.labels.push_back({st.name_span, "this import closes the cycle", true});
    d.help = "move what both files need into a third file that both import";
    throw Error(std::move(d));
  }
  if (dep_file) return load_parsed(std::move(dep_file));
  Module* dep = nullptr;
  try {
    dep = load_std(st.name.substr(4));
  } catch (Error& e) {
    // A --stdlib module that cannot be read: the import that asked for it is the place.
    if (std::none_of(e.diagnostic().labels.begin(), e.diagnostic().labels.end(),
                     [](const Label& l) { return l.span.valid(); }))
      e.diagnostic().labels.push_back({st.name_span, "imported here", true});
    throw;
  }
  if (!dep) {
    std::vector<std::string> names = std_modules();
    const auto close = closest(st.name.substr(4), names);
    Diagnostic d;
    d.code = codes::import_not_found;
    d.message = fmt::format("there is no standard module \"{}\"", st.name);
    d.labels.push_back({st.name_span, "imported here", true});
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "std/" : ", std/") + n;
    d.help = close.empty() ? "the standard modules are " + all : fmt::format("did you mean \"std/{}\"?", close[0]);
    throw Error(std::move(d));
  }
  return dep;
}

Module* Interpreter::load_parsed(std::unique_ptr<SourceFile> file, const CompiledAst* compiled) {
  const std::string key = file->name;
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second;
  // The base dimensions every file writes are declared in std/units: it
  // comes before any other module, so they are numbered first.
  if (static const std::string units = std::string("std/") + stdlib_names::units_module;
      key != units && !loaded_.count(units))
    load_std(stdlib_names::units_module);
  // Text from an editor, the page or a notebook comes here without read_source.
  if (!compiled) normalize_source(file->text);
  auto mod = std::make_unique<Module>();
  Module* m = mod.get();
  m->file = std::move(file);
  modules_.push_back(std::move(mod));  // owned before parsing: an error's spans point into its file
  m->ast = compiled ? load_compiled_ast(*compiled, *m->file) : parse_module(*m->file);
  m->file->quotable = true;  // it parsed: every line of it is napkin source
  m->env = new_env(nullptr, nullptr, m);

  loading_.push_back(key);
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Import) continue;
    Module* dep = load_import(m, st);
    if (std::find(m->imports.begin(), m->imports.end(), dep) == m->imports.end()) m->imports.push_back(dep);
  }
  loading_.pop_back();

  register_bindings(m);
  declare_units(m);
  for (const auto& st : m->ast.statements) {
    if (st.value) check_units(*st.value);
    if (st.base) check_units(*st.base);
    if (st.expected) check_units(*st.expected);
    if (st.tolerance) check_units(*st.tolerance);
    for (const auto& p : st.params)
      if (p.default_value) check_units(*p.default_value);
    check_units(st.fields);
  }
  declare_words(*this, *m);
  loaded_[key] = m;
  return m;
}

void Interpreter::register_bindings(Module* m) {
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Let && st.kind != ast::StmtKind::Fn && st.kind != ast::StmtKind::Record) continue;
    if (auto it = m->own.find(st.name); it != m->own.end()) {
      Diagnostic d;
      d.code = codes::duplicate;
      d.message = fmt::format("`{}` is defined twice in this file", st.name);
      d.labels.push_back({st.name_span, "defined again here", true});
      d.labels.push_back({it->second->stmt->name_span, "first defined here", false});
      d.help = "give one of them another name";
      throw Error(std::move(d));
    }
    Binding& b = bindings_.emplace_back();
    b.name = st.name;
    b.stmt = &st;
    b.module = m;
    if (st.kind == ast::StmtKind::Fn) {
      b.fn.name = st.name;
      b.fn.decl = &st;
      b.fn.module = m;
      int required = 0;
      for (const auto& p : st.params)
        if (!p.default_value) ++required;
      b.fn.min_args = required;
      b.fn.max_args = static_cast<int>(st.params.size());
      std::string sig = st.name + "(";
      for (std::size_t i = 0; i < st.params.size(); ++i) sig += (i ? ", " : "") + st.params[i].name;
      b.fn.signature = sig + ")";
    }
    m->own[st.name] = &b;
    m->order.push_back(&b);
  }
}

const ast::Expr& Interpreter::parse_snippet(std::string name, std::string text) {
  snippets_.push_back(SourceFile{std::move(name), std::move(text), ""});
  snippet_trees_.push_back(parse_expression(snippets_.back()));
  return *snippet_trees_.back();
}

}  // namespace napkin
