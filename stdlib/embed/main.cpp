// napkin-embed-stdlib: writes the C++ file that carries the standard library
// inside the binary. For each stdlib/*.napkin it holds the text, the syntax
// tree compiled to words (grammar/compiled_ast.hpp), the names the module
// defines at its top level and the modules it imports, so that a run
// rebuilds a module's tree instead of parsing it, and knows which modules
// define a name without reading any.
// Links only napkin_grammar: it parses, it never evaluates.
//
//   napkin-embed-stdlib [--text-only] --out FILE.cpp MODULE.napkin...
//
// --text-only leaves the trees out (the playground's WebAssembly module,
// where every byte is downloaded: the trees are a third of the embedded
// library gzipped, and parsing a module there costs milliseconds); each
// module is then parsed when first imported.
//
// A module that does not parse fails the build with the parser's message.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "grammar/compiled_ast.hpp"
#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"

namespace fs = std::filesystem;
using namespace napkin;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `{0x23,0x20,...,0}`: bytes, with a NUL after them, 24 to a line.
void write_bytes(std::ostream& out, std::string_view bytes) {
  out << "{";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i % 24 == 0) out << "\n    ";
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x,", static_cast<unsigned char>(bytes[i]));
    out << buf;
  }
  out << "0}";
}

template <typename T>
void write_words(std::ostream& out, const std::vector<T>& words) {
  out << "{";
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i % 16 == 0) out << "\n    ";
    out << words[i] << "u,";
  }
  out << "0u}";  // never empty, and the size below does not count it
}

// Module `i`, read from `path`: its text, its compiled tree (unless
// `text_only`) and the names it defines and imports, as arrays in `body`,
// and its row of the table in `table`.
void embed_module(std::size_t i, const fs::path& path, bool text_only, std::ostream& body, std::ostream& table) {
  const std::string name = path.stem().string();
  SourceFile file{"std/" + name, read_file(path), ""};
  const ast::Module m = parse_module(file);
  CompiledAstData c;
  if (!text_only) {
    c = compile_ast(m);
    // The tree must come back as it went in: checked here, so a tree the
    // words cannot carry fails the build rather than a run.
    if (compile_ast(load_compiled_ast(c.view(), file)).words != c.words)
      throw std::runtime_error("std/" + name + ": the compiled tree does not read back the same");
  }
  std::vector<std::string> names;
  std::vector<std::string> imports;
  bool base_units = false;
  for (const auto& st : m.statements) {
    if (st.kind == ast::StmtKind::Let || st.kind == ast::StmtKind::Fn || st.kind == ast::StmtKind::Record)
      names.push_back(st.name);
    if (st.kind == ast::StmtKind::Import && st.name.rfind("std/", 0) == 0) imports.push_back(st.name.substr(4));
    if (st.kind == ast::StmtKind::Unit && !st.value) base_units = true;
  }

  body << "// std/" << name << "\n";
  body << "const unsigned char text" << i << "[] = ";
  write_bytes(body, file.text);
  body << ";\nconst std::uint32_t words" << i << "[] = ";
  write_words(body, c.words);
  body << ";\nconst unsigned char strings" << i << "[] = ";
  write_bytes(body, c.strings);
  body << ";\nconst std::uint32_t string_ends" << i << "[] = ";
  write_words(body, c.string_ends);
  body << ";\nconst char* const names" << i << "[] = {";
  for (const auto& n : names) body << "\n    \"" << n << "\",";  // names are identifiers: nothing to escape
  body << "\n    nullptr};\nconst char* const imports" << i << "[] = {";
  for (const auto& n : imports) body << "\n    \"" << n << "\",";  // module names: nothing to escape
  body << "\n    nullptr};\n\n";

  table << "    {\"" << name << "\", reinterpret_cast<const char*>(text" << i << "), " << file.text.size()
        << ",\n     {words" << i << ", " << c.words.size() << ", reinterpret_cast<const char*>(strings" << i
        << "), string_ends" << i << ", " << c.string_ends.size() << "},\n     names" << i << ", "
        << names.size() << ",\n     imports" << i << ", " << imports.size() << ", " << (base_units ? "true" : "false")
        << "},\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  std::vector<fs::path> files;
  bool text_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc)
      out_path = argv[++i];
    else if (a == "--text-only")
      text_only = true;
    else
      files.emplace_back(a);
  }
  if (out_path.empty() || files.empty()) {
    std::cerr << "usage: napkin-embed-stdlib [--text-only] --out FILE.cpp MODULE.napkin...\n";
    return 2;
  }
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) { return a.stem() < b.stem(); });

  std::ostringstream body;
  std::ostringstream table;
  body << "// Generated by napkin-embed-stdlib (stdlib/embed/main.cpp). Do not edit.\n"
          "#include \"interpreter/core/stdlib_files.hpp\"\n\n"
          "namespace napkin {\nnamespace {\n";
  try {
    for (std::size_t i = 0; i < files.size(); ++i) embed_module(i, files[i], text_only, body, table);
  } catch (const Error& e) {
    std::cerr << render(e.diagnostic());
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "napkin-embed-stdlib: " << e.what() << "\n";
    return 1;
  }
  body << "}  // namespace\n\nconst EmbeddedFile kStdlib[] = {\n"
       << table.str() << "    {nullptr, nullptr, 0, {}, nullptr, 0, nullptr, 0, false}};\nconst std::size_t kStdlibCount = " << files.size()
       << ";\n\n}  // namespace napkin\n";

  const std::string tmp = out_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << body.str();
    if (!out) {
      std::cerr << "napkin-embed-stdlib: cannot write " << tmp << "\n";
      return 1;
    }
  }
  fs::rename(tmp, out_path);
  return 0;
}
