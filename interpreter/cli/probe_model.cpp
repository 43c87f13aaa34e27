#include "probe_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "grammar/diagnostic.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/record.hpp"
#include "interpreter/measure/decode_shape.hpp"

namespace napkin::measure {

namespace {

// A count field of `r`: a whole number without a unit. Throws a message.
long count(Interpreter& in, Record* r, const std::string& name, const Span& at) {
  const std::size_t i = r->table->find(name);
  if (i == SlotTable::npos) throw std::runtime_error(fmt::format("it has no field `{}`", name));
  const Value v = in.field(r, i, at);
  if (v.kind != Value::Kind::Quantity || !v.q.dim.dimensionless() || !std::isfinite(v.q.v) || v.q.v < 0 ||
      v.q.v > 1e12 || v.q.v != std::trunc(v.q.v))
    throw std::runtime_error(fmt::format("its `{}` is not a whole number", name));
  return static_cast<long>(v.q.v);
}

Record* record_field(Interpreter& in, Record* r, const std::string& name, const Span& at) {
  const std::size_t i = r->table->find(name);
  if (i == SlotTable::npos) throw std::runtime_error(fmt::format("it has no field `{}`", name));
  const Value v = in.field(r, i, at);
  if (v.kind != Value::Kind::Record) throw std::runtime_error(fmt::format("its `{}` is not a record", name));
  return v.rec;
}

}  // namespace

ModelArg model_arg(Interpreter& in, const Value& v, const Span& at) {
  ModelArg out;
  if (v.kind != Value::Kind::Record || !v.rec) {
    out.wrong = "`model` must be a model record, such as llama3_8b from std/models";
    return out;
  }
  Record* r = v.rec;
  ModelShape s;
  s.name = r->name.empty() ? "model" : r->name;
  try {
    if (count(in, r, "kv_lora_rank", at) > 0 || count(in, r, "q_lora_rank", at) > 0) {
      out.cannot = fmt::format("{} uses multi-head latent attention, which the decode step does not model", s.name);
      return out;
    }
    s.layers = count(in, r, "layers", at);
    s.d_model = count(in, r, "d_model", at);
    s.heads = count(in, r, "heads", at);
    s.kv_heads = count(in, r, "kv_heads", at);
    s.head_dim = count(in, r, "head_dim", at);
    s.v_head_dim = count(in, r, "v_head_dim", at);
    s.d_ffn = count(in, r, "d_ffn", at);
    s.mlp_matrices = count(in, record_field(in, r, "mlp", at), "matrices", at);
    s.vocab = count(in, r, "vocab", at);
    s.experts = count(in, r, "experts", at);
    s.experts_per_token = count(in, r, "experts_per_token", at);
    s.shared_experts = count(in, r, "shared_experts", at);
    s.expert_d_ffn = count(in, r, "expert_d_ffn", at);
    s.dense_layers = count(in, r, "dense_layers", at);
  } catch (const std::runtime_error& e) {
    out.wrong = fmt::format("`model` must be a model record such as llama3_8b (std/transformer's fields), but {}: {}",
                            s.name, e.what());
    return out;
  }
  std::string why;
  if (!ModelShape::parse(s.text(), why)) {
    out.wrong = why;
    return out;
  }
  out.shape = s.text();
  return out;
}

}  // namespace napkin::measure
