#pragma once
// The modules `napkin eval` evaluates an expression in. Interpreter::prelude()
// imports the whole standard library; most expressions need a few modules,
// and loading them all is most of the command's time.
#include "grammar/ast.hpp"
#include "interpreter.hpp"

namespace napkin {

// A module that imports only the standard modules defining the names `e`
// uses, with what they import, in prelude()'s order: what `napkin eval`
// tries first. Null where the names cannot tell (--stdlib DIR, a name two
// modules define, base units that would be declared out of order).
Module* prelude_for(Interpreter& in, const ast::Expr& e);

}  // namespace napkin
