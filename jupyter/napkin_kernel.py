"""A Jupyter kernel for napkin.

Each cell is napkin source; the notebook's file is its cells in the order
they were first run, and a cell that is run again replaces its own text in
place. A cell's results are those of the file up to and including it, shown
as Markdown with a plain-text fallback; a failing check or an error makes the
cell an error. Every figure comes from the napkin binary (`napkin run
--format json`, `explain`, `plot`); this module lays them out.

    python3 napkin_kernel.py -f CONNECTION_FILE

docs/notebooks.md describes the kernel, its magics and how to install it."""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ipykernel.kernelbase import Kernel  # noqa: E402

from napkin_cells import Cell, FileText, Translator, split_cell  # noqa: E402
from napkin_render import CellResult  # noqa: E402
from napkin_runner import CellError, RunFailure, Runner, find_binary, napkin_version  # noqa: E402
from napkin_magics import MAGICS, run_magic, parse as parse_magic  # noqa: E402
import napkin_messages as messages  # noqa: E402


class Evaluation:
    def __init__(self, file, completed, document, translator):
        self.file, self.completed, self.document, self.translator = file, completed, document, translator

    @property
    def failed(self):
        return self.completed is not None and self.completed.rc == 2

    def values(self):
        return (self.document or {}).get("values", {})

    def diagnostics(self):
        """The run's errors, from its JSON document, in cell terms."""
        return self.translator.errors(self.document)


