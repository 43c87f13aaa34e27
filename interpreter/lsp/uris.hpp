#pragma once
// file:// URIs and the paths they name, and the read-only copies of the
// standard library's modules that a definition in std/ opens.
#include <string>

#include "grammar/source.hpp"

namespace napkin::lsp {

std::string path_to_uri(const std::string& path);
// The path of a file:// URI, percent-decoded; "" for any other scheme.
std::string uri_to_path(const std::string& uri);

// Where the copies go: $XDG_CACHE_HOME/napkin/std/VERSION, else
// ~/.cache/napkin/std/VERSION, else the system's temporary folder.
std::string default_std_dir();

// The URI of `dir`/NAME.napkin holding the text of the built-in module
// `std/NAME`, written (whole, atomically) if it is missing or differs;
// "" if it cannot be written.
std::string std_file_uri(const SourceFile& module, const std::string& dir);

}  // namespace napkin::lsp
