#pragma once
// STREAM-style memory bandwidth on the CPU: copy (c = a) and triad
// (a = b + s·c) over arrays too big for the caches, bytes counted the STREAM
// way (each array read or written once per pass).
#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

enum class StreamKernel { Copy, Triad };

// Throws std::runtime_error when the arrays cannot be allocated or the
// result is wrong.
Measurement cpu_stream(StreamKernel kernel, int threads, const Settings& s);

}  // namespace napkin::measure
