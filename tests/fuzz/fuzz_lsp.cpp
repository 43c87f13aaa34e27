// libFuzzer target: the language server (lsp/server.cpp), fed as an editor
// feeds `napkin lsp`. An input that starts with "Content-Length" is a byte
// stream of JSON-RPC frames, fed after `initialize` in pieces cut where the
// input says (a frame may arrive split or joined to the next). Any other
// input is a document: opened (the part before a NUL byte, if any), asked
// for hover, completion and definition at places taken from the input,
// for its symbols, formatting and inlay hints, then edited (a range of it
// replaced by the part after the NUL) and asked again, closed, and the
// server shut down. measure() is answered by the fake prober; the std/
// modules that definitions open are written to a temporary folder, removed
// at exit. Every message the server writes must be a frame holding JSON; a
// crash, a sanitizer report, a hang or an exception out of the server is a
// finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_common.hpp"
#include "interpreter/lsp/framing.hpp"
#include "interpreter/lsp/server.hpp"

namespace {
constexpr std::size_t kMaxInput = 64 * 1024;
using nlohmann::json;

// Where definitions write std/ modules: one folder for the whole run, in a
// buffer that outlives the handler that removes it.
char std_folder[] = "/tmp/napkin-fuzz-lsp-XXXXXX";
const char* std_dir() {
  static const bool made = [] {
    if (!mkdtemp(std_folder)) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(std_folder, ec);
    });
    return true;
  }();
  (void)made;
  return std_folder;
}

// What the server wrote: whole frames, each JSON, nothing left over.
void check_output(const std::string& out) {
  napkin::lsp::Reader r;
  r.feed(out);
  std::size_t bytes = 0;
  while (auto body = r.next()) {
    bytes += napkin::lsp::frame(*body).size();
    if (!json::accept(*body)) {
      std::fprintf(stderr, "napkin lsp wrote a frame that is not JSON:\n%s\n", body->c_str());
      std::abort();
    }
  }
  if (r.dropped() != 0 || bytes != out.size()) {
    std::fprintf(stderr, "napkin lsp wrote bytes that are not whole frames:\n%s\n", out.c_str());
    std::abort();
  }
}

struct Session {
  napkin::lsp::Server server;
  int id = 0;
  Session()
      : server(napkin::lsp::ServerOptions{[] {
                                            napkin::Options o = napkin::fuzz::options();
                                            o.samples = 64;
                                            return o;
                                          },
                                          std_dir()}) {}
  void feed(std::string_view bytes) { check_output(server.receive(bytes)); }
  // Text the input gave may not be UTF-8: an editor sends UTF-8, so invalid bytes become U+FFFD.
  void send(json msg) { feed(napkin::lsp::frame(msg.dump(-1, ' ', false, json::error_handler_t::replace))); }
  void request(const std::string& method, json params) {
    send(json{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method}, {"params", std::move(params)}});
  }
  void notify(const std::string& method, json params) {
    send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
};

constexpr const char* kUri = "file:///nonexistent/napkin-fuzz/fuzz.napkin";

// The LSP position of byte `offset` of `text`, its character counted in
// bytes (UTF-16 units for ASCII; past them elsewhere, which the server clamps).
json position(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  long line = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') ++line, start = i + 1;
  return json{{"line", line}, {"character", offset - start}};
}

void document(std::string_view input) {
  const std::size_t nul = input.find('\0');
  const std::string text(input.substr(0, nul));
  const std::string edit(nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1));
  const std::uint64_t h = napkin::fuzz::fnv1a(input);
  Session s;
  s.request("initialize", json{{"processId", nullptr}, {"initializationOptions", {{"inlayHints", true}}}});
  s.notify("initialized", json::object());
  s.notify("textDocument/didOpen",
           json{{"textDocument", {{"uri", kUri}, {"languageId", "napkin"}, {"version", 1}, {"text", text}}}});
  const json doc{{"uri", kUri}};
  auto ask = [&](std::string_view now, std::uint64_t seed) {
    for (int i = 0; i < 4; ++i) {
      const json at = position(now, static_cast<std::size_t>((seed >> (i * 13)) % (now.size() + 2)));
      for (const char* m : {"textDocument/hover", "textDocument/completion", "textDocument/definition"})
        s.request(m, json{{"textDocument", doc}, {"position", at}});
    }
    s.request("textDocument/documentSymbol", json{{"textDocument", doc}});
    s.request("textDocument/formatting", json{{"textDocument", doc}, {"options", {{"tabSize", 2}, {"insertSpaces", true}}}});
    s.request("textDocument/inlayHint",
              json{{"textDocument", doc}, {"range", {{"start", position(now, 0)}, {"end", position(now, now.size())}}}});
  };
  ask(text, h);
  // A range of the text replaced by the edit, as an editor sends a keystroke or a paste.
  const std::size_t b = text.empty() ? 0 : h % text.size();
  const std::size_t e = std::min(text.size(), b + (h >> 32) % 16);
  s.notify("textDocument/didChange",
           json{{"textDocument", {{"uri", kUri}, {"version", 2}}},
                {"contentChanges", json::array({json{{"range", {{"start", position(text, b)}, {"end", position(text, e)}}},
                                                     {"text", edit}}})}});
  const std::string now = text.substr(0, b) + edit + text.substr(e);
  ask(now, h * 1099511628211ull);
  s.notify("textDocument/didClose", json{{"textDocument", doc}});
  s.request("shutdown", nullptr);
  s.notify("exit", nullptr);
}

void stream(std::string_view input) {
  Session s;
  s.request("initialize", json{{"processId", nullptr}, {"initializationOptions", {{"inlayHints", true}}}});
  // Cut into pieces whose sizes the input's hash gives.
  std::uint64_t h = napkin::fuzz::fnv1a(input);
  while (!input.empty()) {
    const std::size_t n = std::min(input.size(), 1 + static_cast<std::size_t>(h % (input.size() / 2 + 1)));
    s.feed(input.substr(0, n));
    input.remove_prefix(n);
    h = h * 1099511628211ull + 1;
  }
  s.request("shutdown", nullptr);
  s.notify("exit", nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.substr(0, 14) == "Content-Length") stream(input);
  else document(input);
  return 0;
}
