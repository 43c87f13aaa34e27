#pragma once
// STREAM-style memory bandwidth on the CPU: copy (c = a), triad
// (a = b + s·c) and read (a sum over a, what a decode step's weight read
// does) over arrays too big for the caches, bytes counted the STREAM way
// (each array read or written once per pass).
#include <cstddef>
#include <string>

#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

enum class StreamKernel { Copy, Triad, Read };

// Throws napkin::Error when the arrays cannot be allocated or the
// result is wrong.
Measurement cpu_stream(StreamKernel kernel, int threads, const Settings& s);

// What copy's source array a holds at element i; copy must leave c equal to it.
double stream_source(std::size_t i);

// Sampled elements of the array a pass wrote (c for copy, a for triad),
// against what the kernel must have written: "" or what is wrong.
std::string check_stream(StreamKernel kernel, const double* result, std::size_t n);

// The sum a read pass over n elements of stream_source must give: exact,
// since every value is a whole number and the total stays below 2⁵³.
double stream_source_sum(std::size_t n);
// "" when `sum` is it, else what is wrong.
std::string check_read(double sum, std::size_t n);

}  // namespace napkin::measure
