#!/usr/bin/python3
"""`napkin lsp` spoken to as an editor would, and as a careless one would:
split and joined messages, bad JSON, unknown methods, requests out of turn,
positions in UTF-16 code units, and every feature on exercise 1.
Usage: lsp_protocol_test.py NAPKIN (run from the source tree)"""
import atexit
import os
import pathlib
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import Server  # noqa: E402

napkin = sys.argv[1]
std_dir = tempfile.mkdtemp(prefix="napkin-lsp-std-")
atexit.register(shutil.rmtree, std_dir, True)
failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def position(text, needle, nth=0, at=0):
    """The LSP position of the `nth` occurrence of `needle` (plus `at` code points), in UTF-16 units."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += at
    line = text.count("\n", 0, i)
    start = text.rfind("\n", 0, i) + 1
    return {"line": line, "character": len(text[start:i].encode("utf-16-le")) // 2}


ERROR, PARSE, INVALID, NOT_FOUND, PARAMS, NOT_INITIALIZED, FAILED = -32600, -32700, -32600, -32601, -32602, -32002, -32803

# ---- the protocol -------------------------------------------------------------
s = Server(napkin, "--std-dir", std_dir)
r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///x.napkin"}, "position": {"line": 0, "character": 0}})
expect(r.get("error", {}).get("code") == NOT_INITIALIZED, "a request before initialize is refused (ServerNotInitialized)")
s.write(Server.frame(b"{this is not json"))
r = s.read()
expect(r.get("id", 0) is None and r["error"]["code"] == PARSE, "bad JSON: a ParseError response with a null id")
s.write(Server.frame(b"[1, 2]"))
expect(s.read()["error"]["code"] == INVALID, "a JSON array (a batch): InvalidRequest")
s.write(b"X-Nothing: 1\r\n\r\n")  # a header block with no Content-Length is skipped
# initialize in three pieces, the header itself split
whole = Server.frame({"jsonrpc": "2.0", "id": 100, "method": "initialize",
                      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
for piece in (whole[:7], whole[7:40], whole[40:]):
    s.write(piece)
    time.sleep(0.05)
init = s.answer(100)
caps = init["result"]["capabilities"]
expect(caps["textDocumentSync"]["change"] == 1 and caps["hoverProvider"] and caps["definitionProvider"],
       "initialize read from three partial writes; full sync, hover, definition")
expect("inlayHintProvider" not in caps, "inlay hints are off unless initializationOptions.inlayHints is true")
r = s.request("initialize", {"capabilities": {}})
expect(r["error"]["code"] == INVALID, "a second initialize is refused")
# two messages in one write: a notification and an unknown request
s.write(Server.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}) +
        Server.frame({"jsonrpc": "2.0", "id": 101, "method": "textDocument/frobnicate", "params": {}}))
r = s.answer(101)
expect(r["error"]["code"] == NOT_FOUND and "frobnicate" in r["error"]["message"],
       "two messages in one read; an unknown method: MethodNotFound, naming it")
s.notify("$/somethingUnknown", {})  # an unknown notification: no answer at all
expect(s.quiet(), "an unknown notification is ignored")
r = s.request("textDocument/hover", {"textDocument": 5, "position": {}})
expect(r["error"]["code"] == PARAMS, "parameters of the wrong shape: InvalidParams")
r = s.request("textDocument/didOpen", {})  # a notification sent as a request
expect(r["error"]["code"] == NOT_FOUND, "a notification's method as a request: MethodNotFound")

# ---- positions in UTF-16 code units ---------------------------------------------
# ≈ is 3 bytes and 1 unit, · and µ 2 bytes and 1 unit, 😀 4 bytes and 2 units (1 code point).
utf = 'let t = 2 µs\nlet w = if "≈·µ😀" == "≈" then t else nope\n'
uri = "file://" + std_dir + "/utf16.napkin"
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "napkin", "version": 1, "text": utf}})
d = s.diagnostics(uri)["diagnostics"]
# `nope` starts after 37 code points of line 1, the emoji counting 2 units: character 38 (bytes: 44).
expect(len(d) == 1 and d[0]["code"] == "E0300" and d[0]["range"] == {"start": {"line": 1, "character": 38},
                                                                        "end": {"line": 1, "character": 42}},
       "an unknown name after ≈·µ😀 on its line: E0300 once, at UTF-16 character 38..42")
expect(position(utf, "nope") == {"line": 1, "character": 38}, "(the test's own UTF-16 count agrees)")
# hover on the `t` after `then`: code point 30, UTF-16 unit 31
h = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 31}})["result"]
expect(h is not None and "2 µs" in h["contents"]["value"] and h["range"]["start"] == {"line": 1, "character": 31},
       "hover at UTF-16 character 31 finds `t` = 2 µs, and its range is in UTF-16 too")

r = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 1e300, "character": -5}})
expect("result" in r, "a position far past the text's end, and a negative one: an answer, not a crash")
r = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "one", "character": 0}})
expect(r.get("error", {}).get("code") == PARAMS, "a position that is not a number: InvalidParams")

# ---- an input with no value: information at the record, once ---------------------------
needs = 'import "std/transformer"\nmodel tiny extends transformer {\n  layers = 2\n}\n'
nuri = "file://" + std_dir + "/needs.napkin"
s.notify("textDocument/didOpen", {"textDocument": {"uri": nuri, "languageId": "napkin", "version": 1, "text": needs}})
d = s.diagnostics(nuri)["diagnostics"]
messages = [x["message"] for x in d]
# stdlib/transformer.napkin:37-44: of the inputs with no default, the file sets only `layers`
wanted = [f"tiny needs `{n}`, an input with no value (declared at std/transformer:{line})"
          for n, line in (("d_model", 38), ("heads", 39), ("d_ffn", 42), ("mlp", 43), ("vocab", 44))]
expect(all(x["severity"] == 3 and x["range"]["start"] == {"line": 1, "character": 6} for x in d) and
       sorted(messages) == sorted(wanted),
       "a model without five inputs: information at its name, once for each input")

# ---- a solve with no solution: the error `napkin check` gives, at the same place ------
# tests/errors/solve_no_solution.napkin: `fits` fails at the bracket's low
# end (16 GB + 300 · 536,870,912 B > 80 GB), E0503 over the whole statement, line 8.
solve_text = pathlib.Path("tests/errors/solve_no_solution.napkin").read_text(encoding="utf-8")
suri = "file://" + std_dir + "/solve.napkin"
s.notify("textDocument/didOpen", {"textDocument": {"uri": suri, "languageId": "napkin", "version": 1, "text": solve_text}})
d = s.diagnostics(suri)["diagnostics"]
expect([(x.get("code"), x["severity"], x["range"]["start"], x["message"].split(":")[0]) for x in d]
       == [("E0503", 1, {"line": 7, "character": 0}, "no solution in [300, 400]")],
       "a solve with no solution: E0503 at the statement, as napkin check says: %s" % d)

# ---- every label of a diagnostic: the others as related information --------------------
labels_text = "let a = 2 s\nlet b = a + 3\ncheck a > 5 s\n"
luri = "file://" + std_dir + "/labels.napkin"
s.notify("textDocument/didOpen", {"textDocument": {"uri": luri, "languageId": "napkin", "version": 1, "text": labels_text}})
d = {x["code"]: x for x in s.diagnostics(luri)["diagnostics"]}
add = d.get("E0201", {})
# `a` (line 1, characters 8..9) is the primary label; `3` (12..13) the other.
expect(add.get("range") == {"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 9}} and
       add.get("relatedInformation") == [{"location": {"uri": luri, "range": {"start": {"line": 1, "character": 12},
                                                                                "end": {"line": 1, "character": 13}}},
                                          "message": "this is a plain number (3)"}],
       "E0201 at its primary label, the other label as related information: %s" % add)
# A failed check: E0500 over its condition (`a > 5 s`, characters 6..13), as `napkin check` reports it.
chk = d.get("E0500", {})
expect(chk.get("range") == {"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 13}} and
       chk.get("message", "").startswith("check failed: 2 s > 5 s is false"),
       "a failed check: E0500 over its condition, napkin check's message: %s" % chk)

# ---- a file that runs away: the server keeps answering, and says it stopped ------------
# f(40) calls f 2^40 times: hours. The evaluation runs in the background
# and is stopped at the server's time bound (3 s, docs/editors.md).
slow = "fn f(n) = if n <= 0 then 1 else f(n - 1) + f(n - 1)\nlet x = f(40)\n"
wuri = "file://" + std_dir + "/runaway.napkin"
opened = time.monotonic()
s.notify("textDocument/didOpen", {"textDocument": {"uri": wuri, "languageId": "napkin", "version": 1, "text": slow}})
syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": wuri}})["result"]
took = time.monotonic() - opened
expect([x["name"] for x in syms] == ["f", "x"] and took < 1.0,
       "while a runaway file evaluates, another request is answered at once (%.2f s)" % took)
r = s.request("textDocument/formatting", {"textDocument": {"uri": wuri}, "options": {"tabSize": 2, "insertSpaces": True}})
expect("result" in r and time.monotonic() - opened < 1.0, "... and formatting too")
d = s.diagnostics(wuri)["diagnostics"]
took = time.monotonic() - opened
expect([x.get("code") for x in d] == ["E0703"] and "stopped" in d[0]["message"] and "3 s" in d[0]["message"] and
       2.5 < took < 8, "the evaluation stopped at the time bound: E0703 says so (after %.1f s): %s" % (took, d))
asked = time.monotonic()
h = s.request("textDocument/hover", {"textDocument": {"uri": wuri}, "position": {"line": 1, "character": 4}})["result"]
expect(h is not None and "stopped" in h["contents"]["value"] and time.monotonic() - asked < 1.0,
       "a hover on the stopped file answers at once that its values are not known")
# An edit that ends the runaway: the server evaluates the new text.
s.notify("textDocument/didChange", {"textDocument": {"uri": wuri, "version": 2},
                                    "contentChanges": [{"text": slow.replace("f(40)", "f(3)")}]})
expect(s.diagnostics(wuri)["diagnostics"] == [], "fixed: f(3) evaluates, diagnostics cleared")
h = s.request("textDocument/hover", {"textDocument": {"uri": wuri}, "position": {"line": 1, "character": 4}})["result"]
expect(h is not None and "8" in h["contents"]["value"], "... and a hover shows x = 8")

# ---- exercise 1 -------------------------------------------------------------------
path = pathlib.Path("examples/exercise1_size_a_model.napkin").resolve()
text = path.read_text(encoding="utf-8")
ex = "file://" + str(path)
s.notify("textDocument/didOpen", {"textDocument": {"uri": ex, "languageId": "napkin", "version": 1, "text": text}})
expect(s.diagnostics(ex)["diagnostics"] == [], "exercise 1 opens with no diagnostics")


def ask(method, pos, uri=ex):
    return s.request(method, {"textDocument": {"uri": uri}, "position": pos})


h = ask("textDocument/hover", position(text, "drill.d_model", at=6))["result"]
# examples/exercise1_size_a_model.napkin: d_model = 6144
expect(h is not None and "**6,144**" in h["contents"]["value"] and "d_model" in h["contents"]["value"],
       "hover on drill.d_model: its value, 6,144 as napkin shows it")
h = ask("textDocument/hover", position(text, "total = drill.params", at=0))["result"]
expect(h is not None and "where" in h["contents"]["value"], "hover on a derived field: its derivation, one level")

loc = ask("textDocument/definition", position(text, "extends transformer", at=9))["result"]
std_file = pathlib.Path(std_dir) / "transformer.napkin"
# stdlib/transformer.napkin:35 is `model transformer {`: line 34 from 0, the name at character 6
expect(loc is not None and loc["uri"] == "file://" + str(std_file) and
       loc["range"]["start"] == {"line": 34, "character": 6},
       "definition of `transformer`: std/transformer's copy in the std folder, at its declaration")
expect(std_file.read_bytes() == pathlib.Path("stdlib/transformer.napkin").read_bytes(),
       "the copy holds the built-in module's text")
loc = ask("textDocument/definition", position(text, "drill.d_model", at=8))["result"]
expect(loc is not None and loc["uri"] == ex and loc["range"]["start"] == position(text, "d_model         = 6144"),
       "definition of drill.d_model: the field's declaration in the record")
loc = ask("textDocument/definition", position(text, "= drill.q_params", at=2))["result"]
expect(loc is not None and loc["range"]["start"] == position(text, "drill extends"),
       "definition of `drill` inside another record: the model")

syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": ex}})["result"]
drill = [x for x in syms if x["name"] == "drill"]
expect(drill and "layers" in [c["name"] for c in drill[0]["children"]] and "max_context" in [x["name"] for x in syms],
       "document symbols: the records with their fields, and the lets")

# an edit that leaves the file unparsable: one diagnostic; completion from the last good evaluation
edited = text + "let z = drill.\n"
s.notify("textDocument/didChange", {"textDocument": {"uri": ex, "version": 2}, "contentChanges": [{"text": edited}]})
d = s.diagnostics(ex)
expect(d["version"] == 2 and len(d["diagnostics"]) == 1 and d["diagnostics"][0]["code"].startswith("E01"),
       "an edit that breaks the syntax: one parse diagnostic (E01xx), for version 2")
end = position(edited, "drill.\n", at=6)
items = ask("textDocument/completion", end)["result"]
labels = {i["label"] for i in items}
expect({"d_model", "layers", "params", "head_dim"} <= labels and "max_context" not in labels,
       "completion after `drill.`: its own fields and those it inherits")
items = ask("textDocument/completion", position(edited, "let z", at=4))["result"]
byname = {i["label"]: i for i in items}
expect("drill" in byname and byname.get("kv_cache_bytes", {}).get("detail") == "kv_cache_bytes(m, context, batch = 1)"
       and "GiB" in byname and "GB" in byname,
       "completion of a name: records, library functions with their parameters, units")
r = s.request("textDocument/formatting", {"textDocument": {"uri": ex}, "options": {"tabSize": 2, "insertSpaces": True}})
expect(r.get("error", {}).get("code") == FAILED and "E01" in r["error"]["message"],
       "formatting a file that does not parse: RequestFailed with the diagnostic")
s.notify("textDocument/didChange", {"textDocument": {"uri": ex, "version": 3},
                                    "contentChanges": [{"text": "let   x=1\n"}]})
expect(s.diagnostics(ex)["diagnostics"] == [], "the edit fixed: diagnostics cleared")
r = s.request("textDocument/formatting", {"textDocument": {"uri": ex}, "options": {"tabSize": 2, "insertSpaces": True}})
expect(r["result"] == [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}},
                        "newText": "let x = 1\n"}], "formatting: one edit, `let x = 1` as napkin fmt lays it out")
s.notify("textDocument/didClose", {"textDocument": {"uri": ex}})
expect(s.diagnostics(ex)["diagnostics"] == [], "closing a file clears its diagnostics")

r = s.request("shutdown")
expect("result" in r and r["result"] is None, "shutdown answers null")
r = s.request("textDocument/hover", {"textDocument": {"uri": ex}, "position": {"line": 0, "character": 0}})
expect(r["error"]["code"] == INVALID, "a request after shutdown: InvalidRequest")
s.notify("exit", None)
expect(s.p.wait(10) == 0, "exit after shutdown: status 0")

s = Server(napkin, "--std-dir", std_dir)
s.initialize()
s.notify("exit", None)
expect(s.p.wait(10) == 1, "exit without shutdown: status 1")
s = Server(napkin, "--std-dir", std_dir)
s.p.stdin.write(b"Content-Length: 10\r\n\r\n{\"a")  # cut off mid-message
s.p.stdin.close()
expect(s.p.wait(10) == 1, "the editor gone mid-message: status 1, no crash")

# ---- inlay hints, when asked for ------------------------------------------------------
s = Server(napkin, "--std-dir", std_dir)
caps = s.initialize({"inlayHints": True})["result"]["capabilities"]
expect(caps.get("inlayHintProvider") is True, "initializationOptions.inlayHints turns inlay hints on")
s.notify("textDocument/didOpen", {"textDocument": {"uri": ex, "languageId": "napkin", "version": 1, "text": text}})
s.diagnostics(ex)
hints = s.request("textDocument/inlayHint", {"textDocument": {"uri": ex}, "range": {
    "start": {"line": 0, "character": 0}, "end": {"line": 10000, "character": 0}}})["result"]
at = {(h["position"]["line"], h["label"]) for h in hints}
# d_head = 6144 / 48 = 128; d = drill.d_model = 6144; a literal (layers = 48) has none
expect((position(text, "d_head = drill.head_dim")["line"], "= 128") in at and
       (position(text, "let d = drill.d_model")["line"], "= 6,144") in at and
       position(text, "layers          = 48")["line"] not in {line for line, _ in at},
       "inlay hints: each formula's value at its end (d_head = 128, d = 6,144), none after a literal")
s.request("shutdown")
s.notify("exit", None)
s.p.wait(10)

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
