#include "server.hpp"

#include <fmt/format.h>

#include "features.hpp"
#include "napkin/version.hpp"
#include "uris.hpp"

namespace napkin::lsp {

using nlohmann::json;

namespace {

// JSON-RPC and LSP error codes.
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602,
              kInternalError = -32603, kServerNotInitialized = -32002, kRequestFailed = -32803;

// A request's answer failed: its code and message.
struct Failure : std::runtime_error {
  Failure(int c, const std::string& message) : std::runtime_error(message), code(c) {}
  int code;
};

// Deeper JSON than this is refused whole: copying and printing a value
// recurse, and an LSP message nests a dozen levels at most.
constexpr int kMaxDepth = 64;

// A message body as JSON (discarded if it is not JSON). Containers deeper
// than kMaxDepth are left out as they are read (the parser itself keeps its
// own stack), and `too_deep` says so: the message is then refused.
json parse_bounded(const std::string& body, bool& too_deep) {
  too_deep = false;
  const json::parser_callback_t cut = [&too_deep](int depth, json::parse_event_t event, json&) {
    if (depth < kMaxDepth || (event != json::parse_event_t::object_start && event != json::parse_event_t::array_start))
      return true;
    too_deep = true;
    return false;
  };
  return json::parse(body, cut, /*allow_exceptions=*/false);
}

// LSP ids are integers or strings; JSON-RPC allows null.
bool usable_id(const json& id) { return id.is_number_integer() || id.is_string() || id.is_null(); }

void send(std::string& out, const json& msg) { out += frame(msg.dump(-1, ' ', false, json::error_handler_t::replace)); }

void respond_error(std::string& out, const json& id, int code, const std::string& message) {
  send(out, json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

// window/logMessage: 1 error, 2 warning.
void log(std::string& out, int type, const std::string& message) {
  send(out, json{{"jsonrpc", "2.0"}, {"method", "window/logMessage"},
                 {"params", {{"type", type}, {"message", "napkin lsp: " + message}}}});
}

// A document's version: an integer, or absent.
long long version_of(const json& td, long long fallback) {
  const auto v = td.find("version");
  if (v == td.end() || v->is_null()) return fallback;
  if (!v->is_number_integer()) throw Failure{kInvalidParams, "a document's version is an integer"};
  return v->get<long long>();
}

// A position's line or character: a number, held to what an int can count
// (a converted 1e300 would be undefined).
int coordinate(const json& v) {
  if (!v.is_number()) throw Failure{kInvalidParams, "a position's line and character are numbers"};
  const double d = v.get<double>();
  return d < 0 ? 0 : d > 1e9 ? 1'000'000'000 : static_cast<int>(d);
}

Position position_of(const json& p) { return {coordinate(p.at("line")), coordinate(p.at("character"))}; }

std::size_t offset_in(const Analysis& a, const json& position) { return a.lines->offset(position_of(position)); }

}  // namespace

Server::Server(ServerOptions o) : opts_(std::move(o)) {
  if (opts_.std_dir.empty()) opts_.std_dir = default_std_dir();
}

std::string Server::receive(std::string_view bytes) {
  std::string out;
  reader_.feed(bytes);
  while (!exited_) {
    auto body = reader_.next();
    if (reader_.dropped() != dropped_) {
      dropped_ = reader_.dropped();
      log(out, 2, fmt::format("skipped bytes that were not a message ({} times so far)", dropped_));
    }
    if (!body) break;
    handle(*body, out);
  }
  return out;
}

void Server::handle(const std::string& body, std::string& out) {
  bool too_deep = false;
  json msg = parse_bounded(body, too_deep);
  if (msg.is_discarded()) return respond_error(out, nullptr, kParseError, "the message is not JSON");
  if (too_deep) {
    const auto id = msg.is_object() ? msg.find("id") : msg.end();
    return respond_error(out, id != msg.end() && usable_id(*id) ? *id : json(nullptr), kInvalidRequest,
                         fmt::format("the message nests deeper than {} levels", kMaxDepth));
  }
  if (!msg.is_object() || !msg.contains("method") || !msg["method"].is_string()) {
    if (msg.is_object() && msg.contains("id") && (msg.contains("result") || msg.contains("error")))
      return;  // the editor's answer to a request: the server sends none
    const bool has_id = msg.is_object() && msg.contains("id") && usable_id(msg["id"]);
    return respond_error(out, has_id ? msg["id"] : json(nullptr), kInvalidRequest,
                         "a message is an object with a \"method\"");
  }
  dispatch(msg, out);
}

void Server::dispatch(const json& msg, std::string& out) {
  const std::string method = msg["method"];
  static const json none = json::object();
  const auto p = msg.find("params");
  const json& params = p == msg.end() || p->is_null() ? none : *p;
  if (!msg.contains("id")) {
    try {
      notification(method, params, out);
    } catch (const std::exception& e) {
      log(out, 1, fmt::format("{}: {}", method, e.what()));
    }
    return;
  }
  const json& id = msg["id"];
  if (!usable_id(id)) return respond_error(out, nullptr, kInvalidRequest, "a request's id is an integer or a string");
  if (!initialized_ && method != "initialize")
    return respond_error(out, id, kServerNotInitialized, "the first request must be `initialize`");
  if (shutdown_) return respond_error(out, id, kInvalidRequest, "the server is shutting down: only `exit` remains");
  // Every request napkin answers takes an object.
  if (!params.is_object()) return respond_error(out, id, kInvalidParams, fmt::format("{}: params is an object", method));
  try {
    // A request that evaluates the document waits for its evaluation, at
    // most to its time bound: its answer then reads the values found.
    const bool evaluates = method == "textDocument/hover" || method == "textDocument/definition" ||
                           method == "textDocument/completion" || method == "textDocument/inlayHint";
    if (evaluates && params.contains("textDocument") && params["textDocument"].is_object() &&
        params["textDocument"].contains("uri") && params["textDocument"]["uri"].is_string())
      if (Document* d = document(params); d && d->evaluating) {
        d->evaluating->wait();
        finish(*d, out);
      }
    send(out, json{{"jsonrpc", "2.0"}, {"id", id}, {"result", request(method, params)}});
  } catch (const Failure& f) {
    respond_error(out, id, f.code, f.what());
  } catch (const RequestFailed& e) {
    respond_error(out, id, kRequestFailed, e.what());
  } catch (const Error& e) {
    respond_error(out, id, kRequestFailed, render(e.diagnostic()));
  } catch (const json::exception& e) {
    respond_error(out, id, kInvalidParams, fmt::format("{}: the parameters are not what the protocol says: {}", method, e.what()));
  } catch (const std::exception& e) {
    respond_error(out, id, kInternalError, fmt::format("{}: internal error: {}", method, e.what()));
  }
}

Server::Document* Server::document(const json& params) {
  const auto it = docs_.find(params.at("textDocument").at("uri").get<std::string>());
  return it == docs_.end() ? nullptr : &it->second;
}

json Server::request(const std::string& method, const json& params) {
  if (method == "initialize") {
    if (initialized_) throw Failure{kInvalidRequest, "`initialize` was already received"};
    // Nothing changes until the parameters are read: a refused `initialize` may be sent again.
    bool inlay_hints = false;
    if (const auto o = params.find("initializationOptions"); o != params.end() && o->is_object())
      if (const auto h = o->find("inlayHints"); h != o->end() && !h->is_null()) {
        if (!h->is_boolean()) throw Failure{kInvalidParams, "initializationOptions.inlayHints is true or false"};
        inlay_hints = h->get<bool>();
      }
    initialized_ = true;
    inlay_hints_ = inlay_hints;
    json caps{{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
              {"hoverProvider", true},
              {"definitionProvider", true},
              {"completionProvider", {{"triggerCharacters", {"."}}}},
              {"documentSymbolProvider", true},
              {"documentFormattingProvider", true}};
    if (inlay_hints) caps["inlayHintProvider"] = true;
    return json{{"capabilities", caps}, {"serverInfo", {{"name", "napkin"}, {"version", kVersion}}}};
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  const bool known = method == "textDocument/hover" || method == "textDocument/definition" ||
                     method == "textDocument/completion" || method == "textDocument/documentSymbol" ||
                     method == "textDocument/formatting" || method == "textDocument/inlayHint";
  if (!known) throw Failure{kMethodNotFound, fmt::format("napkin lsp does not answer `{}`", method)};
  Document* d = document(params);
  if (!d) return nullptr;  // not open: nothing to say about it
  Analysis& a = d->best();
  if (method == "textDocument/hover") return hover(a, offset_in(a, params.at("position")));
  if (method == "textDocument/definition")
    return definition(a, offset_in(a, params.at("position")), Places{d->uri, opts_.std_dir});
  if (method == "textDocument/completion")
    return completion(a, d->text, d->now->lines->offset(position_of(params.at("position"))));
  if (method == "textDocument/documentSymbol") return document_symbols(a);
  if (method == "textDocument/formatting") return formatting(d->path, d->text);
  // textDocument/inlayHint
  if (!inlay_hints_ || &a != d->now.get()) return json::array();
  const json& r = params.at("range");
  return inlay_hints(a, offset_in(a, r.at("start")), offset_in(a, r.at("end")));
}

void Server::notification(const std::string& method, const json& params, std::string& out) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_) return;  // the protocol drops notifications then
  // Each reads all its parameters before it changes a document: a wrong one leaves it as it was.
  if (method == "textDocument/didOpen") {
    const json& td = params.at("textDocument");
    Document d;
    d.uri = td.at("uri").get<std::string>();
    d.path = uri_to_path(d.uri);
    if (d.path.empty()) d.path = d.uri;
    d.version = version_of(td, 0);
    update(d, td.at("text").get<std::string>(), out);
    const std::string uri = d.uri;
    docs_[uri] = std::move(d);
  } else if (method == "textDocument/didChange") {
    Document* d = document(params);
    if (!d) return;
    const long long version = version_of(params.at("textDocument"), d->version);
    std::string text = d->text;
    for (const json& c : params.at("contentChanges")) {
      if (!c.contains("range")) {
        text = c.at("text").get<std::string>();
        continue;
      }
      const LineIndex lines(text);
      const json& r = c.at("range");
      const std::size_t b = lines.offset(position_of(r.at("start")));
      const std::size_t e = lines.offset(position_of(r.at("end")));
      text = text.substr(0, b) + c.at("text").get<std::string>() + text.substr(std::max(b, e));
    }
    d->version = version;
    update(*d, std::move(text), out);
  } else if (method == "textDocument/didClose") {
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    docs_.erase(uri);
    send(out, json{{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"},
                   {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
  }
  // initialized, didSave, $/cancelRequest, $/setTrace and others need nothing.
}

void Server::update(Document& d, std::string text, std::string& out) {
  d.evaluating.reset();  // an evaluation of the text before: stopped, its findings out of date
  const Places p = places(d);
  auto a = load(opts_.options, d.path, text, p);
  if (a->module && opts_.time_limit > 0) {
    Analysis* evaluated = a.get();
    d.evaluating = Evaluation::start([evaluated, &p] {
      evaluate_file(*evaluated, p);
      return findings(*evaluated);
    }, opts_.time_limit);
  }
  if (!d.evaluating) evaluate_file(*a, p);
  d.text = std::move(text);
  if (d.now && d.now->module) d.last_good = std::move(d.now);
  d.now = std::move(a);
  if (d.now->module) d.last_good.reset();
  if (!d.evaluating) publish(d, out);
}

void Server::publish(const Document& d, std::string& out) {
  send(out, json{{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"},
                 {"params", {{"uri", d.uri}, {"version", d.version}, {"diagnostics", d.now->diagnostics}}}});
}

void Server::finish(Document& d, std::string& out) {
  const std::unique_ptr<Evaluation> e = std::move(d.evaluating);
  if (e->stopped()) {
    d.now->stopped = true;
    d.now->diagnostics.push_back(stopped_diagnostic(e->seconds()));
  } else if (!take_findings(*d.now, e->output())) {
    // The evaluating process ended without its findings: it failed (a bug).
    d.now->diagnostics.push_back(failed_diagnostic());
  }
  publish(d, out);
}

std::vector<int> Server::running() const {
  std::vector<int> fds;
  for (const auto& [uri, d] : docs_)
    if (d.evaluating) fds.push_back(d.evaluating->fd());
  return fds;
}

int Server::ms_to_deadline() const {
  int ms = -1;
  for (const auto& [uri, d] : docs_)
    if (d.evaluating) ms = ms < 0 ? d.evaluating->ms_left() : std::min(ms, d.evaluating->ms_left());
  return ms;
}

std::string Server::poll() {
  std::string out;
  for (auto& [uri, d] : docs_)
    if (d.evaluating && d.evaluating->poll()) finish(d, out);
  return out;
}

}  // namespace napkin::lsp
