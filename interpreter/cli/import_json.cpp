#include "import_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <map>
#include <set>

#include "grammar/printer.hpp"
#include "interpreter/core/builtins.hpp"
#include "interpreter/core/compare.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/io/import_policy.hpp"

namespace napkin::cli {

namespace {

// A config is a few kilobytes; a file past this is not one (E0702).
constexpr std::size_t kMaxJsonBytes = std::size_t{4} << 20;
// Objects and arrays inside one another, at most: deeper is no config, and
// every level is a record or a list napkin keeps.
constexpr int kMaxJsonDepth = 64;

// One JSON value, with the offset in the file that places it: for a value
// under a key, the key's opening quote.
struct Node {
  enum class Kind { Null, Bool, Number, Unsigned, Integer, String, Array, Object } kind = Kind::Null;
  bool b = false;
  double number = 0;
  std::uint64_t whole = 0;
  std::int64_t signed_whole = 0;
  std::string text;
  std::vector<std::pair<std::string, Node>> members;  // an object's, in the file's order
  std::vector<Node> items;
  std::size_t at = 0;
};

// A pointer into the text that records how far the parser has read: at each
// event the parser has just read the token it reports.
struct Reading {
  const char* p = nullptr;
  const char** furthest = nullptr;
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char& operator*() const { return *p; }
  Reading& operator++() {
    ++p;
    if (p > *furthest) *furthest = p;
    return *this;
  }
  Reading operator++(int) {
    Reading old = *this;
    ++*this;
    return old;
  }
  bool operator==(const Reading& o) const { return p == o.p; }
  bool operator!=(const Reading& o) const { return p != o.p; }
};

class Builder : public nlohmann::json_sax<nlohmann::json> {
 public:
  Builder(const std::string& text, const char** furthest) : text_(text), furthest_(furthest) {}
  Node root;
  std::string error;  // why the file is not JSON napkin reads

  bool null() override { return put(Node{}); }
  bool boolean(bool v) override {
    Node n;
    n.kind = Node::Kind::Bool;
    n.b = v;
    return put(std::move(n));
  }
  bool number_integer(number_integer_t v) override {
    Node n;
    n.kind = Node::Kind::Integer;
    n.signed_whole = v;
    return put(std::move(n));
  }
  bool number_unsigned(number_unsigned_t v) override {
    Node n;
    n.kind = Node::Kind::Unsigned;
    n.whole = v;
    return put(std::move(n));
  }
  bool number_float(number_float_t v, const string_t&) override {
    Node n;
    n.kind = Node::Kind::Number;
    n.number = v;
    return put(std::move(n));
  }
  bool string(string_t& v) override {
    Node n;
    n.kind = Node::Kind::String;
    n.text = std::move(v);
    return put(std::move(n));
  }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return open(Node::Kind::Object); }
  bool start_array(std::size_t) override { return open(Node::Kind::Array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    // The parser has read the closing quote: the key starts at the quote
    // before it that no backslash escapes.
    std::size_t end = static_cast<std::size_t>(*furthest_ - text_.data());
    std::size_t q = end >= 2 ? end - 2 : 0;
    while (q > 0 && !(text_[q] == '"' && text_[q - 1] != '\\')) --q;
    key_ = std::move(k);
    key_at_ = q;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    error = ex.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    if (const auto close = error.find("] "); error.rfind("[json.", 0) == 0 && close != std::string::npos)
      error = error.substr(close + 2);
    return false;
  }

 private:
  bool put(Node n) {
    const std::size_t here = static_cast<std::size_t>(*furthest_ - text_.data());
    if (stack_.empty()) {
      n.at = 0;
      root = std::move(n);
      return true;
    }
    Node& top = *stack_.back();
    if (top.kind == Node::Kind::Object) {
      n.at = key_at_;
      top.members.emplace_back(std::move(key_), std::move(n));
    } else {
      n.at = here;
      top.items.push_back(std::move(n));
    }
    return true;
  }
  bool open(Node::Kind kind) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      error = fmt::format("objects and arrays are nested deeper than {} levels", kMaxJsonDepth);
      return false;
    }
    Node n;
    n.kind = kind;
    put(std::move(n));
    Node& top = stack_.empty() ? root
                : stack_.back()->kind == Node::Kind::Object ? stack_.back()->members.back().second
                                                            : stack_.back()->items.back();
    stack_.push_back(&top);
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  const std::string& text_;
  const char** furthest_;
  std::vector<Node*> stack_;
  std::string key_;
  std::size_t key_at_ = 0;
};

// `line:column` of an offset (1-based; the column counts bytes).
std::string place(const std::string& text, std::size_t at) {
  std::size_t line = 1, start = 0;
  for (std::size_t i = 0; i < at && i < text.size(); ++i)
    if (text[i] == '\n') {
      ++line;
      start = i + 1;
    }
  return fmt::format("{}:{}", line, at - start + 1);
}

// A JSON key napkin can name as a field.
bool field_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  static const std::set<std::string> reserved = {
      "import", "let", "fn", "unit", "model", "hardware", "scenario", "record", "extends", "with", "check", "within",
      "if", "then", "else", "and", "or", "not", "true", "false", "measure", "sweep", "over", "in", "show", "to",
      "self", "super", "solve", "for", "where", "dimension", "prefixes", "suggest"};
  return !reserved.count(s);
}

