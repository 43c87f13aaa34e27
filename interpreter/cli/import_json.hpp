#pragma once
// `import_json("config.json")`: a JSON file as napkin values. An object is
// a record (one field per key that is a napkin name), an array a list, a
// number a plain number, a string a string, true and false booleans:
//   let cfg = import_json("config.json")
//   let layers = cfg.num_hidden_layers
// What napkin cannot hold (null, an integer past 2^53, a string with control
// characters) is a field that is an error (E0605) when read, naming its key
// path and its place in the file; get(record, "name", default) takes such a
// field, as an absent one, for its default.
#include "interpreter/core/function.hpp"

namespace napkin::cli {

// Given to the interpreter through Options::builtins.
Function import_json_builtin();

// The builtin `import_json(path)` with `body` behind it (the playground's
// has no file to read).
inline Function import_json_function(Function::Builtin body) {
  Function f;
  f.name = "import_json";
  f.builtin = body;
  f.min_args = 1;
  f.max_args = 1;
  f.signature = "import_json(path)";
  return f;
}

}  // namespace napkin::cli
