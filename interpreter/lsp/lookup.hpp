#pragma once
// What stands at a place in a document: the name or member under the
// cursor, the record whose formula it is in, and how napkin would spell it
// at the top level of the file (`decode.batch` for `batch` inside `decode`).
#include <cstddef>
#include <optional>
#include <string>

#include "analysis.hpp"

namespace napkin::lsp {

struct Target {
  std::string expr;              // what to evaluate at the top level ("decode.model.params")
  std::string record;            // the enclosing top-level record, if any
  const ast::Expr* node = nullptr;
  const ast::FieldDecl* field = nullptr;  // the cursor is on this declaration's name
  const ast::Stmt* stmt = nullptr;        // the cursor is on this statement's name
  Span span;                     // the word under the cursor
};

std::optional<Target> target_at(const Analysis& a, std::size_t offset);

// The record a top-level name evaluates to, or null.
Record* record_named(Analysis& a, const std::string& expr);
// Evaluates an expression written at the top level of the document; throws Error.
Value evaluate(Analysis& a, const std::string& expr);

}  // namespace napkin::lsp
