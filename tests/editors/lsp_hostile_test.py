#!/usr/bin/python3
"""`napkin lsp` spoken to by a hostile client: JSON nested 100,000 deep,
frames whose length lies or is missing, bytes that are not UTF-8, ids that
are objects, parameters of the wrong type for every method, a failed
`initialize`, and std module names that climb out of --std-dir. After each,
the server must still answer a good request. Every case starts its own
`napkin lsp` and reads with a deadline, so a crash or a hang fails the case.
Usage: lsp_hostile_test.py NAPKIN"""
import os
import pathlib
import shutil
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import Server  # noqa: E402

napkin = sys.argv[1]
scratch = tempfile.mkdtemp(prefix="napkin-lsp-hostile-")
std_dir = os.path.join(scratch, "std")
failures = []

PARSE, INVALID, NOT_FOUND, PARAMS, NOT_INITIALIZED = -32700, -32600, -32601, -32602, -32002
DEEP = 100_000


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def case(what):
    """Runs the decorated function at once; an exception (a crash: EOF, a
    broken pipe; a hang: a timeout) fails it."""
    def run(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            expect(False, f"{what}: {type(e).__name__}: {e}")
    return run


def start(*args):
    return Server(napkin, "--std-dir", std_dir, *args)


def raw(s, body: bytes, id=None):
    """Sends one framed body; the answer to `id`, if given."""
    s.write(Server.frame(body))
    return s.answer(id) if id is not None else None


def error_code(r):
    return r.get("error", {}).get("code")


def still_answers(s, what):
    """A good request after the bad one is answered (an error is an answer:
    before `initialize` it is ServerNotInitialized)."""
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nowhere.napkin"}})
    expect("result" in r or error_code(r) == NOT_INITIALIZED, what + "; the next request is answered")


def stop(s):
    if s.p.poll() is None:
        s.p.kill()
    s.p.wait(10)


# ---- E1: JSON nested 100,000 deep -------------------------------------------------
deep_array = b"[" * DEEP + b"]" * DEEP
deep_object = b'{"a":' * DEEP + b"1" + b"}" * DEEP


@case("an id nested 100,000 deep")
def _():
    s = start()
    r = raw(s, b'{"jsonrpc":"2.0","id":' + deep_array + b',"method":"initialize","params":{}}', None)
    r = s.read()
    expect(error_code(r) == INVALID and r.get("id", 0) is None,
           "an id nested 100,000 deep: InvalidRequest with a null id, no crash")
    still_answers(s, "after an id nested 100,000 deep")
    stop(s)


@case("params nested 100,000 deep")
def _():
    s = start()
    r = raw(s, b'{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"x":' + deep_object + b"}}", 7)
    expect(error_code(r) == INVALID and "deep" in r["error"]["message"],
           "params nested 100,000 deep: InvalidRequest for id 7, saying it nests too deep")
    expect("result" in s.initialize(), "then initialize succeeds")
    r = raw(s, b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":' + deep_array + b"}")
    still_answers(s, "a notification whose params nest 100,000 deep")
    r = raw(s, deep_array)
    r = s.read()
    expect(error_code(r) == INVALID and r.get("id", 0) is None, "a bare array nested 100,000 deep: InvalidRequest")
    r = raw(s, b'{"jsonrpc":"2.0","id":8,"method":"shutdown","x":' + deep_object + b"}", 8)
    expect(error_code(r) == INVALID, "a member other than params nested 100,000 deep: InvalidRequest for id 8")
    still_answers(s, "after three frames nested 100,000 deep")
    stop(s)


@case("nesting just within the bound")
def _():
    s = start()
    s.initialize()
    nested = 1
    for _ in range(20):
        nested = [nested]
    r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///n.napkin"},
                                         "position": {"line": 0, "character": 0},
                                         "workDoneToken": nested})
    expect(r.get("result", 0) is None, "a request nesting 22 deep is read as any other")
    stop(s)


# ---- E2: frames whose length lies, and resynchronisation ---------------------------
def good(id):
    return Server.frame({"jsonrpc": "2.0", "id": id, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}})


