#pragma once
// The standard library's .napkin files, embedded at build time: each one's
// text, its syntax tree compiled to words, the names it defines and the
// modules it imports (napkin-embed-stdlib, stdlib/embed/main.cpp, writes the
// table).
#include <cstddef>

#include "grammar/compiled_ast.hpp"

namespace napkin {

struct EmbeddedFile {
  const char* name;  // "transformer" for stdlib/transformer.napkin
  const char* text;
  std::size_t size;
  CompiledAst ast;           // the text's tree: spans are offsets into `text`
  const char* const* names;  // what it defines at its top level (let, fn, record), in order
  std::size_t name_count;
  const char* const* imports;  // the standard modules it imports, in order ("dtypes")
  std::size_t import_count;
  bool base_units;  // whether it declares a base unit (`unit W`)
};

extern const EmbeddedFile kStdlib[];
extern const std::size_t kStdlibCount;

}  // namespace napkin
