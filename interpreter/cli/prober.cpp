#include "prober.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "grammar/diagnostic.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/record.hpp"
#include "interpreter/measure/cache.hpp"
#include "interpreter/measure/probes.hpp"
#include "probe_request.hpp"

namespace napkin::measure {

namespace {

struct State {
  ProberOptions opts;
  std::map<std::string, MeasureResult> done;  // by device and key: a file asks once per run
};

MeasureResult answer(State& st, Interpreter& in, const MeasureRequest& req) {
  const UnitTable& units = in.units();
  MeasureResult r;
  const std::optional<CheckedRequest> checked = check_request(in, req, st.opts.off, r);
  if (!checked) return r;
  const Request& request = checked->request;
  const std::string& device = checked->device;
  const std::string memo_key = device + "\n" + request.key();
  if (auto it = st.done.find(memo_key); it != st.done.end()) return it->second;

  std::optional<Measurement> m;
  const Cache cache(st.opts.cache_path);
  if (!st.opts.cache_path.empty() && !st.opts.remeasure) m = cache.find(device, request.key());
  if (!m) {
    // A sweep over a probe measures cell after cell: a terminal sees which.
    if (isatty(STDERR_FILENO)) fmt::print(stderr, "measuring {} ...\n", request.key());
    try {
      m = run(request, st.opts.settings);
    } catch (const Error& e) {
      r.reason = e.diagnostic().message;
      return st.done[memo_key] = r;
    }
    if (!st.opts.cache_path.empty()) {
      try {
        cache.store(device, *m);
      } catch (const Error& e) {
        m->warnings.push_back(fmt::format("not cached: {}", e.diagnostic().message));
      }
    }
  }
  r.ok = true;
  r.value = to_value(*m, units);
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
  return [st](Interpreter& in, const MeasureRequest& req) { return answer(*st, in, req); };
}

Value to_value(const Measurement& m, const UnitTable& units) {
  return Value::quantity(m.value, units.dimension(m.unit).value_or(Dim{}));
}

}  // namespace napkin::measure