lost = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
bad_frames = [
    ("Content-Length: -2", b"Content-Length: -2\r\n\r\n" + lost),
    ("a header block with no Content-Length, then a body", b"X-Nothing: 1\r\n\r\n" + lost),
    ("a Content-Length two bytes short of its body", b"Content-Length: %d\r\n\r\n" % (len(lost) - 2) + lost),
    ("a Content-Length of 10^30 (past any memory)", b"Content-Length: " + b"9" * 30 + b"\r\n\r\n" + lost),
    ("a Content-Length of 4 GB (past the 64 MiB limit)", b"Content-Length: 4294967296\r\n\r\n" + lost),
    ("a Content-Length that is not a number", b"Content-Length: twelve\r\n\r\n" + lost),
    ("a header that is not UTF-8", b"Content-Length: 1\xff\xfe\r\n\r\n" + lost),
    ("100 KB of noise with no blank line", b"x" * 100_000 + lost),
    ("the second header of a frame cut off", b"Content-Type: text\r\n" + lost + b"\r\n"),
]
for what, bad in bad_frames:
    @case(what)
    def _():
        s = start()
        s.write(bad + good(2))
        r = s.answer(2)
        expect("result" in r and "capabilities" in r["result"], what + ", then initialize: answered")
        s.write(good(3))
        expect(error_code(s.answer(3)) == INVALID, what + ": the frames after it are read in step")
        stop(s)


@case("a bad frame, then a good one in a later write")
def _():
    s = start()
    s.write(b"Content-Length: -2\r\n\r\n" + lost)
    s.write(good(2))
    r = s.answer(2)
    expect("result" in r, "Content-Length: -2 and its body, then initialize written apart: answered")
    stop(s)


# ---- invalid UTF-8, and ids that are not integers or strings -------------------------
@case("invalid UTF-8")
def _():
    s = start()
    raw(s, b'{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"x":"\xff\xfe\xc0\x80"}}')
    r = s.read()
    expect(error_code(r) == PARSE and r.get("id", 0) is None, "a body that is not UTF-8: ParseError")
    raw(s, b'{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"x":"\\ud800"}}')
    expect(error_code(s.read()) == PARSE, "a lone surrogate escape: ParseError")
    expect("result" in s.initialize(), "then initialize succeeds")
    stop(s)


for what, id in (("an object", b'{"a":1}'), ("an array", b"[1,2]"), ("a float", b"1.5"), ("true", b"true")):
    @case(f"an id that is {what}")
    def _():
        s = start()
        raw(s, b'{"jsonrpc":"2.0","id":' + id + b',"method":"initialize","params":{"capabilities":{}}}')
        r = s.read()
        expect(error_code(r) == INVALID and r.get("id", 0) is None,
               f"an id that is {what}: InvalidRequest with a null id (ids are integers or strings)")
        expect("result" in s.initialize(), f"an id that is {what}: the server is not initialised by it")
        stop(s)


# ---- E3: a failed initialize leaves the server uninitialised --------------------------
for what, params in (("inlayHints a string", {"capabilities": {}, "initializationOptions": {"inlayHints": "yes"}}),
                     ("params a number", 5), ("params an array", [1]), ("params a string", "x")):
    @case(f"initialize with {what}")
    def _():
        s = start()
        r = s.request("initialize", params)
        expect(error_code(r) == PARAMS, f"initialize with {what}: InvalidParams")
        r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///x.napkin"},
                                             "position": {"line": 0, "character": 0}})
        expect(error_code(r) == NOT_INITIALIZED, f"initialize with {what}: the server is still not initialised")
        r = s.initialize({"inlayHints": True})
        expect(r.get("result", {}).get("capabilities", {}).get("inlayHintProvider") is True,
               f"initialize with {what}, then a corrected one: it succeeds, with its options")
        stop(s)


# ---- parameters of the wrong type for every method ------------------------------------
doc = "file:///hostile/doc.napkin"
text = "let x = 2 GB\nlet y = x * 3\n"
pos = {"line": 1, "character": 4}
requests = {
    "textDocument/hover": {"textDocument": {"uri": doc}, "position": pos},
    "textDocument/definition": {"textDocument": {"uri": doc}, "position": pos},
    "textDocument/completion": {"textDocument": {"uri": doc}, "position": pos},
    "textDocument/documentSymbol": {"textDocument": {"uri": doc}},
    "textDocument/formatting": {"textDocument": {"uri": doc}, "options": {"tabSize": 2, "insertSpaces": True}},
    "textDocument/inlayHint": {"textDocument": {"uri": doc}, "range": {"start": pos, "end": pos}},
}


def spoilt(params):
    """Each member of `params`, one at a time and recursively, replaced by
    values of every wrong type."""
    for key, value in params.items():
        for wrong in (None, 5, 1e300, "x", [], [1], True, {}):
            if wrong == value or (isinstance(value, dict) and wrong == {}):
                continue
            yield {**params, key: wrong}
        if isinstance(value, dict):
            for inner in spoilt(value):
                yield {**params, key: inner}
        yield {k: v for k, v in params.items() if k != key}


