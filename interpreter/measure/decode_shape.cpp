#include "decode_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>

namespace napkin::measure {

std::string ModelShape::text() const {
  std::string s = fmt::format("{}[L={},d={},h={},kv={},hd={},vd={},ffn={}x{},V={}", name, layers, d_model, heads,
                              kv_heads, head_dim, v_head_dim, d_ffn, mlp_matrices, vocab);
  if (moe())
    s += fmt::format(",E={},k={},S={},effn={},dense={}", experts, experts_per_token, shared_experts, expert_d_ffn,
                     dense_layers);
  return s + "]";
}

std::optional<ModelShape> ModelShape::parse(const std::string& text, std::string& why) {
  const auto open = text.find('[');
  if (open == std::string::npos || text.back() != ']') {
    why = "a model is given as a record, such as llama3_8b";
    return std::nullopt;
  }
  ModelShape s;
  s.name = text.substr(0, open);
  std::map<std::string, long*> fields{{"L", &s.layers},        {"d", &s.d_model},       {"h", &s.heads},
                                      {"kv", &s.kv_heads},     {"hd", &s.head_dim},     {"vd", &s.v_head_dim},
                                      {"V", &s.vocab},         {"E", &s.experts},       {"k", &s.experts_per_token},
                                      {"S", &s.shared_experts}, {"effn", &s.expert_d_ffn}, {"dense", &s.dense_layers}};
  const std::string body = text.substr(open + 1, text.size() - open - 2);
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t comma = body.find(',', at);
    if (comma == std::string::npos) comma = body.size();
    const std::string item = body.substr(at, comma - at);
    at = comma + 1;
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    auto number = [&](const std::string& v, long& out) {
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
      return ec == std::errc() && end == v.data() + v.size();
    };
    bool ok = eq != std::string::npos;
    if (ok && key == "ffn") {
      const auto x = value.find('x');
      ok = x != std::string::npos && number(value.substr(0, x), s.d_ffn) && number(value.substr(x + 1), s.mlp_matrices);
    } else if (ok) {
      const auto it = fields.find(key);
      ok = it != fields.end() && number(value, *it->second);
    }
    if (!ok) {
      why = fmt::format("the model's shape `{}` cannot be read at `{}`", text, item);
      return std::nullopt;
    }
  }
  if (s.expert_d_ffn == 0) s.expert_d_ffn = s.d_ffn;
  const long sizes[] = {s.layers, s.d_model, s.heads, s.kv_heads, s.head_dim, s.v_head_dim, s.d_ffn, s.vocab,
                        s.experts, s.experts_per_token, s.expert_d_ffn};
  // Each dimension a BLAS `int` can index, and products of two within 2^62.
  if (std::any_of(std::begin(sizes), std::end(sizes), [](long v) { return v < 1 || v > 100'000'000; }) ||
      s.shared_experts < 0 || s.dense_layers < 0) {
    why = fmt::format("the model {} has a shape no decode step can have ({})", s.name, text);
    return std::nullopt;
  }
  if (s.heads % s.kv_heads != 0) {
    why = fmt::format("the model {} has {} heads, not a multiple of its {} KV heads", s.name, s.heads, s.kv_heads);
    return std::nullopt;
  }
  if (s.mlp_matrices != 2 && s.mlp_matrices != 3) {
    why = fmt::format("the model {} has an MLP of {} matrices; a decode step knows 2 (up, down) or 3 (gated)", s.name,
                      s.mlp_matrices);
    return std::nullopt;
  }
  if (s.experts_per_token > s.experts) {
    why = fmt::format("the model {} sends a token to {} of its {} experts", s.name, s.experts_per_token, s.experts);
    return std::nullopt;
  }
  return s;
}

std::vector<long> routed_experts(const ModelShape& s, long layer, long token) {
  std::vector<long> out;
  std::uint64_t x = 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(layer) << 32) ^ static_cast<std::uint64_t>(token);
  while (static_cast<long>(out.size()) < s.experts_per_token) {
    x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33;  // splitmix's finaliser: well spread
    const long e = static_cast<long>(x % static_cast<std::uint64_t>(s.experts));
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    ++x;
  }
  return out;
}

}  // namespace napkin::measure
