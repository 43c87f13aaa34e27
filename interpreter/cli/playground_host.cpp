// The playground's host: a page has no probes, so measure(...) says so and
// takes its `else` (a misspelt probe is still the command line's error);
// a page holds one file, so import_toml(...) has no profile and
// import_json(...) no file to read; no TOML.
#include "host.hpp"

#include "grammar/diagnostic.hpp"
#include "interpreter/core/options.hpp"
#include "import_json.hpp"
#include "import_toml.hpp"
#include "probe_request.hpp"

namespace napkin::cli {
namespace {

Value no_profiles(Interpreter&, const CallArgs& args) {
  fail(codes::io, args.call->span, "the playground holds one file: import_toml(...) has no profile to read here",
       "give the profile's figures as a record in the file, or run napkin on the command line");
}

Value no_files(Interpreter&, const CallArgs& args) {
  fail(codes::io, args.call->span, "the playground holds one file: import_json(...) has no file to read here",
       "give the file's figures as a record in the page, or run napkin on the command line");
}

void bind(Options& o, const Common&) {
  o.prober = measure::unmeasured_prober();
  o.builtins.push_back(measure::import_toml_function(no_profiles));
  o.builtins.push_back(import_json_function(no_files));
}

}  // namespace

const Host kPlaygroundHost{bind, nullptr};

}  // namespace napkin::cli
