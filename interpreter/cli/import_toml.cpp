#include "import_toml.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/measure/profile.hpp"

namespace napkin::measure {

namespace {

Value import_toml(Interpreter& in, const CallArgs& a) {
  const Value& arg = a.values[0];
  if (arg.kind != Value::Kind::String) in.type_error(arg, a.nodes[0], "a file name in quotes, such as \"h200.toml\"");
  // Relative to the file that asks, as `import` paths are.
  const SourceFile* from = a.call->span.file;
  const std::filesystem::path path =
      (std::filesystem::path(from ? from->dir : "") / arg.str()).lexically_normal();
  const std::string display = path.generic_string();
  // A profile is TOML named .toml, inside the folder when restricted;
  // anything else is refused unread (interpreter/io/import_policy.hpp).
  std::string text;
  if (auto refused = read_import_source(in.options().imports, arg.str(), std::filesystem::path(from ? from->dir : ""),
                                        ".toml", a.nodes[0]->span, text)) {
    refused->labels[0].text = "read here";
    throw Error(std::move(*refused));
  }
  Profile p;
  try {
    p = read_profile(display);
  } catch (Error& e) {  // the profile's own error, at the call that read it
    Diagnostic& d = e.diagnostic();
    d.labels.push_back({a.nodes[0]->span, "", true});
    d.help = "write a profile with `napkin measure --out FILE.toml`; paths are relative to the file that reads them";
    throw;
  }
  for (const auto& f : p.fields)
    if (!f.is_string && !f.unit.empty())
      for (std::size_t start = 0; start <= f.unit.size();) {
        const std::size_t end = f.unit.find_first_of("/*^", start);
        const std::string symbol = f.unit.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const bool digits = !symbol.empty() && symbol.find_first_not_of("-0123456789") == std::string::npos;
        if (!symbol.empty() && !digits && !in.units().lookup(symbol))
          fail(codes::unknown_unit, a.nodes[0]->span,
               fmt::format("{}: hardware.{} is in `{}`, which is not a unit napkin knows", display, f.name, symbol));
        if (end == std::string::npos) break;
        start = end + 1;
      }

  Module* m = in.load_source(display, profile_source(p), path.parent_path().generic_string());
  Binding* b = in.find_binding(m, "profile");
  Value v = in.top_value(b, a.call->span);
  Record* r = v.rec;
  if (r->name != "profile") return v;  // read before, and already named where it is used
  for (const auto& f : p.fields) {
    if (f.provenance.empty()) continue;
    const std::size_t i = r->index().at(f.name);
    in.field(r, i, a.call->span);
    r->state[i].value.note = intern_note("measured: " + f.provenance);
  }
  r->name.clear();  // so `hardware mine = import_toml(...)` names it `mine`
  return v;
}

}  // namespace

Function import_toml_builtin() { return import_toml_function(import_toml); }

}  // namespace napkin::measure
