// The playground's napkin (web/, built by `make wasm` beside the whole
// command): `run` and `explain`, the two commands a page runs, with their
// options as `napkin` spells them. Behind them is the same code as
// `napkin run` and `napkin explain` (cmd_run, cmd_explain), so a page shows
// the bytes the command line prints. The arguments are read here rather
// than by CLI11, which with its help texts would be a sixth of the .wasm a
// page downloads (bench/README.md); the choices come from choices.hpp, as
// `napkin`'s do. Exit codes as `napkin`'s: 0, 1 a check failed, 2 an error.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/core/samples.hpp"
#include "choices.hpp"
#include "commands.hpp"
#include "diagnose.hpp"
#include "finish.hpp"
#include "host.hpp"

namespace {

using namespace napkin::cli;

constexpr const char* kCommands =
    "the playground runs `run FILE [--format F] [--steps[=D]] [--checks C] [--all] [--brief[=B]]` and "
    "`explain FILE NAME [--format F] [--flat] [--sources] [--depth N]`, each with --digits and --samples; "
    "every other command is the `napkin` command's";

// One option: its name, whether a value follows it (`--format json` or
// `--format=json`), and what it sets. `value` is "" for a flag given bare.
struct Option {
  std::string_view name;
  enum class Takes { Nothing, Value, OptionalValue } takes;
  std::function<std::string(const std::string& value)> set;  // "" or what is wrong with the value
};

std::string choose(std::string& out, const std::string& value, std::string_view option,
                   const std::vector<std::string>& choices) {
  for (const auto& c : choices)
    if (c == value) {
      out = value;
      return "";
    }
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
  return fmt::format("{}: {} is not one of {}", option, value.empty() ? "\"\"" : value, list);
}

template <typename Int>
std::string whole(Int& out, const std::string& value, std::string_view option, Int lo, Int hi) {
  Int n{};
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < lo || n > hi)
    return fmt::format("{}: {} is not a whole number from {} to {}", option, value.empty() ? "\"\"" : value, lo, hi);
  out = n;
  return "";
}

std::vector<Option> common_options(Common& c) {
  return {
      {"--digits", Option::Takes::Value, [&c](const std::string& v) { return whole(c.digits, v, "--digits", 1, 17); }},
      {"--samples", Option::Takes::Value,
       [&c](const std::string& v) { return whole(c.samples, v, "--samples", std::size_t{2}, napkin::kMaxSamples); }},
  };
}

struct Positional {
  std::string_view name;  // FILE, as the usage writes it
  std::string* value;
};

// Reads `args` (after the command's name) into `positional` and the
// options; "" or what is wrong.
std::string read(std::string_view command, const std::vector<std::string>& args, const std::vector<Positional>& positional,
                 const std::vector<Option>& options) {
  std::size_t next = 0;
  bool only_positional = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!only_positional && a == "--") {
      only_positional = true;
      continue;
    }
    if (only_positional || a.size() < 2 || a[0] != '-') {
      if (next == positional.size()) return fmt::format("one argument too many: {}", a);
      *positional[next++].value = a;
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string_view name = std::string_view(a).substr(0, eq);
    const Option* o = nullptr;
    for (const auto& candidate : options)
      if (candidate.name == name) o = &candidate;
    if (!o) return fmt::format("the playground's `{}` has no option {}", command, name);
    std::string value;
    if (eq != std::string::npos) {
      if (o->takes == Option::Takes::Nothing) return fmt::format("{} takes no value", name);
      value = a.substr(eq + 1);
    } else if (o->takes == Option::Takes::Value) {
      if (i + 1 == args.size()) return fmt::format("{} needs a value", name);
      value = args[++i];
    }
    if (std::string wrong = o->set(value); !wrong.empty()) return wrong;
  }
  if (next < positional.size()) return fmt::format("`{}` needs {}", command, positional[next].name);
  return "";
}

// The formats a page can ask for: napkin's but TOML, which this host does not write.
std::vector<std::string> page_formats() {
  std::vector<Format> out;
  for (Format f : kReportFormats)
    if (f != Format::toml || kPlaygroundHost.toml) out.push_back(f);
  return format_names(out);
}

// --format: one of page_formats(), read into `out`.
std::string choose_format(Format& out, const std::string& value) {
  std::string name;
  std::string wrong = choose(name, value, "--format", page_formats());
  if (wrong.empty()) out = format_named(name).value_or(Format::text);
  return wrong;
}

Result run_command(const std::vector<std::string>& args, Common& common, Format& format) {
  RunArgs run;
  RunWords words;
  std::vector<Option> options = common_options(common);
  options.push_back({"--format", Option::Takes::Value,
                     [&run](const std::string& v) { return choose_format(run.format, v); }});
  options.push_back({"--steps", Option::Takes::OptionalValue, [&words](const std::string& v) {
                       if (v.empty()) return (words.steps = "factors", std::string());
                       return choose(words.steps, v, "--steps", kStepDepths);
                     }});
  options.push_back({"--checks", Option::Takes::Value,
                     [&words](const std::string& v) { return choose(words.checks, v, "--checks", kCheckDisplays); }});
  options.push_back({"--all", Option::Takes::Nothing, [&run](const std::string&) { return (run.all = true, std::string()); }});
  options.push_back(
      {"--brief", Option::Takes::OptionalValue, [&words](const std::string& v) {
         if (v.empty()) return (words.brief = "lines", std::string());
         return choose(words.brief, v, "--brief", kBriefLevels);
       }});
  std::string wrong = read("run", args, {{"FILE", &run.file}}, options);
  if (wrong.empty()) wrong = settle_run(words, run);
  if (!wrong.empty()) return failed(napkin::unplaced(napkin::codes::usage, wrong, kCommands));
  common.root_file = run.file;
  format = run.format;
  return cmd_run(run, common);
}

Result explain_command(const std::vector<std::string>& args, Common& common, Format& format) {
  ExplainArgs explain;
  std::vector<Option> options = common_options(common);
  options.push_back({"--format", Option::Takes::Value,
                     [&explain](const std::string& v) { return choose_format(explain.format, v); }});
  options.push_back({"--depth", Option::Takes::Value,
                     [&explain](const std::string& v) { return whole(explain.depth, v, "--depth", -1, 1 << 30); }});
  options.push_back({"--flat", Option::Takes::Nothing,
                     [&explain](const std::string&) { return (explain.flat = true, std::string()); }});
  options.push_back({"--sources", Option::Takes::Nothing,
                     [&explain](const std::string&) { return (explain.sources = true, std::string()); }});
  if (std::string wrong = read("explain", args, {{"FILE", &explain.file}, {"NAME", &explain.name}}, options); !wrong.empty())
    return failed(napkin::unplaced(napkin::codes::usage, wrong, kCommands));
  format = explain.format;
  return cmd_explain(explain, common);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> all(argv + std::min(argc, 1), argv + argc);
  const std::string command = all.empty() ? "" : all.front();
  const std::vector<std::string> args(all.begin() + (all.empty() ? 0 : 1), all.end());
  // The page runs many commands on one instance: each one's interpreter is
  // taken apart when the next starts (leave_for_exit), never more than one kept.
  Common common;
  common.host = &kPlaygroundHost;
  common.process_ends = true;
  Result r;
  Format format = Format::text;
  if (command == "run") r = run_command(args, common, format);
  else if (command == "explain") r = explain_command(args, common, format);
  else
    r = failed(napkin::unplaced(napkin::codes::usage,
                                command.empty() ? "a command is needed" : fmt::format("no command `{}` here", command),
                                kCommands));
  r.out = printed(std::move(r.out), format);
  return finish(r);
}
