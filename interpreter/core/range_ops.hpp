#pragma once
// Arithmetic on ranges, sample by sample. The caller has already checked
// dimensions and computed the result's point value (`nominal`: the same
// operation on the operands' point values) with the scalar code, so an
// operation is checked once, not once per sample; these only run the
// samples through and hand the result to Interpreter::range_result, which
// checks them and attaches them to `nominal`.
#include <utility>

#include "interpreter.hpp"
#include "samples.hpp"

namespace napkin {

// A range's samples to write the result into: the operand's own when no one
// else holds them (a temporary such as `a * b` inside `a * b * c`), so a
// chain of operations does not allocate a new set at every step.
inline SampleVector result_buffer(const Value& x) {
  if (x.samples.use_count() == 1) return std::move(const_cast<Samples&>(*x.samples).v);  // NOLINT
  return SampleVector(x.samples->v.size());
}

template <class F>
Value map_samples(Interpreter& in, const Value& x, Value nominal, Span span, F f) {
  if (!x.samples) return nominal;
  const SampleVector& src = x.samples->v;
  const std::size_t n = src.size();
  if (x.samples.use_count() == 1) {
    SampleVector out = result_buffer(x);
    for (std::size_t i = 0; i < n; ++i) out[i] = f(out[i]);
    return in.range_result(std::move(out), std::move(nominal), span);
  }
  SampleVector out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = f(src[i]);
  return in.range_result(std::move(out), std::move(nominal), span);
}

template <class F>
Value zip_samples(Interpreter& in, const Value& a, const Value& b, Value nominal, Span span, F f) {
  if (!a.samples && !b.samples) return nominal;
  if (!b.samples) {
    const double y = b.q.v;
    return map_samples(in, a, std::move(nominal), span, [&](double x) { return f(x, y); });
  }
  if (!a.samples) {
    const double x = a.q.v;
    return map_samples(in, b, std::move(nominal), span, [&](double y) { return f(x, y); });
  }
  if (a.samples->v.size() != b.samples->v.size())
    fail(codes::internal, span, "two ranges with different numbers of samples");
  const std::size_t n = a.samples->v.size();
  if (a.samples.use_count() == 1 && a.samples != b.samples) {
    SampleVector out = result_buffer(a);
    const double* y = b.samples->v.data();
    for (std::size_t i = 0; i < n; ++i) out[i] = f(out[i], y[i]);
    return in.range_result(std::move(out), std::move(nominal), span);
  }
  if (b.samples.use_count() == 1 && a.samples != b.samples) {
    SampleVector out = result_buffer(b);
    const double* x = a.samples->v.data();
    for (std::size_t i = 0; i < n; ++i) out[i] = f(x[i], out[i]);
    return in.range_result(std::move(out), std::move(nominal), span);
  }
  SampleVector out(n);
  const double* x = a.samples->v.data();
  const double* y = b.samples->v.data();
  for (std::size_t i = 0; i < n; ++i) out[i] = f(x[i], y[i]);
  return in.range_result(std::move(out), std::move(nominal), span);
}

}  // namespace napkin
