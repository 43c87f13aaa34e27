// `napkin explain --format json`: the derivation tree, with the keys
// `run --format json` gives each value.
#include <nlohmann/json.hpp>

#include "output.hpp"

namespace napkin {
namespace {

nlohmann::ordered_json node_json(const ExplainNode& n) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["label"] = n.label;
  j["display"] = text(n.derivation.result);
  j["formula"] = text(n.derivation.formula);
  j["substituted"] = text(n.derivation.substituted);
  if (!n.flat.empty()) j["flat"] = text(n.flat);
  if (!n.derivation.origin.empty()) j["source"] = n.derivation.origin;
  if (!n.derivation.note.empty()) j["note"] = n.derivation.note;
  if (n.repeated) j["repeated"] = true;
  if (n.truncated) j["truncated"] = true;
  if (!n.children.empty()) {
    nlohmann::ordered_json children = nlohmann::ordered_json::array();
    for (const auto& c : n.children) children.push_back(node_json(c));
    j["children"] = std::move(children);
  }
  return j;
}

}  // namespace

std::string explain_json(const ExplainNode& root) { return node_json(root).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; }

}  // namespace napkin