class NapkinKernel(Kernel):
    implementation = "napkin"
    implementation_version = "1"
    language_info = {
        "name": "napkin",
        "mimetype": "text/x-napkin",
        "file_extension": ".napkin",
        "pygments_lexer": "text",
    }

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cells = []
        self.runner = Runner()
        self.cache = {}
        self.names = []
        self.executions = 0
        self.bad_metadata = None  # the metadata of the request in hand, where it is not an object
        self.language_info = dict(self.language_info, version=napkin_version())

    @property
    def banner(self):
        binary, _ = find_binary()
        return "napkin kernel (napkin: %s); %%help lists the magics" % (binary or "not found")

    # ---- running napkin ---------------------------------------------------------------

    def file(self, cells=None):
        return FileText(self.cells if cells is None else cells)

    def translator(self, file):
        return Translator(file, self.runner.names())

    def napkin(self, args, file, reuse=False):
        """napkin ARGS on the file; with reuse, an earlier run of the same text
        may answer (what the cells before this one defined, to tell its own)."""
        key = (tuple(args), file.text)
        if key not in self.cache or not reuse:
            if len(self.cache) > 16:
                self.cache.clear()
            self.cache[key] = self.runner.run(args, file.text)
        return self.cache[key]

    def evaluate(self, cells, reuse=False):
        file = self.file(cells)
        tr = self.translator(file)
        if not cells:
            return Evaluation(file, None, {}, tr)
        done = self.napkin(["run", "{file}", "--format", "json"], file, reuse)
        document = None
        if done.out.strip():
            try:
                document = json.loads(done.out)
            except ValueError:
                raise RunFailure("NapkinCrashed", "napkin run --format json printed something that is not JSON: "
                                 + done.out[:200]) from None
        elif done.rc != 2:
            raise RunFailure("NapkinCrashed", "napkin run --format json printed nothing and exited %d" % done.rc)
        return Evaluation(file, done, document, tr)

    # ---- the protocol -----------------------------------------------------------------

    def execute_request(self, stream, ident, parent):
        # ipykernel reads metadata.cellId itself and fails, sending no reply at all, where the
        # metadata is not an object: such a request reaches do_execute without it, to be refused.
        metadata = parent.get("metadata")
        self.bad_metadata = metadata if metadata is not None and not isinstance(metadata, dict) else None
        if self.bad_metadata is not None:
            parent["metadata"] = {}
        return super().execute_request(stream, ident, parent)

    def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False, *,
                   cell_id=None):
        try:
            # Every field is checked before anything changes: a bad one refuses the whole request.
            code, silent, key = messages.code_text(code), messages.is_silent(silent), messages.cell_key(cell_id)
            metadata = self.bad_metadata if self.bad_metadata is not None else self.get_parent().get("metadata")
            self.forget_cells(messages.deleted_cells(metadata))
            self.execute(code, silent, key)
        except CellError as e:
            return self.error_reply(e.ename, e.evalue, e.lines, bool(silent))
        except RunFailure as f:
            return self.error_reply(f.ename, f.message, f.message.splitlines(), bool(silent))
        except KeyboardInterrupt:
            return {"status": "abort", "execution_count": self.execution_count}
        except Exception as e:  # a fault of the kernel's own must not end the session
            lines = traceback.format_exc().splitlines()
            return self.error_reply("KernelError", "the napkin kernel failed: %s" % e, lines, bool(silent))
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}

    def error_reply(self, ename, evalue, lines, silent):
        content = {"ename": ename, "evalue": evalue, "traceback": lines}
        if not silent:
            self.send_response(self.iopub_socket, "error", content)
        return dict(content, status="error", execution_count=self.execution_count)

    def forget_cells(self, deleted):
        """JupyterLab names the cells deleted since the last request; their definitions go."""
        if deleted:
            self.cells = [c for c in self.cells if c.key not in deleted]

    def show(self, markdown, text):
        self.send_response(self.iopub_socket, "display_data",
                           {"data": {"text/markdown": markdown, "text/plain": text}, "metadata": {}})

    def show_svg(self, svg, what):
        self.send_response(self.iopub_socket, "display_data",
                           {"data": {"image/svg+xml": svg, "text/plain": "<%s: SVG>" % what}, "metadata": {}})

    def note(self, text):
        self.send_response(self.iopub_socket, "stream", {"name": "stderr", "text": text})

    # ---- a cell -------------------------------------------------------------------------

    def execute(self, code_text, silent, cell_id):
        source, magics = split_cell(code_text)
        for m in magics:
            parse_magic(m)
        # Without a cell id (consoles, nbclient) every execution is a cell of its own.
        self.executions += 1
        key = cell_id if cell_id is not None else "#%d" % self.executions
        failure = None
        if source:
            failure = self.run_source(Cell(key, self.execution_count, source), silent)
        elif not silent:
            self.remove_cell(key)
        if failure is None:
            for m in magics:
                run_magic(self, m, silent)
        if failure:
            raise failure

    def run_source(self, cell, silent):
        """Puts the cell in the file if the file still evaluates; shows what it added.
        Returns the CellError of a failing check, after the display."""
        at = next((i for i, c in enumerate(self.cells) if c.key == cell.key), len(self.cells))
        before, after = self.cells[:at], self.cells[at + 1:]
        now = self.evaluate(before + [cell])
        if now.failed:
            raise self.napkin_error(now, "")
        if after:
            # A later cell may use a name this one no longer defines: the file must still evaluate.
            whole = self.evaluate(before + [cell] + after)
            if whole.failed:
                raise self.napkin_error(whole, "with this text a later cell fails, so the notebook keeps the text "
                                        "this cell had as %s:\n" % self.cells[at].name)
        # A silent request (a frontend's own) evaluates and changes nothing.
        if silent:
            return None
        self.cells = before + [cell] + after
        self.names = list(now.values().keys())
        said = now.diagnostics().strip()
        if said:  # what napkin says beside a result (a measurement's note)
            self.note(said + "\n")
        result = self.cell_result(cell, before, now)
        if not result.empty():
            self.show(result.markdown(), result.text())
        self.plot_new_sweeps(now, result)
        failed = [(ch, place) for ch, place in result.checks if not ch["passed"]]
        if not failed:
            return None
        lines = []
        for ch, place in failed:
            lines.extend(result.failures.get(place, "✗ %s: %s" % (place, ch["source"])).rstrip("\n").splitlines())
        evalue = "%d check%s failed: %s" % (len(failed), "" if len(failed) == 1 else "s",
                                            ", ".join("%s: %s" % (p, ch["source"]) for ch, p in failed))
        return CellError("CheckFailed", evalue, lines)

    def remove_cell(self, key):
        """A cell run again without napkin source (emptied, or magics only) takes its definitions out."""
        at = next((i for i, c in enumerate(self.cells) if c.key == key), None)
        if at is None:
            return
        rest = self.cells[:at] + self.cells[at + 1:]
        if self.cells[at + 1:]:
            whole = self.evaluate(rest)
            if whole.failed:
                raise self.napkin_error(whole, "without this cell's text a later cell fails, so the notebook keeps "
                                        "the text it had as %s:\n" % self.cells[at].name)
        self.cells = rest

    def napkin_error(self, evaluation, lead):
        tr = evaluation.translator
        errors = tr.shown(evaluation.document)
        if errors:
            laid = [tr.error(e) for e in errors]
            return CellError("NapkinError", laid[0][0], lead.splitlines() + [l for e in laid for l in e])
        # Without a document (napkin wrote none), what it printed, as it printed it.
        said = tr.unchanged(evaluation.completed.err) or "napkin reported an error"
        return CellError("NapkinError", said.splitlines()[0], (lead + said).splitlines())

    def cell_result(self, cell, before, now):
        prev = self.evaluate(before, reuse=True)
        old = prev.values()
        values = [(k, v) for k, v in now.values().items() if k not in old]
        lines = now.file.cell_lines(cell)
        checks = [(ch, now.translator.place_text(ch["line"])) for ch in (now.document or {}).get("checks", [])
                  if ch.get("line") in lines]
        doc, pdoc = now.document or {}, prev.document or {}
        sweeps = doc.get("sweeps", [])[len(pdoc.get("sweeps", [])):]
        solves = doc.get("solves", [])[len(pdoc.get("solves", [])):]
        failures = {}
        if any(not ch["passed"] for ch, _ in checks):
            failures = self.check_failures(now)
        return CellResult(values, checks, sweeps, solves, failures)

    def check_failures(self, now):
        """Each failing check's account (its comparison and derivation), by place:
        from `napkin check --format json`, whose checks carry it as lines."""
        done = self.napkin(["check", "{file}", "--format", "json", "--show-expected", "--show-reference"], now.file)
        try:
            document = json.loads(done.out)
        except ValueError:
            return {}
        failures = {}
        for f in document.get("files", []):
            for ch in f.get("checks", []):
                if ch.get("status") != "failed" or not ch.get("line"):
                    continue
                place = now.translator.place_text(ch["line"])
                lines = ["✗ %s: %s" % (place, ch.get("check") or ch.get("name", ""))] + ch.get("derivation", [])
                failures[place] = "\n".join(lines) + "\n"
        return failures

    def plot_new_sweeps(self, now, result):
        """A cell that defines a sweep shows it as a chart, under its table."""
        first = len((now.document or {}).get("sweeps", [])) - len(result.sweeps)
        for i, sw in enumerate(result.sweeps, start=first + 1):
            svg, err = self.plot(["sweep", "{file}", "--sweep", str(i)], now.file)
            if svg is not None:
                self.show_svg(svg, "sweep " + sw["sweep"])
            else:
                self.note("no chart of sweep %s: %s" % (sw["sweep"], err))

    def plot(self, args, file):
        """(SVG text, None), or (None, napkin's message): `plot` writes no JSON
        document, so its message is shown as napkin wrote it (Translator.unchanged)."""
        out = self.runner.temp_path("plot.svg")
        done = self.runner.run(["plot"] + args + ["-o", out], file.text)
        try:
            if done.rc == 0:
                with open(out, encoding="utf-8") as f:
                    return f.read(), None
            return None, self.translator(file).unchanged(done.err).strip()
        finally:
            if os.path.exists(out):
                os.unlink(out)

    # ---- completion ---------------------------------------------------------------------

    def do_complete(self, code_text, cursor_pos):
        try:
            code_text, cursor_pos = messages.completion_request(code_text, cursor_pos)
        except CellError as e:
            return {"status": "error", "ename": e.ename, "evalue": e.evalue, "traceback": e.lines}
        start = cursor_pos
        while start > 0 and (code_text[start - 1].isalnum() or code_text[start - 1] in "_.%"):
            start -= 1
        word = code_text[start:cursor_pos]
        pool = ["%" + m for m in MAGICS] if word.startswith("%") else self.names
        return {"status": "ok", "matches": sorted(n for n in pool if n.startswith(word)),
                "cursor_start": start, "cursor_end": cursor_pos, "metadata": {}}

    def do_shutdown(self, restart):
        self.runner.close()
        return {"status": "ok", "restart": restart}


if __name__ == "__main__":
    from ipykernel.kernelapp import IPKernelApp

    IPKernelApp.launch_instance(kernel_class=NapkinKernel)
