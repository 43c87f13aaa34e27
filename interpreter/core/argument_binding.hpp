#pragma once
// Which parameter each argument of a call fills, written once: positional
// arguments take the parameters in order, named ones the parameter of that
// name. The evaluator (calls.cpp) reports what is wrong with a call; the
// sweep compiler and `--flat` (which only see calls that ran) bind the same
// way.
#include <cstddef>
#include <string>
#include <vector>

#include "grammar/ast.hpp"

namespace napkin {

struct ArgumentBinding {
  enum class Problem {
    none,
    too_many,      // a positional argument past the last parameter
    unknown_name,  // a name no parameter has
    given_twice,   // a parameter filled by two arguments
  };
  std::vector<std::size_t> slot;  // each argument's parameter (until the first problem)
  Problem problem = Problem::none;
  std::size_t at = 0;  // the argument with the problem
};

// `names`: each argument's name, "" for a positional one.
inline ArgumentBinding bind_arguments(const std::vector<ast::Param>& params, const std::vector<std::string>& names) {
  ArgumentBinding b;
  std::vector<bool> filled(params.size(), false);
  std::size_t positional = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::size_t slot = params.size();
    if (names[i].empty()) {
      slot = positional++;
      if (slot >= params.size()) return (b.problem = ArgumentBinding::Problem::too_many, b.at = i, b);
    } else {
      for (std::size_t p = 0; p < params.size() && slot == params.size(); ++p)
        if (params[p].name == names[i]) slot = p;
      if (slot == params.size()) return (b.problem = ArgumentBinding::Problem::unknown_name, b.at = i, b);
    }
    if (filled[slot]) return (b.problem = ArgumentBinding::Problem::given_twice, b.at = i, b);
    filled[slot] = true;
    b.slot.push_back(slot);
  }
  return b;
}

}  // namespace napkin
