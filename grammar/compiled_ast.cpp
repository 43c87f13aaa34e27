#include "compiled_ast.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "grammar/platform/bit_cast.hpp"

// The words, in the order both sides below walk the tree:
//   module   count, statement*
//   stmt     head(kind | approx | which parts follow), span, name, name_span, record_kind,
//            value? base? expected? tolerance?, fields, params, sweep vars, columns
//   expr     head(kind | op | flags), span, number?, text?, unit?, items?, arg names?, fields?, fallback?
//   span     begin, end (both kNoSpan for an empty span)
//   string   an index into the string table; 0 is ""
//   lists    count, element*
// Writer and reader are kept side by side so that a field added to the tree
// is added to both.

namespace napkin {
namespace {

using namespace ast;

constexpr std::uint32_t kNoSpan = 0xFFFFFFFFu;

// Expr head: kind in bits 0-4, op in bits 5-9, flags above.
enum ExprFlag : std::uint32_t {
  kBoolean = 1u << 10,
  kPercent = 1u << 11,
  kNumber = 1u << 12,
  kText = 1u << 13,
  kUnit = 1u << 14,
  kItems = 1u << 15,
  kArgNames = 1u << 16,
  kFields = 1u << 17,
  kFallback = 1u << 18,
};
// Stmt head: kind in bits 0-4, flags above.
enum StmtFlag : std::uint32_t {
  kApprox = 1u << 5,
  kValue = 1u << 6,
  kBase = 1u << 7,
  kExpected = 1u << 8,
  kTolerance = 1u << 9,
  kLabel = 1u << 10,  // a check's name and points follow the columns
};

class Writer {
 public:
  CompiledAstData out;

  Writer() { intern(""); }

  void module(const Module& m) {
    word(m.statements.size());
    for (const auto& st : m.statements) statement(st);
  }

 private:
  const SourceFile* file_ = nullptr;
  std::unordered_map<std::string, std::uint32_t> index_;

  void word(std::size_t w) {
    if (w > 0xFFFFFFFFu) throw std::length_error("compiled tree: a count beyond 32 bits");
    out.words.push_back(static_cast<std::uint32_t>(w));
  }

  std::uint32_t intern(const std::string& s) {
    auto [it, added] = index_.emplace(s, static_cast<std::uint32_t>(index_.size()));
    if (added) {
      out.strings += s;
      out.string_ends.push_back(static_cast<std::uint32_t>(out.strings.size()));
    }
    return it->second;
  }
  void string(const std::string& s) { word(intern(s)); }

  void span(const Span& s) {
    if (!s.file) {
      if (s.begin || s.end) throw std::logic_error("compiled tree: an offset without a file");
      word(kNoSpan);
      word(kNoSpan);
      return;
    }
    if (file_ && s.file != file_) throw std::logic_error("compiled tree: spans into two files");
    file_ = s.file;
    word(s.begin);
    word(s.end);
  }

  void unit(const UnitExpr& u) {
    string(u.text);
    span(u.span);
    word(u.terms.size());
    for (const auto& t : u.terms) {
      string(t.symbol);
      word(static_cast<std::uint32_t>(t.power));
      span(t.span);
    }
  }

  void optional(const ExprPtr& e) {
    word(e ? 1 : 0);
    if (e) expr(*e);
  }

  void fields(const std::vector<FieldDecl>& fs) {
    word(fs.size());
    for (const auto& f : fs) {
      string(f.name);
      span(f.name_span);
      word(static_cast<std::uint32_t>(f.type.kind));
      string(f.type.text);
      span(f.type.span);
      unit(f.type.unit);
      optional(f.value);
      span(f.span);
    }
  }

