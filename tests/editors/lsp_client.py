"""A small Language Server Protocol client for tests: it writes raw bytes
to `napkin lsp` and reads its framed answers, with a deadline on each."""
import json
import os
import select
import subprocess


class Server:
    def __init__(self, napkin, *args):
        self.p = subprocess.Popen([napkin, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        self.next_id = 0

    def write(self, data: bytes):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    @staticmethod
    def frame(msg) -> bytes:
        body = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, msg):
        self.write(self.frame(msg))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.answer(self.next_id)

    def read(self, timeout=10.0):
        """The next message the server writes."""
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = int(head.split(b":")[1])
                if len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            ready, _, _ = select.select([self.p.stdout], [], [], timeout)
            if not ready:
                raise TimeoutError("napkin lsp wrote nothing for %.0f s" % timeout)
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError("napkin lsp closed its output")
            self.buf += chunk

    def answer(self, id):
        while True:
            m = self.read()
            if m.get("id") == id and "method" not in m:
                return m

    def diagnostics(self, uri):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return m["params"]

    def quiet(self, timeout=0.3):
        """True if the server writes nothing more for `timeout` seconds."""
        if self.buf:
            return False
        return not select.select([self.p.stdout], [], [], timeout)[0]

    def initialize(self, options=None):
        params = {"processId": None, "rootUri": None, "capabilities": {}}
        if options is not None:
            params["initializationOptions"] = options
        r = self.request("initialize", params)
        self.notify("initialized", {})
        return r
