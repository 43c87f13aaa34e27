#pragma once
// Which files an import may read (docs/grading.md, "What napkin reads").
//
// Always: an import is read only if it is napkin source, and a refusal says
// why without quoting the file. Napkin source is a file whose name ends in
// `.napkin` (`.toml` for import_toml, `.json` for import_json), also after every symbolic link on the
// way is followed, that is a regular file (not a FIFO, device or socket), and
// whose bytes are UTF-8 text without NUL or other control bytes but tab,
// newline, carriage return and form feed. A line of a file is quoted in a
// diagnostic only once the file is known to be napkin source, and, for a
// file named on the command line that does not end in `.napkin` (a pipe from
// `<(git show ...)`), only once it has parsed.
//
// Restricted (grading): imports also stay inside one folder, the one that
// holds the file being run: no absolute path, no `..` that leaves it, no
// symbolic link that points out of it.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "grammar/diagnostic.hpp"

namespace napkin {

struct ImportPolicy {
  bool restricted = false;
  std::filesystem::path root;  // restricted: the folder imports stay in (canonical)
};

// The folder a restricted run keeps to: the canonical folder of `file`.
std::filesystem::path import_root(const std::string& file);

// Why the import written as `written` (a path relative to `dir`) may not be
// read under `policy`, as a diagnostic at `at` (E0603 or E0604); or nothing,
// with `text` read. `extension` is ".napkin", ".toml" or ".json". A file that is not
// there is E0600, as before.
std::optional<Diagnostic> read_import_source(const ImportPolicy& policy, const std::string& written,
                                             const std::filesystem::path& dir, std::string_view extension, Span at,
                                             std::string& text);

// The file named on the command line of a restricted run (the submission,
// or a checker beside it), read as an import is: a symbolic link must stay in
// the folder that holds the name given and lead to a `.napkin` file; the file
// must be a regular file (not a FIFO or a device) of text. A refusal (E0603,
// E0604, or E0602 for a file that cannot be read) quotes nothing of it.
std::optional<Diagnostic> read_restricted_file(const std::string& path, std::string& text);

// Whether a diagnostic may quote the file named `path` before it has
// parsed: its name ends in `.napkin` both as given and once every symbolic
// link on the way is followed.
bool named_as_source(const std::string& path);

// Where `text` stops being source text (a NUL, a control byte, a byte that
// is not UTF-8), and what was there, in words; "" when it is all text.
std::string not_text_reason(std::string_view text);

}  // namespace napkin
