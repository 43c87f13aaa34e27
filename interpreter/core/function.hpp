#pragma once
// Functions as values: a user `fn` (its declaration and the module it was
// written in) or a builtin (a C++ function over the interpreter and the
// call's arguments). Builtins are registered by the core (builtins.cpp,
// ranges.cpp) and by the program embedding it (Options::builtins).
#include <string>
#include <vector>

#include "grammar/ast.hpp"
#include "value.hpp"

namespace napkin {

class Interpreter;
struct Module;
struct Env;

struct CallArgs {
  const ast::Expr* call = nullptr;     // the call expression, for spans
  std::vector<Value> values;
  std::vector<const ast::Expr*> nodes;  // the argument expressions
  Env* env = nullptr;                   // the scope the call is written in
};

struct Function {
  std::string name;
  const ast::Stmt* decl = nullptr;  // a user `fn`
  Module* module = nullptr;
  using Builtin = Value (*)(Interpreter&, const CallArgs&);
  Builtin builtin = nullptr;
  int min_args = 0;
  int max_args = 0;  // -1: any number
  std::string signature;  // "max(a, b, ...)"
};

}  // namespace napkin