  void expr(const Expr& e) {
    std::uint32_t head = static_cast<std::uint32_t>(e.kind) | static_cast<std::uint32_t>(e.op) << 5;
    if (static_cast<std::uint32_t>(e.kind) >= 32 || static_cast<std::uint32_t>(e.op) >= 32)
      throw std::logic_error("compiled tree: more kinds than its head holds");
    if (e.boolean) head |= kBoolean;
    if (e.percent) head |= kPercent;
    if (napkin::bit_cast<std::uint64_t>(e.number) != 0) head |= kNumber;
    if (!e.text.empty()) head |= kText;
    if (e.unit) head |= kUnit;
    if (!e.items.empty()) head |= kItems;
    if (!e.arg_names.empty()) head |= kArgNames;
    if (!e.fields.empty()) head |= kFields;
    if (e.fallback) head |= kFallback;
    word(head);
    span(e.span);
    if (head & kNumber) {
      const auto bits = napkin::bit_cast<std::uint64_t>(e.number);
      word(static_cast<std::uint32_t>(bits));
      word(static_cast<std::uint32_t>(bits >> 32));
    }
    if (head & kText) string(e.text);
    if (head & kUnit) unit(*e.unit);
    if (head & kItems) {
      word(e.items.size());
      for (const auto& c : e.items) expr(*c);
    }
    if (head & kArgNames) {
      word(e.arg_names.size());
      for (const auto& n : e.arg_names) string(n);
    }
    if (head & kFields) fields(e.fields);
    if (head & kFallback) expr(*e.fallback);
  }

  void statement(const Stmt& st) {
    std::uint32_t head = static_cast<std::uint32_t>(st.kind);
    if (head >= 32) throw std::logic_error("compiled tree: more kinds than its head holds");
    if (st.approx) head |= kApprox;
    if (st.value) head |= kValue;
    if (st.base) head |= kBase;
    if (st.expected) head |= kExpected;
    if (st.tolerance) head |= kTolerance;
    if (!st.check_name.empty() || !st.points_text.empty()) head |= kLabel;
    word(head);
    span(st.span);
    string(st.name);
    span(st.name_span);
    string(st.record_kind);
    if (st.value) expr(*st.value);
    if (st.base) expr(*st.base);
    if (st.expected) expr(*st.expected);
    if (st.tolerance) expr(*st.tolerance);
    fields(st.fields);
    word(st.params.size());
    for (const auto& p : st.params) {
      string(p.name);
      span(p.span);
      optional(p.default_value);
    }
    word(st.sweep_vars.size());
    for (const auto& v : st.sweep_vars) {
      string(v.name);
      span(v.span);
      optional(v.values);
    }
    word(st.columns.size());
    for (const auto& c : st.columns) {
      string(c.name);
      span(c.span);
    }
    if (head & kLabel) {
      string(st.check_name);
      span(st.check_name_span);
      string(st.points_text);
    }
  }
};

class Reader {
 public:
  Reader(const CompiledAst& c, const SourceFile& f) : c_(c), file_(&f), at_(c.words), end_(c.words + c.size) {}

  Module module() {
    Module m;
    const std::uint32_t n = word();
    m.statements.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) statement(m.statements);
    if (at_ != end_) throw std::runtime_error("compiled tree: words left over");
    return m;
  }

 private:
  const CompiledAst& c_;
  const SourceFile* file_;
  const std::uint32_t* at_;
  const std::uint32_t* end_;

  std::uint32_t word() {
    if (at_ == end_) throw std::runtime_error("compiled tree: ends early");
    return *at_++;
  }

  std::string string() {
    const std::uint32_t i = word();
    if (i >= c_.string_count) throw std::runtime_error("compiled tree: a string beyond its table");
    const std::uint32_t b = i ? c_.string_ends[i - 1] : 0;
    return std::string(c_.strings + b, c_.string_ends[i] - b);
  }

  Span span() {
    const std::uint32_t b = word();
    const std::uint32_t e = word();
    if (b == kNoSpan) return Span{};
    if (b > file_->text.size() || e > file_->text.size()) throw std::runtime_error("compiled tree: a span beyond its file");
    return Span{file_, b, e};
  }

