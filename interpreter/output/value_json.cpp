#include "value_json.hpp"

#include "interpreter/core/format.hpp"
#include "interpreter/core/samples.hpp"

namespace napkin {

nlohmann::ordered_json range_json(const Value& v) {
  const RangeSummary& q = range_summary(v);
  nlohmann::ordered_json range = nlohmann::ordered_json::object();
  range["p5"] = q.p5;
  range["p50"] = q.p50;
  range["p95"] = q.p95;
  range["mean"] = q.mean;
  range["sd"] = q.sd;
  range["samples"] = v.samples->v.size();
  return range;
}

nlohmann::ordered_json value_json(const Interpreter& in, const Value& v, int digits) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (v.kind == Value::Kind::Quantity) {
    j["si"] = unsigned_zero(is_range(v) ? range_summary(v).p50 : v.q.v);
    j["unit"] = v.q.dim.dimensionless() ? std::string() : in.units().format(v.q.dim);
    if (is_range(v)) j["range"] = range_json(v);
  } else if (v.kind == Value::Kind::Bool) {
    j["value"] = v.b;
  } else if (v.kind == Value::Kind::String) {
    j["value"] = v.str();
  } else {
    j["value"] = in.show(v);
  }
  j["display"] = digits > 0 ? in.show(v, digits) : in.show(v);
  return j;
}

}  // namespace napkin