// Why a value cannot be napkin's ("" when it can), and its napkin source.
struct Written {
  std::string source;
  std::string why;  // "is null", "is 2^60, past 2^53", ...
  bool null = false;
};

class SourceWriter {
 public:
  explicit SourceWriter(std::string prefix) : prefix_(std::move(prefix)) {}
  // Each object becomes `record PREFIX_N { ... }`; returns N.
  std::size_t object(const Node& n, const std::string& path) {
    const std::size_t id = objects_.size();
    objects_.emplace_back();
    records_.emplace_back();
    std::map<std::string, int> count;
    for (const auto& m : n.members) ++count[m.first];
    std::string body;
    std::set<std::string> written;
    for (const auto& [key, v] : n.members) {
      if (!field_name(key) || !written.insert(key).second) continue;  // nothing in napkin could name it
      const std::string sub = path.empty() ? key : path + "." + key;
      Written w = count[key] > 1 ? Written{"", "is given twice in one object", false} : value(v, sub);
      if (w.why.empty()) {
        body += fmt::format("  {} = {}\n", key, w.source);
        continue;
      }
      body += fmt::format("  {}: any\n", key);
      objects_[id].push_back({key, sub, v.at, w.why, w.null});
    }
    records_[id] = fmt::format("record {}_{} {{\n{}}}\n", prefix_, id, body);
    return id;
  }
  Written value(const Node& n, const std::string& path) {
    switch (n.kind) {
      case Node::Kind::Null: return {"", "is null: napkin has no null", true};
      case Node::Kind::Bool: return {n.b ? "true" : "false", "", false};
      case Node::Kind::Unsigned:
        if (n.whole > static_cast<std::uint64_t>(kExactWhole))
          return {"", fmt::format("is {}, past 2^53: napkin's numbers would round it", n.whole), false};
        return {fmt::format("{}", n.whole), "", false};
      case Node::Kind::Integer:
        if (std::fabs(static_cast<double>(n.signed_whole)) > kExactWhole)
          return {"", fmt::format("is {}, past 2^53: napkin's numbers would round it", n.signed_whole), false};
        return {n.signed_whole < 0 ? fmt::format("(-{})", -n.signed_whole) : fmt::format("{}", n.signed_whole), "",
                false};
      case Node::Kind::Number:
        if (!std::isfinite(n.number)) return {"", "is a number too large for a double", false};
        return {n.number < 0 ? fmt::format("(-{})", -n.number) : fmt::format("{}", n.number), "", false};
      case Node::Kind::String:
        for (unsigned char c : n.text)
          if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
            return {"", fmt::format("is a string holding the control character 0x{:02X}", c), false};
        return {quote_string(n.text), "", false};
      case Node::Kind::Object: return {fmt::format("{}_{}", prefix_, object(n, path)), "", false};
      case Node::Kind::Array: {
        std::string s = "[";
        for (std::size_t i = 0; i < n.items.size(); ++i) {
          Written w = value(n.items[i], fmt::format("{}[{}]", path, i));
          if (!w.why.empty()) return {"", fmt::format("holds [{}], which {}", i, w.why), false};
          s += (i ? ", " : "") + w.source;
        }
        return {s + "]", "", false};
      }
    }
    return {};
  }
  struct Bad {
    std::string key, path;
    std::size_t at;
    std::string why;
    bool null;
  };
  std::string source() const {
    std::string s;
    for (const auto& r : records_) s += r;
    return s;
  }
  const std::vector<std::vector<Bad>>& objects() const { return objects_; }