@case("parameters of the wrong type for every request")
def _():
    s = start()
    s.initialize({"inlayHints": True})
    s.notify("textDocument/didOpen", {"textDocument": {"uri": doc, "languageId": "napkin", "version": 1, "text": text}})
    s.diagnostics(doc)
    for method, params in requests.items():
        answered = 0
        tried = 0
        for wrong in [5, "x", [], True, *spoilt(params)]:
            tried += 1
            r = s.request(method, wrong)
            code = error_code(r)
            # A member that is optional, or a textDocument that is not open, has an answer; a wrong type
            # where the method reads it is InvalidParams. Either way an answer, never a crash.
            answered += "result" in r or code == PARAMS
        expect(answered == tried, f"{method}: {tried} kinds of wrong parameters, each answered")
        r = s.request(method, 5)
        expect(error_code(r) == PARAMS, f"{method} with params 5: InvalidParams")
    r = s.request("textDocument/hover", requests["textDocument/hover"])
    expect(r.get("result") and "6 GB" in r["result"]["contents"]["value"], "the document still answers a hover")
    r = s.request("shutdown", "x")
    expect(error_code(r) == PARAMS, "shutdown with params a string: InvalidParams")
    stop(s)


@case("notifications with parameters of the wrong type")
def _():
    s = start()
    s.initialize()
    other = "file:///hostile/other.napkin"
    # A didOpen whose text, version or uri is of the wrong type opens nothing.
    for td in ({"uri": other, "text": 5}, {"uri": other, "text": text, "version": "one"},
               {"uri": other, "text": text, "version": 1e300}, {"uri": 5, "text": text}, 5, None):
        s.notify("textDocument/didOpen", {"textDocument": td})
        r = s.request("textDocument/hover", {"textDocument": {"uri": other}, "position": pos})
        expect(r.get("result", 0) is None, f"didOpen with textDocument {str(td)[:40]}: nothing opened, no crash")
    s.notify("textDocument/didOpen", {"textDocument": {"uri": doc, "languageId": "napkin", "version": 1, "text": text}})
    s.diagnostics(doc)
    for change in ({"text": 5}, {"range": {"start": {"line": "x", "character": 0}, "end": pos}, "text": "y"},
                   {"range": 5, "text": "y"}, 5):
        s.notify("textDocument/didChange", {"textDocument": {"uri": doc, "version": 2}, "contentChanges": [change]})
        r = s.request("textDocument/hover", {"textDocument": {"uri": doc}, "position": pos})
        expect(r.get("result") and "6 GB" in r["result"]["contents"]["value"],
               f"didChange with the change {str(change)[:50]}: the text unchanged, no crash")
    for params in (5, "x", [], {"textDocument": 5}, {"textDocument": {"uri": doc}, "contentChanges": 5}):
        s.notify("textDocument/didChange", params)
        s.notify("textDocument/didClose", params)
    still_answers(s, "didChange and didClose with parameters of the wrong type")
    stop(s)


# ---- A3: a std module's name never leaves --std-dir ------------------------------------
@case("std module names that climb out of --std-dir")
def _():
    # --stdlib S reads std/NAME from S/NAME.napkin: `std/../../x` is S/../../x.napkin, an
    # ordinary file; a definition in it must not be copied to D/../../x.napkin.
    root = pathlib.Path(scratch) / "climb"
    stdlib = root / "lib" / "s1"
    d = root / "out" / "d1" / "d2"
    stdlib.mkdir(parents=True)
    (root / "x.napkin").write_text("let evil = 1\n")
    (root / "abs.napkin").write_text("let far = 2\n")
    s = Server(napkin, "--std-dir", str(d), "--stdlib", str(stdlib))
    s.initialize()
    for name, word in (("std/../../x", "evil"), ("std/" + str(root / "abs"), "far"), ("std/./../s1/../../x", "evil")):
        src = f'import "{name}"\nlet y = {word}\n'
        uri = f"file://{root}/doc{len(name)}.napkin"
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "napkin", "version": 1,
                                                           "text": src}})
        s.diagnostics(uri)
        r = s.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 9}})
        loc = r.get("result")
        expect(loc is None or loc["uri"].startswith(f"file://{d}/"),
               f"definition through import \"{name}\": no location outside --std-dir ({loc and loc['uri']})")
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    expect(written == ["abs.napkin", "x.napkin"], f"nothing written outside --std-dir (files: {written})")
    stop(s)


shutil.rmtree(scratch, True)
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