  UnitExpr unit() {
    UnitExpr u;
    u.text = string();
    u.span = span();
    const std::uint32_t n = word();
    u.terms.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      UnitTerm& t = u.terms.emplace_back();
      t.symbol = string();
      t.power = static_cast<int>(word());
      t.span = span();
    }
    return u;
  }

  ExprPtr optional() { return word() ? expr() : nullptr; }

  std::vector<FieldDecl> fields() {
    std::vector<FieldDecl> out;
    const std::uint32_t n = word();
    out.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      FieldDecl& f = out.emplace_back();
      f.name = string();
      f.name_span = span();
      f.type.kind = static_cast<TypeKind>(word());
      f.type.text = string();
      f.type.span = span();
      f.type.unit = unit();
      f.value = optional();
      f.span = span();
    }
    return out;
  }

  ExprPtr expr() {
    const std::uint32_t head = word();
    const Span s = span();
    auto e = std::make_unique<Expr>(static_cast<ExprKind>(head & 31), s);
    e->op = static_cast<BinOp>(head >> 5 & 31);
    e->boolean = head & kBoolean;
    e->percent = head & kPercent;
    if (head & kNumber) {
      const std::uint64_t lo = word();
      const std::uint64_t hi = word();
      e->number = napkin::bit_cast<double>(lo | hi << 32);
    }
    if (head & kText) e->text = string();
    if (head & kUnit) e->unit = unit();
    if (head & kItems) {
      const std::uint32_t n = word();
      e->items.reserve(n);
      for (std::uint32_t i = 0; i < n; ++i) e->items.push_back(expr());
    }
    if (head & kArgNames) {
      const std::uint32_t n = word();
      e->arg_names.reserve(n);
      for (std::uint32_t i = 0; i < n; ++i) e->arg_names.push_back(string());
    }
    if (head & kFields) e->fields = fields();
    if (head & kFallback) e->fallback = expr();
    return e;
  }

  void statement(std::vector<Stmt>& out) {
    const std::uint32_t head = word();
    Stmt& st = out.emplace_back(static_cast<StmtKind>(head & 31), span());
    st.approx = head & kApprox;
    st.name = string();
    st.name_span = span();
    st.record_kind = string();
    if (head & kValue) st.value = expr();
    if (head & kBase) st.base = expr();
    if (head & kExpected) st.expected = expr();
    if (head & kTolerance) st.tolerance = expr();
    st.fields = fields();
    const std::uint32_t params = word();
    st.params.reserve(params);
    for (std::uint32_t i = 0; i < params; ++i) {
      Param& p = st.params.emplace_back();
      p.name = string();
      p.span = span();
      p.default_value = optional();
    }
    const std::uint32_t vars = word();
    st.sweep_vars.reserve(vars);
    for (std::uint32_t i = 0; i < vars; ++i) {
      SweepVar& v = st.sweep_vars.emplace_back();
      v.name = string();
      v.span = span();
      v.values = optional();
    }
    const std::uint32_t columns = word();
    st.columns.reserve(columns);
    for (std::uint32_t i = 0; i < columns; ++i) {
      Column& c = st.columns.emplace_back();
      c.name = string();
      c.span = span();
    }
    if (head & kLabel) {
      st.check_name = string();
      st.check_name_span = span();
      st.points_text = string();
      std::string digits = st.points_text;  // without its `_` separators
      std::erase(digits, '_');
      st.points = digits.empty() ? 1 : std::stod(digits);
    }
  }
};

}  // namespace

CompiledAstData compile_ast(const ast::Module& m) {
  Writer w;
  w.module(m);
  return std::move(w.out);
}

ast::Module load_compiled_ast(const CompiledAst& c, const SourceFile& file) {
  Reader r(c, file);
  return r.module();
}

}  // namespace napkin
