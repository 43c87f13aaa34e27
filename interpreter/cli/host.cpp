#include "host.hpp"

#include "grammar/diagnostic.hpp"
#include "commands.hpp"

namespace napkin::cli {

const TomlWriters& toml_writers(const Common& c) {
  if (!c.host || !c.host->toml) fail(codes::usage, "this build of napkin writes no TOML", "use --format json");
  return *c.host->toml;
}

}  // namespace napkin::cli
