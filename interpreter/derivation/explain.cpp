#include "explain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "grammar/printer.hpp"

namespace napkin {
namespace {

struct Builder {
  const Interpreter& in;
  std::set<std::pair<const void*, std::size_t>> seen;
  // A function called again with the same arguments is the same derivation:
  // explained once, however many places call it.
  // Each call's key, the levels left below it when it was expanded, and
  // whether that expansion reached every input: a later copy is "explained
  // above" only if it did, or went as deep as this one may.
  struct Expanded {
    int depth = 0;
    bool complete = false;
  };
  std::map<std::string, Expanded> seen_calls;

  static bool complete(const ExplainNode& n) {
    if (n.truncated) return false;
    return std::all_of(n.children.begin(), n.children.end(), [](const ExplainNode& c) { return complete(c); });
  }

  std::string call_key(const CallTrace& c) const {
    std::string key = fmt::format("{}", static_cast<const void*>(c.decl));
    for (const auto& [name, v] : c.args) {
      key += "|" + in.show(v);
      if (v.kind == Value::Kind::Quantity) key += fmt::format("#{}", v.q.v);
      if (v.kind == Value::Kind::Record) key += fmt::format("#{}", static_cast<const void*>(v.rec));
    }
    return key;
  }

  std::vector<ExplainNode> children(const Trace& t, int depth) {
    std::vector<ExplainNode> out;
    std::set<std::pair<const void*, std::size_t>> here;
    for (const auto& e : t.entries) {
      if (e.value.kind == Value::Kind::Record || e.value.kind == Value::Kind::Function) continue;
      if (e.node->kind == ast::ExprKind::If) continue;
      if (e.call) {
        if (!here.insert({e.call.get(), 0}).second) continue;
        if (e.call->decl)
          out.push_back(call_node(e, depth));
        else if (!e.call->args.empty())
          out.push_back(builtin_node(e));
      } else if (e.rec) {
        if (!here.insert({e.rec, e.field}).second) continue;
        out.push_back(field_node(e.rec, e.field, depth));
      } else if (e.binding) {
        if (!here.insert({e.binding, 0}).second) continue;
        out.push_back(let_node(e.binding, depth));
      }
    }
    return out;
  }

  ExplainNode field_node(Record* r, std::size_t i, int depth) {
    ExplainNode n;
    const Slot& s = r->slots()[i];
    n.label = r->name + "." + s.name;
    const FieldState& st = r->state[i];
    n.derivation = derive(in, *s.decl->value, st.trace, st.value);
    expand(n, {r, i}, st.trace, depth);
    return n;
  }

  // A user function's call opens into its body, with the parameters bound.
  ExplainNode call_node(const TraceEntry& e, int depth) {
    ExplainNode n;
    PrintOptions o;
    o.pretty = true;
    n.label = print_expr(*e.node, o);
    n.derivation = derive(in, *e.call->decl->value, e.call->trace, e.value);
    std::string key;
    if (!n.derivation.input) {
      key = call_key(*e.call);
      if (const auto at = seen_calls.find(key); at != seen_calls.end() && (at->second.complete || at->second.depth >= depth)) {
        n.repeated = true;
        return n;
      }
    }
    expand(n, {e.call.get(), 0}, e.call->trace, depth);
    if (!key.empty()) {
      Expanded& x = seen_calls[key];
      x.depth = std::max(x.depth, depth);
      x.complete = x.complete || complete(n);
    }
    return n;
  }

  // A builtin shows its arguments and its result: `max(3 ms, 5 ms) = 5 ms`.
  ExplainNode builtin_node(const TraceEntry& e) {
    ExplainNode n;
    std::string args;
    for (const auto& [name, v] : e.call->args) args += (args.empty() ? "" : ", ") + in.show(v);
    n.label = e.call->name + "(" + args + ")";
    n.derivation.result = value_term(in, e.value);
    n.derivation.input = true;
    return n;
  }

