// `napkin quick`: the serving report for a catalog model on a catalog GPU.
// It writes one line of napkin, `scenario quick = serving with { ... }`,
// and evaluates it, so every figure comes from std/serving's formulas.
// With --config, the model is a Hugging Face config.json read through
// std/hf: `model NAME = from_hf_config(import_json("FILE"))`.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "grammar/printer.hpp"

#include "interpreter/core/did_you_mean.hpp"
#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/core/suggest.hpp"
#include "guarded.hpp"

namespace napkin::cli {
namespace {

// The names of `kind` records (model, hardware) defined in a std module.
std::vector<std::string> catalog(Interpreter& in, const char* module, const char* kind) {
  std::vector<std::string> out;
  Module* m = in.load_std(module);
  for (Binding* b : m->order)
    if (b->stmt->kind == ast::StmtKind::Record && b->stmt->record_kind == kind && b->stmt->base) out.push_back(b->name);
  return out;
}

void require_known(const std::string& what, const std::string& name, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return;
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  Diagnostic d;
  d.code = codes::usage;
  const auto close = suggestions(name, known);
  d.message = fmt::format("there is no {} `{}` in the catalog", what, name);
  d.help = close.empty() ? fmt::format("the {}s are {}", what, list)
                         : fmt::format("{} The {}s are {}", did_you_mean(close), what, list);
  throw Error(std::move(d));
}

std::string number(double v) { return fmt::format("{}", v); }

// The name --config's model goes by: the file's name, or its folder's for a
// file named config.json (a checkpoint's folder is the model's name), as a
// napkin name ("Llama-3.1-8B" -> Llama_3_1_8B).
std::string config_model_name(const std::string& path) {
  const std::filesystem::path p(path);
  std::string stem = p.stem().string();
  if (stem == "config" && p.has_parent_path()) stem = p.parent_path().filename().string();
  std::string name;
  for (char c : stem) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '_') name = "model_" + name;
  // Not a name the scenario's line itself uses.
  if (name == stdlib_names::serving || name == stdlib_names::from_hf_config_fn || name == "import_json") name += "_model";
  return name;
}

const FieldReport* find_field(const Section& s, const std::string& name) {
  for (const auto& f : s.fields)
    if (f.name == name) return &f;
  return nullptr;
}

// A set-up whose weights and KV cache exceed the GPU's memory: the sentence
// that says so. The figures stay as std/serving computes them (the same
// scenario's `run` and `sweep` print them, with memory_fits = false).
std::string does_not_fit(Interpreter& in, const Section& s, const QuickArgs& a) {
  const FieldReport* fits = find_field(s, stdlib_names::serving_memory_fits);
  const FieldReport* needed = find_field(s, stdlib_names::serving_memory_needed);
  const FieldReport* gpu = find_field(s, stdlib_names::serving_gpu);
  if (!fits || !fits->ok || fits->value.kind != Value::Kind::Bool || fits->value.b || !needed || !needed->ok)
    return "";
  std::string holds;
  if (gpu && gpu->ok && gpu->value.kind == Value::Kind::Record)
    if (const auto& idx = gpu->value.rec->index(); idx.count(stdlib_names::memory_capacity))
      holds = fmt::format(", and one {} holds {}", a.gpu,
                          in.show(in.field(gpu->value.rec, idx.at(stdlib_names::memory_capacity), Span{})));
  return fmt::format("does not fit: {} at batch {} and context {} needs {}{}; the figures above are for memory it does not have",
                     a.config.empty() ? a.model : a.config, number(a.batch), number(a.context), in.show(needed->value), holds);
}

// The options are checked here, before they become napkin source: a NaN
// would read as an unknown name `nan` in <quick>, an mfu of 0 as a division
// by zero inside std/serving.
constexpr double kMinMfu = 1e-4;  // percent: a millionth of the peak
void require_range(const char* option, double v, double lo, double hi, bool lo_open, const char* what) {
  if (std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi) return;
  Diagnostic d;
  d.code = codes::usage;
  d.message = fmt::format("{} {} is out of range: it must be {}", option, v, what);
  throw Error(std::move(d));
}

void require_whole(const char* option, double v, const char* what) {
  if (std::floor(v) == v) return;
  Diagnostic d;
  d.code = codes::usage;
  d.message = fmt::format("{} {} is not {}", option, v, what);
  d.help = fmt::format("{} {:.0f} or {} {:.0f}", option, std::floor(v), option, std::ceil(v));
  throw Error(std::move(d));
}

}  // namespace

