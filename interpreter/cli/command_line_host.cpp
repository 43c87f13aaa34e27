// `napkin`'s host: this machine's probes behind measure(...), answered from
// the cache where they ran before; import_toml(...); import_json(...); TOML.
#include "host.hpp"

#include "interpreter/core/options.hpp"
#include "interpreter/output/output.hpp"
#include "commands.hpp"
#include "import_json.hpp"
#include "import_toml.hpp"
#include "prober.hpp"

namespace napkin::cli {
namespace {

void bind(Options& o, const Common& c) {
  // Restricted: no probe runs (each `measure` takes its `else`), so nothing
  // is measured or written to the cache.
  o.prober = measure::make_prober(measure::ProberOptions::from(c.no_measure || c.restricted, c.remeasure && !c.restricted));
  o.builtins.push_back(measure::import_toml_builtin());
  o.builtins.push_back(import_json_builtin());
}

const TomlWriters kToml{report_toml, unloaded_report_toml, explain_toml};

}  // namespace

const Host kCommandLineHost{bind, &kToml};

}  // namespace napkin::cli
