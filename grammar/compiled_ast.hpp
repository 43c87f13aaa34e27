#pragma once
// A module's syntax tree as a flat array of words and a table of the names
// and texts it holds: the form the build stores the standard library in, so
// that a run rebuilds a module's tree without parsing it. Spans are kept as
// offsets and point into whatever file the tree is rebuilt against, which
// must be the text it was compiled from.
#include <cstdint>
#include <string>
#include <vector>

#include "ast.hpp"

namespace napkin {

// A compiled tree, as the build's arrays hold it.
struct CompiledAst {
  const std::uint32_t* words = nullptr;
  std::size_t size = 0;
  const char* strings = nullptr;              // every distinct string, back to back
  const std::uint32_t* string_ends = nullptr;  // where string i ends; it starts where i-1 ends
  std::size_t string_count = 0;
};

// What compile_ast writes; view() reads it as the build's arrays are read.
struct CompiledAstData {
  std::vector<std::uint32_t> words;
  std::string strings;
  std::vector<std::uint32_t> string_ends;

  CompiledAst view() const {
    return {words.data(), words.size(), strings.data(), string_ends.data(), string_ends.size()};
  }
};

// `m` must have been parsed from one file: every span it holds points into
// that file or is empty.
CompiledAstData compile_ast(const ast::Module& m);

// The tree again, every span pointing into `file`. Nodes get fresh
// identities (ast::Expr::id), as a parse would give them.
ast::Module load_compiled_ast(const CompiledAst& c, const SourceFile& file);

}  // namespace napkin