Result cmd_quick(const QuickArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    require_range("--batch", a.batch, 1, 1e9, false, "a number of sequences from 1 to 1e9");
    require_range("--context", a.context, 1, 1e12, false, "a number of tokens from 1 to 1e12");
    if (a.prompt) require_range("--prompt", *a.prompt, 1, 1e12, false, "a number of tokens from 1 to 1e12");
    // Sequences and tokens come whole: a batch of 1.5 is no decode step.
    require_whole("--batch", a.batch, "a whole number of sequences");
    require_whole("--context", a.context, "a whole number of tokens");
    if (a.prompt) require_whole("--prompt", *a.prompt, "a whole number of tokens");
    require_range("--price", a.price, 0, 1e9, false, "USD per GPU-hour from 0 to 1e9");
    // Not merely above 0: an mfu of 1e-320% divides prefill's FLOPs into a
    // time that is not finite, an error inside std/ instead of about --mfu.
    require_range("--mfu", a.mfu, kMinMfu, 100, false, "a percentage from 0.0001 to 100");
    if (a.model.empty() == a.config.empty()) {
      Diagnostic d;
      d.code = codes::usage;
      d.message = a.model.empty() ? "napkin quick needs a model: --model NAME or --config FILE"
                                  : "napkin quick takes --model or --config, not both";
      d.help = "--model names a catalog model (std/models); --config reads a Hugging Face config.json";
      throw Error(std::move(d));
    }
    namespace names = stdlib_names;
    if (a.config.empty()) require_known("model", a.model, catalog(in, names::models_module, names::model_record));
    // A config that is not there is the command line's mistake, said as
    // such, not as an import in the source quick writes.
    if (std::error_code ec; !a.config.empty() && !std::filesystem::is_regular_file(a.config, ec))
      throw Error(unplaced(codes::io,
                           fmt::format("--config {}: {}", a.config,
                                       std::filesystem::exists(a.config, ec) ? "not a regular file" : "no such file"),
                           "give the path of a Hugging Face config.json"));
    require_known("GPU", a.gpu, catalog(in, names::hardware_module, names::hardware_record));
    const std::string model = a.config.empty() ? a.model : config_model_name(a.config);
    std::string fields = fmt::format("{} = {}, {} = {}, {} = {}, {} = {} token", names::serving_model, model,
                                     names::serving_gpu, a.gpu, names::serving_batch, number(a.batch),
                                     names::serving_context, number(a.context));
    if (a.prompt) fields += fmt::format(", {} = {} token", names::serving_prompt, number(*a.prompt));
    fields += fmt::format(", {} = {} USD/hour, {} = {}%", names::serving_price, number(a.price), names::serving_mfu,
                          number(a.mfu));
    const std::string read =
        a.config.empty() ? ""
                         : fmt::format("import \"std/{}\"\nmodel {} = {}(import_json({}))\n", names::hf_module, model,
                                       names::from_hf_config_fn, quote_string(a.config));
    const std::string source = fmt::format(
        "import \"std/{}\"\nimport \"std/{}\"\nimport \"std/{}\"\n{}"
        "scenario quick = {} with {{ {} }}\n",
        names::models_module, names::hardware_module, names::serving_module, read, names::serving, fields);
    Module* m = in.load_source("<quick>", source, "");
    Report r = build_report(in, m, false);
    // The report is the scenario's, as for a catalog model; the model's own
    // figures are what `napkin run` shows of a file that reads it.
    if (!a.config.empty() && r.sections.size() > 1) r.sections.erase(r.sections.begin(), r.sections.end() - 1);
    Result res;
    const std::string unfit = r.sections.empty() ? "" : does_not_fit(in, r.sections.back(), a);
    res.out = a.format == Format::json ? report_json(in, r) : report_text(in, r, TextOptions{a.steps});
    if (!unfit.empty()) {
      res.err = "napkin quick: " + unfit + "\n";
      res.code = 1;
    }
    return res;
  });
}

}  // namespace napkin::cli
