#pragma once
// Helpers for tests: load source text, evaluate expressions, and capture
// the rendered diagnostic of an error.
#include <deque>
#include <string>

#include "grammar/parser.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin::test {

struct Session {
  Interpreter in;
  Module* module = nullptr;
  int loaded = 0;

  Module* load(const std::string& text) {
    module = in.load_source("test" + std::to_string(loaded++) + ".napkin", text, "");
    return module;
  }

  Value eval(const std::string& expr) {
    Module* m = module ? module : in.prelude();
    return in.eval_in(m, in.parse_snippet("<expr>", expr));
  }

  std::string show(const std::string& expr) { return in.show(eval(expr)); }

  double si(const std::string& expr) { return eval(expr).q.v; }

  // The rendered error of evaluating `expr`, or "" if it succeeded.
  std::string error(const std::string& expr) {
    try {
      eval(expr);
    } catch (const Error& e) {
      return render(e.diagnostic());
    }
    return "";
  }

  std::string load_error(const std::string& text) {
    try {
      load(text);
    } catch (const Error& e) {
      return render(e.diagnostic());
    }
    return "";
  }
};

}  // namespace napkin::test
