// The stack's lowest address under emscripten: see platform/stack_low.hpp.
// The C++ stack lives in linear memory, from its base down to its end.
#include "stack_low.hpp"

#include <emscripten/stack.h>

namespace napkin::platform {

std::uintptr_t thread_stack_low() { return emscripten_stack_get_end(); }

}  // namespace napkin::platform
