#pragma once
// `napkin lsp`: a Language Server Protocol server. Bytes in (what the editor
// wrote to standard input), bytes out (what to write to standard output):
// the process loop around it is cli/cmd_lsp.cpp, and tests and benchmarks
// feed it directly. docs/editors.md lists what it answers.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis.hpp"
#include "evaluation.hpp"
#include "framing.hpp"

namespace napkin::lsp {

// How long `napkin lsp` lets one evaluation of a document run (docs/editors.md).
constexpr double kEvaluationSeconds = 3;

struct ServerOptions {
  OptionsFactory options;   // the interpreter's options for each evaluation
  std::string std_dir;      // where std/ modules are written for definitions ("" : default_std_dir())
  // Seconds one evaluation may take, run in a child process while the
  // server answers; 0: in the server's own process, with no bound (what a
  // test or a benchmark feeding the server directly wants).
  double time_limit = 0;
};

class Server {
 public:
  explicit Server(ServerOptions o);
  // Everything to write back for these bytes (whole framed messages).
  std::string receive(std::string_view bytes);
  // `exit` was received; its status is 0 after `shutdown`, else 1 (as the protocol asks).
  bool exited() const { return exited_; }
  // The evaluations running in the background: a descriptor to wait on for
  // each, and the milliseconds until the first time bound (-1: none).
  std::vector<int> running() const;
  int ms_to_deadline() const;
  // What the evaluations that finished meanwhile publish (whole framed
  // messages); one past its time bound is stopped here.
  std::string poll();
  int exit_code() const { return shutdown_ ? 0 : 1; }

 private:
  struct Document {
    std::string uri, path, text;
    long long version = 0;
    std::unique_ptr<Analysis> now;        // of `text`
    std::unique_ptr<Analysis> last_good;  // the last that loaded, while `now` does not
    std::unique_ptr<Evaluation> evaluating;  // of `now`, in the background; its diagnostics come when it ends
    Analysis& best() { return now->module || !last_good ? *now : *last_good; }
  };

  void handle(const std::string& body, std::string& out);
  void dispatch(const nlohmann::json& msg, std::string& out);
  nlohmann::json request(const std::string& method, const nlohmann::json& params);
  void notification(const std::string& method, const nlohmann::json& params, std::string& out);
  void update(Document& d, std::string text, std::string& out);
  void publish(const Document& d, std::string& out);
  // Takes a finished background evaluation's findings into `d.now` and publishes them.
  void finish(Document& d, std::string& out);
  Places places(const Document& d) const { return Places{d.uri, opts_.std_dir}; }
  Document* document(const nlohmann::json& params);

  ServerOptions opts_;
  Reader reader_;
  std::size_t dropped_ = 0;  // reader_.dropped() when last logged
  std::map<std::string, Document> docs_;
  bool initialized_ = false, shutdown_ = false, exited_ = false;
  bool inlay_hints_ = false;  // initializationOptions.inlayHints
};

}  // namespace napkin::lsp
