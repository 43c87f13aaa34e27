#pragma once
// The standard library's .napkin files, embedded at build time
// (stdlib/embed.cmake writes the table).
#include <cstddef>

namespace napkin {

struct EmbeddedFile {
  const char* name;  // "transformer" for stdlib/transformer.napkin
  const char* text;
  std::size_t size;
};

extern const EmbeddedFile kStdlib[];
extern const std::size_t kStdlibCount;

}  // namespace napkin