  ExplainNode let_node(Binding* b, int depth) {
    ExplainNode n;
    n.label = b->name;
    n.derivation = derive(in, *b->stmt->value, b->state.trace, b->state.value);
    expand(n, {b, 0}, b->state.trace, depth);
    return n;
  }

  void expand(ExplainNode& n, std::pair<const void*, std::size_t> key, const Trace& t, int depth) {
    if (n.derivation.input) return;
    if (!seen.insert(key).second) {
      n.repeated = true;
      return;
    }
    if (depth == 0) {
      n.truncated = !t.entries.empty();
      return;
    }
    n.children = children(t, depth - 1);
  }
};

void print(const ExplainNode& n, const std::string& first, const std::string& rest, const ExplainTextOptions& o,
           std::string& out) {
  std::vector<std::string> lines = derivation_text(n.derivation);
  if (n.repeated) lines = {lines.back()};
  // An expression typed on the command line is its own label: say it once.
  if (lines.size() > 1 && lines[0] == n.label) lines.erase(lines.begin());
  const std::string head = n.label + " = ";
  const std::string indent(n.label.size() + 1, ' ');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string tail = lines[i];
    if (i + 1 == lines.size() && n.repeated) tail += "  (explained above)";
    if (i + 1 == lines.size() && n.truncated) tail += "  (…)";
    if (i + 1 == lines.size() && !n.derivation.note.empty()) tail += "  [" + n.derivation.note + "]";
    if (i + 1 == lines.size() && o.sources && !n.derivation.origin.empty()) tail += "  (" + n.derivation.origin + ")";
    if (i == 0)
      out += first + head + tail + "\n";
    else
      out += rest + (n.children.empty() ? "" : "│") + (n.children.empty() ? indent + "= " : indent.substr(1) + "= ") + tail + "\n";
  }
  for (std::size_t i = 0; i < n.children.size(); ++i) {
    const bool last = i + 1 == n.children.size();
    print(n.children[i], rest + (last ? "└── " : "├── "), rest + (last ? "    " : "│   "), o, out);
  }
}

}  // namespace

ExplainNode explain(Interpreter& in, Module* m, const std::string& what, int depth) {
  const ast::Expr& e = in.parse_snippet("<explain>", what);
  Trace trace;
  Value v = in.eval_in(m, e, &trace);
  Builder b{in, {}};
  // A plain name or member access explains that field itself.
  if (e.kind == ast::ExprKind::Name || e.kind == ast::ExprKind::Member) {
    for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it) {
      if (it->node != &e) continue;
      if (it->rec) {
        ExplainNode n = b.field_node(it->rec, it->field, depth);
        const FieldState& st = it->rec->state[it->field];
        n.flat = flat_formula(in, *it->rec->slots()[it->field].decl->value, st.trace);
        return n;
      }
      if (it->binding) {
        ExplainNode n = b.let_node(it->binding, depth);
        n.flat = flat_formula(in, *it->binding->stmt->value, it->binding->state.trace);
        return n;
      }
    }
  }
  ExplainNode root;
  root.label = what;
  root.derivation = derive(in, e, trace, v);
  root.derivation.origin.clear();  // typed on the command line
  root.derivation.origin_at = {};
  root.flat = flat_formula(in, e, trace);
  b.expand(root, {&e, 0}, trace, depth);
  return root;
}

std::string explain_text(const ExplainNode& root, const std::string& indent, const ExplainTextOptions& o) {
  std::string out;
  if (o.flat) {
    out = indent + root.label + " = ";
    const std::string result = text(root.derivation.result), flat = text(root.flat);
    if (!root.derivation.input && flat != result) out += flat + " = ";
    out += result;
    if (o.sources && !root.derivation.origin.empty()) out += "  (" + root.derivation.origin + ")";
    return out + "\n";
  }
  print(root, indent, indent, o, out);
  return out;
}

std::vector<ExplainNode> explain_trace(const Interpreter& in, const Trace& trace, int depth) {
  Builder b{in, {}};
  return b.children(trace, depth);
}

}  // namespace napkin
