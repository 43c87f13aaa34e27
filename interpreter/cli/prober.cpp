#include "prober.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>

#include "interpreter/core/suggest.hpp"
#include "interpreter/measure/cache.hpp"
#include "interpreter/measure/probes.hpp"

namespace napkin::measure {

namespace {

struct State {
  ProberOptions opts;
  std::map<std::string, MeasureResult> done;  // by device and key: a file asks once per run
};

// `dtype = bf16` names std/dtypes' record; a string or a whole number also do.
bool arg_text(const Value& v, std::string& out) {
  switch (v.kind) {
    case Value::Kind::Record: out = v.rec->name; return !out.empty();
    case Value::Kind::String: out = *v.s; return true;
    case Value::Kind::Quantity:
      if (!v.q.dim.dimensionless() || v.q.v != static_cast<double>(static_cast<long long>(v.q.v))) return false;
      out = std::to_string(static_cast<long long>(v.q.v));
      return true;
    default: return false;
  }
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

MeasureResult answer(State& st, const MeasureRequest& req) {
  const ProbeInfo* probe = find_probe(req.probe);
  if (!probe) return unknown(req.probe);
  MeasureResult r;
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& [name, value] : req.args) {
    std::string text;
    if (!arg_text(value, text)) {
      r.reason = fmt::format("`{}` must be a name such as bf16, a string or a whole number", name);
      return r;
    }
    given.emplace_back(name, text);
  }
  Request request{probe, {}};
  if (std::string bad = settle(request, given); !bad.empty()) {
    r.reason = bad;
    return r;
  }
  if (st.opts.off) {
    r.reason = "measurements are off";
    return r;
  }
  std::string why;
  const std::string device = device_for(*probe, why);
  if (device.empty()) {
    r.reason = why;
    return r;
  }
  const std::string memo_key = device + "\n" + request.key();
  if (auto it = st.done.find(memo_key); it != st.done.end()) return it->second;

  std::optional<Measurement> m;
  const Cache cache(st.opts.cache_path);
  if (!st.opts.cache_path.empty() && !st.opts.remeasure) m = cache.find(device, request.key());
  if (!m) {
    try {
      m = run(request, st.opts.settings);
    } catch (const std::exception& e) {
      r.reason = e.what();
      return st.done[memo_key] = r;
    }
    if (!st.opts.cache_path.empty()) {
      try {
        cache.store(device, *m);
      } catch (const std::exception& e) {
        m->warnings.push_back(fmt::format("not cached: {}", e.what()));
      }
    }
  }
  r.ok = true;
  r.value = to_value(*m);
  r.provenance = provenance(*m);
  return st.done[memo_key] = r;
}

}  // namespace

ProberOptions ProberOptions::from(bool no_measure, bool remeasure) {
  ProberOptions o;
  const char* env = std::getenv("NAPKIN_NO_MEASURE");
  o.off = no_measure || (env && *env && std::string(env) != "0");
  o.remeasure = remeasure;
  o.cache_path = Cache::default_path();
  o.settings = Settings::from_environment();
  return o;
}

Prober make_prober(ProberOptions o) {
  auto st = std::make_shared<State>();
  st->opts = std::move(o);
  return [st](Interpreter&, const MeasureRequest& req) { return answer(*st, req); };
}

Value to_value(const Measurement& m) {
  Dim d;
  if (m.unit == "B/s") d = Dim::base(kByte) / Dim::base(kSecond);
  else if (m.unit == "FLOP/s") d = Dim::base(kFlop) / Dim::base(kSecond);
  else if (m.unit == "s") d = Dim::base(kSecond);
  else if (m.unit == "B") d = Dim::base(kByte);
  return Value::quantity(m.value, d);
}

}  // namespace napkin::measure
