#pragma once
// The report as one data tree (nlohmann's ordered_json): what `--format
// json` writes and `--format toml` converts, so the two carry the same
// content and neither is read back from the other's text.
#include <nlohmann/json.hpp>

#include "report.hpp"

namespace napkin {

// {values, [sweeps], checks, [errors], [solves]}. Without `sweeps` the tree
// leaves them out: report_json writes them row by row into its text, so
// that no tree of a hundred thousand rows is held. With `places`, every
// value, check and solve also says where it is written ("at") and each value
// whether it is an input, each failed check its error whole ("diagnostic",
// E0500 as the command line prints it), and "records" gives each record's
// statement: what an editor needs to put the values and errors beside the
// text (the playground).
nlohmann::ordered_json report_tree(const Interpreter& in, const Report& r, bool sweeps, bool places = false);
// A span as data: {file, line, column, end_line, end_column}, lines and
// columns counting from 1 (columns in bytes), the end just past it.
nlohmann::ordered_json span_tree(const Span& s);
// A file that did not load: no values, no checks, its error.
nlohmann::ordered_json unloaded_report_tree(const Diagnostic& d);
// One sweep, its every row in the tree (what TOML converts).
nlohmann::ordered_json sweep_tree(const Interpreter& in, const SweepResult& s);
// One row of a sweep: each input and column by name.
nlohmann::ordered_json sweep_row_tree(const Interpreter& in, const SweepResult& s,
                                      std::vector<SweepColumn::Reader>& read, std::size_t row);
// An `explain` node and everything below it. With `places` (JSON), each
// node also has "at", where its formula is written as {file, line}, and
// "literal" where it is one: what a page lays the tree out by.
nlohmann::ordered_json explain_tree(const ExplainNode& n, bool places = false);
// `j` as dump(2) writes it nested `depth` levels deep.
std::string nested_json(const nlohmann::ordered_json& j, int depth);
// The JSON text of a document tree, `sweeps` (already laid out at depth 1)
// after its values.
std::string json_document(const nlohmann::ordered_json& tree, const std::string& sweeps = "");
// TOML's text of a document tree.
std::string toml_document(const nlohmann::ordered_json& tree);

}  // namespace napkin
