// Evaluating an expression inside a record's scope, for the analyses that
// ask a condition of a record at many values of one input (napkin solve).
#include "interpreter.hpp"

namespace napkin {

Value Interpreter::eval_in_record(Module* m, Record* r, const ast::Expr& e, Trace* trace) {
  TraceScope scope(*this, trace);
  Env* env = new_env(m->env, r, nullptr);
  struct Release {
    Interpreter* in;
    Env* env;
    ~Release() { in->release_env(env); }
  } release{this, env};
  return eval(e, env);
}

}  // namespace napkin
