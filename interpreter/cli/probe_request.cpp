#include "probe_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/record.hpp"
#include "interpreter/core/suggest.hpp"
#include "probe_model.hpp"

namespace napkin::measure {

namespace {


// `dtype = bf16` names std/dtypes' record; a string or a whole number also do.
bool arg_text(const Value& v, std::string& out) {
  switch (v.kind) {
    case Value::Kind::Record: out = v.rec->name; return !out.empty();
    case Value::Kind::String: out = v.str(); return true;
    case Value::Kind::Quantity:
      // Checked before the cast: a double past long long's range (1e300) is
      // undefined behaviour to convert.
      if (!v.q.dim.dimensionless() || !std::isfinite(v.q.v) || std::fabs(v.q.v) > 9.0e15 ||
          v.q.v != std::trunc(v.q.v))
        return false;
      out = std::to_string(static_cast<long long>(v.q.v));
      return true;
    default: return false;
  }
}

// What is wrong with the arguments a file gave, whatever the machine: an
// unknown name, a value of the wrong type, a choice the probe does not take,
// or a count that is not a whole number from 1 to kMaxCount. "" when none.
// (How many threads this machine allows is the machine's to say: that is a
// reason to use the fallback, from settle().)
constexpr long long kMaxCount = 1'000'000;
std::string bad_argument(const ProbeInfo& probe, const MeasureRequest& req) {
  for (const auto& [name, value] : req.args) {
    const ProbeArg* arg = nullptr;
    for (const auto& a : probe.args)
      if (a.name == name) arg = &a;
    std::string names;
    for (const auto& a : probe.args) names += (names.empty() ? "" : ", ") + a.name;
    if (!arg)
      return probe.args.empty() ? fmt::format("{} takes no arguments, but was given `{}`", probe.name, name)
                                : fmt::format("{} has no argument `{}` (it takes {})", probe.name, name, names);
    std::string text;
    if (arg->kind == ArgKind::Model) continue;  // read from the record by check_request
    if (arg->whole()) {
      const bool whole = value.kind == Value::Kind::Quantity && arg_text(value, text);
      if (!whole || value.q.v < 1 || value.q.v > static_cast<double>(kMaxCount))
        return fmt::format("`{}` must be a whole number from 1 to {}", name, kMaxCount);
      continue;
    }
    if (!arg_text(value, text))
      return fmt::format("`{}` must be a name such as {}, or a string", name, arg->choices.front());
    if (std::find(arg->choices.begin(), arg->choices.end(), text) == arg->choices.end()) {
      std::string all;
      for (const auto& c : arg->choices) all += (all.empty() ? "" : ", ") + c;
      return fmt::format("{} cannot measure {} = {}: it takes {}", probe.name, name, text, all);
    }
  }
  return "";
}

MeasureResult unknown(const std::string& name) {
  MeasureResult r;
  r.unknown_probe = true;
  std::vector<std::string> names;
  for (const auto& p : probe_list()) names.push_back(p.name);
  const auto close = closest(name, names);
  if (!close.empty()) {
    r.reason = fmt::format("did you mean `{}`?", close.front());
  } else {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    r.reason = "the probes are " + all;
  }
  return r;
}

// The checks that hold whatever the machine and whatever a model record
// holds: the probe is one napkin knows, the model it steps is named, and each
// argument is one it takes, of its kind. The request, with `context = 8192
// token` and `batch = 8 sequence` as the numbers they are; or nothing, with
// `r` saying why.
std::optional<MeasureRequest> named_request(Interpreter& in, const MeasureRequest& asked, MeasureResult& r,
                                            const ProbeInfo*& probe) {
  MeasureRequest req = asked;
  for (auto& [name, value] : req.args)
    for (const char* unit : {"token", "sequence"})
      if (const auto dim = in.units().dimension(unit); dim && value.kind == Value::Kind::Quantity && value.q.dim == *dim)
        value = Value::quantity(value.q.v, Dim{});
  probe = find_probe(req.probe);
  if (!probe) {
    r = unknown(req.probe);
    return std::nullopt;
  }
  for (const ProbeArg& a : probe->args)
    if (a.kind == ArgKind::Model &&
        std::none_of(req.args.begin(), req.args.end(), [&](const auto& given) { return given.first == a.name; })) {
      r.bad_argument = true;
      r.reason = fmt::format("it needs the model to step: measure({}, {} = llama3_8b)", probe->name, a.name);
      return std::nullopt;
    }
  if (std::string bad = bad_argument(*probe, req); !bad.empty()) {
    r.bad_argument = true;  // an error at the call, fallback or not
    r.reason = bad;
    return std::nullopt;
  }
  return req;
}

}  // namespace

std::optional<CheckedRequest> check_request(Interpreter& in, const MeasureRequest& asked, bool off, MeasureResult& r) {
  const ProbeInfo* probe = nullptr;
  const std::optional<MeasureRequest> named = named_request(in, asked, r, probe);
  if (!named) return std::nullopt;
  const MeasureRequest& req = *named;
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& [name, value] : req.args) {
    std::string text;
    if (name == "model") {
      const ModelArg model = model_arg(in, value, req.span);
      if (!model.wrong.empty()) {
        r.bad_argument = true;
        r.reason = model.wrong;
        return std::nullopt;
      }
      if (!model.cannot.empty()) {
        r.reason = model.cannot;
        return std::nullopt;
      }
      given.emplace_back(name, model.shape);
      continue;
    }
    if (!arg_text(value, text)) {
      r.reason = fmt::format("`{}` must be a name such as bf16, a string or a whole number", name);
      return std::nullopt;
    }
    given.emplace_back(name, text);
  }
  Request request{probe, {}};
  if (std::string bad = settle(request, given); !bad.empty()) {
    r.reason = bad;
    return std::nullopt;
  }
  if (off) {
    r.reason = "measurements are off";
    return std::nullopt;
  }
  std::string why;
  const std::string device = device_for(*probe, why);
  if (device.empty()) {
    r.reason = why;
    return std::nullopt;
  }
  return CheckedRequest{std::move(request), device};
}

Prober unmeasured_prober() {
  return [](Interpreter& in, const MeasureRequest& asked) {
    MeasureResult r;
    const ProbeInfo* probe = nullptr;
    if (!named_request(in, asked, r, probe)) return r;
    // Nothing runs here, so nothing is settled against a machine and no model
    // record is read: the page's module stays 13 KB smaller without them.
    device_for(*probe, r.reason);
    if (r.reason.empty()) r.reason = "nothing is measured here";
    return r;
  };
}

}  // namespace napkin::measure
