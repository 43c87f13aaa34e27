#pragma once
// file:// URIs and the paths they name, and the read-only copies of the
// standard library's modules that a definition in std/ opens.
#include <string>
#include <string_view>

#include "grammar/source.hpp"

namespace napkin::lsp {

std::string path_to_uri(const std::string& path);
// The path of a file:// URI, percent-decoded; "" for any other scheme.
std::string uri_to_path(const std::string& uri);

// Where the copies go: $XDG_CACHE_HOME/napkin/std/VERSION, else
// ~/.cache/napkin/std/VERSION, else the system's temporary folder.
std::string default_std_dir();

// True if NAME (of `std/NAME`) names a file inside the folder it is put in:
// parts of letters, digits, `_`, `-` and `.` between single slashes, none
// starting with `.` (so no `..`), nothing absolute.
bool std_module_name(std::string_view name);

// The URI of `dir`/NAME.napkin holding the text of the built-in module
// `std/NAME`, written (whole, atomically) if it is missing or differs;
// "" if it cannot be written, or if NAME is not std_module_name (it would
// be written outside `dir`).
std::string std_file_uri(const SourceFile& module, const std::string& dir);

}  // namespace napkin::lsp