 private:
  std::string prefix_;
  std::vector<std::vector<Bad>> objects_;
  std::vector<std::string> records_;
};

// A prefix for the records' names that no key of the document is or starts with.
std::string record_prefix(const Node& n) {
  std::string prefix = "json_object";
  std::vector<const Node*> todo{&n};
  std::vector<std::string> keys;
  while (!todo.empty()) {
    const Node* x = todo.back();
    todo.pop_back();
    for (const auto& [k, v] : x->members) {
      keys.push_back(k);
      todo.push_back(&v);
    }
    for (const auto& v : x->items) todo.push_back(&v);
  }
  for (bool clash = true; clash;) {
    clash = false;
    for (const auto& k : keys)
      if (k.rfind(prefix, 0) == 0) clash = true;
    if (clash) prefix += "_";
  }
  return prefix;
}

Value import_json(Interpreter& in, const CallArgs& a) {
  const Value& arg = a.values[0];
  if (arg.kind != Value::Kind::String) in.type_error(arg, a.nodes[0], "a file name in quotes, such as \"config.json\"");
  const SourceFile* from = a.call->span.file;
  const std::filesystem::path dir(from ? from->dir : "");
  const std::string display = (dir / arg.str()).lexically_normal().generic_string();
  std::string text;
  if (auto refused = read_import_source(in.options().imports, arg.str(), dir, ".json", a.nodes[0]->span, text)) {
    refused->labels[0].text = "read here";
    throw Error(std::move(*refused));
  }
  auto at_call = [&](Code code, std::string message, std::string help) {
    Diagnostic d;
    d.code = code;
    d.message = std::move(message);
    d.labels.push_back({a.nodes[0]->span, "read here", true});
    d.help = std::move(help);
    return Error(std::move(d));
  };
  std::error_code ec;
  if (!std::filesystem::exists(dir / arg.str(), ec))
    throw at_call(codes::import_not_found, fmt::format("cannot find the file \"{}\" (looked for {})", arg.str(), display),
                  "paths are relative to the file that reads them");
  if (text.size() > kMaxJsonBytes)
    throw at_call(codes::size_limit,
                  fmt::format("{} is {} bytes; import_json reads files of at most {} bytes", display, text.size(),
                              kMaxJsonBytes),
                  "");

  const char* furthest = text.data();
  Builder b(text, &furthest);
  Reading first{text.data(), &furthest}, last{text.data() + text.size(), &furthest};
  if (!nlohmann::json::sax_parse(first, last, &b) || !b.error.empty())
    throw at_call(codes::bad_data, fmt::format("{} is not JSON napkin reads: {}", display,
                                               b.error.empty() ? "it ends early" : b.error),
                  "");

  const std::string prefix = record_prefix(b.root);
  SourceWriter w(prefix);
  Written top = w.value(b.root, "");
  if (!top.why.empty())
    throw at_call(codes::bad_data, fmt::format("{}: the document {}", display, top.why), "");
  const std::string source = w.source() + "let json_document = " + top.source + "\n";
  Module* m = in.load_source(display + " (as napkin)", source, dir.generic_string());
  Value v = in.top_value(in.find_binding(m, "json_document"), a.call->span);
  // Each object's record: nameless, so the field or the `let` that holds it
  // names it; and each key napkin cannot hold, an error when it is read.
  for (std::size_t id = 0; id < w.objects().size(); ++id) {
    Record* r = in.top_value(in.find_binding(m, fmt::format("{}_{}", prefix, id)), a.call->span).rec;
    r->name.clear();
    if (r->state.size() < r->slots().size()) r->state.resize(r->slots().size());
    for (const auto& bad : w.objects()[id]) {
      FieldState& st = r->state[r->index().at(bad.key)];
      st.status = FieldState::Status::Failed;
      st.error = std::make_exception_ptr(at_call(
          codes::bad_data, fmt::format("{}:{}: `{}` {}", display, place(text, bad.at), bad.path, bad.why),
          bad.null ? fmt::format("get(record, \"{}\", default) reads a null or missing key as its default", bad.key)
                   : "napkin reads numbers up to 2^53 exactly, strings of text, booleans, objects and arrays"));
      if (bad.null) st.value.note = null_note();
    }
  }
  return v;
}

}  // namespace

Function import_json_builtin() { return import_json_function(import_json); }

}  // namespace napkin::cli
