#include "catalog.hpp"

#include <cctype>
#include <sstream>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_names.hpp"

namespace napkin::measure {

namespace {

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  return out;
}

}  // namespace

std::optional<Spec> catalog_spec(const std::string& device_name) {
  const std::vector<std::string> device = words(device_name);
  auto has = [&](const std::string& w) {
    for (const auto& d : device)
      if (d == w) return true;
    return false;
  };
  Interpreter in;
  Module* m = in.load_std(stdlib_names::hardware_module);
  if (!m) return std::nullopt;
  std::optional<Spec> best;
  int best_score = 0;
  for (Binding* b : m->order) {
    try {
      Value v = in.top_value(b, Span{});
      if (v.kind != Value::Kind::Record || b->name == stdlib_names::gpu || b->name == stdlib_names::measured_fields)
        continue;
      Record* r = v.rec;
      const auto it = r->index().find(stdlib_names::name);
      if (it == r->index().end()) continue;
      Value name = in.field(r, it->second, Span{});
      if (name.kind != Value::Kind::String) continue;
      const std::vector<std::string> model = words(name.str());
      if (model.empty() || !has(model.front())) continue;
      int score = 0;
      for (const auto& w : model) score += has(w) ? 1 : 0;
      if (score <= best_score) continue;
      Spec s;
      s.record = b->name;
      s.name = name.str();
      for (const auto& [field, i] : r->index()) {
        try {
          Value f = in.field(r, i, Span{});
          if (f.kind == Value::Kind::Quantity) s.figures[field] = f.q.v;
        } catch (const Error&) {
          // a figure the vendor does not publish is left out
        }
      }
      best = std::move(s);
      best_score = score;
    } catch (const Error&) {
      continue;
    }
  }
  return best;
}

FieldNames measured_fields() {
  Interpreter in;
  FieldNames names;
  Module* m = in.load_std(stdlib_names::hardware_module);
  Binding* b = m ? in.find_binding(m, stdlib_names::measured_fields) : nullptr;
  if (!b) return names;  // a library without the record: nothing is compared or renamed
  const Value v = in.top_value(b, Span{});
  if (v.kind != Value::Kind::Record) return names;
  for (const auto& [key, i] : v.rec->index()) {
    const Value field = in.field(v.rec, i, Span{});
    if (field.kind != Value::Kind::String) continue;
    if (key == stdlib_names::measured_device_name) names.device_name = field.str();
    else if (key == stdlib_names::measured_device_memory) names.device_memory = field.str();
    else names.by_probe[key] = field.str();
  }
  return names;
}

}  // namespace napkin::measure
