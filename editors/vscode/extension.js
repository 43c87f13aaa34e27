// Starts `napkin lsp` for .napkin files. The command is the setting
// `napkin.server.path` (default: `napkin` on PATH), and `napkin.inlayHints`
// turns on the values shown after each field.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("napkin");
  const command = config.get("server.path", "napkin");
  client = new LanguageClient(
    "napkin",
    "napkin",
    { run: { command, args: ["lsp"] }, debug: { command, args: ["lsp"] } },
    {
      documentSelector: [{ scheme: "file", language: "napkin" }],
      initializationOptions: { inlayHints: config.get("inlayHints", false) },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
