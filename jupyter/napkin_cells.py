"""The notebook's file: its cells in the order they were first run, and the
translation of napkin's places back into the cells' own line numbers
(cell[3]:2:5): a diagnostic's from its data (line, column and end, as
`napkin run --format json` gives them), never from its rendered text."""
import re

MAGIC = re.compile(r"^%")


class Cell:
    def __init__(self, key, count, source):
        self.key = key        # the frontend's cell id, or a key of its own per execution
        self.count = count    # the execution count of its latest successful run: cell[count]
        self.source = source  # napkin source, magic lines blanked so line numbers stay the cell's

    @property
    def name(self):
        return "cell[%d]" % self.count


def split_cell(code):
    """(napkin source with the magic lines blanked, [magic lines without the %])."""
    source, magics = [], []
    for line in code.splitlines():
        if MAGIC.match(line):
            magics.append(line[1:].strip())
            source.append("")
        else:
            source.append(line)
    text = "\n".join(source)
    return (text if text.strip() else ""), magics


class FileText:
    """Cells joined into one file, each after a `# cell[N]` line, with the
    line where each starts."""

    def __init__(self, cells):
        self.cells = list(cells)
        parts, self.starts = [], []
        line = 1
        for c in self.cells:
            parts.append("# %s\n" % c.name)
            line += 1
            self.starts.append(line)
            body = c.source if c.source.endswith("\n") else c.source + "\n"
            parts.append(body)
            line += body.count("\n")
        self.text = "".join(parts)
        self.last_line = line

    def locate(self, line):
        """(cell, line within it) of a line of the file; None before the first cell."""
        found = None
        for c, start in zip(self.cells, self.starts):
            if line >= start - 1:
                found = (c, max(1, line - start + 1))
        return found

    def cell_lines(self, cell):
        i = self.cells.index(cell)
        end = self.starts[i + 1] - 1 if i + 1 < len(self.cells) else self.last_line
        return range(self.starts[i], end)


class Translator:
    """napkin's places about the file, in the cells' terms. Diagnostics are
    laid out from the run's data (`napkin run --format json`: each error's
    code, message, labels with line and column, notes and help), as the
    terminal lays them out, with cell line numbers."""

    def __init__(self, file_text, names):
        self.file = file_text
        alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
        self.place = re.compile(r"(?:%s):(\d+)(?::(\d+))?" % alternatives)
        self.names = names
        self.lines = file_text.text.split("\n")

    def place_text(self, line, col=None):
        where = self.file.locate(line)
        if where is None:
            return "notebook:%d" % line
        cell, local = where
        return "%s:%d" % (cell.name, local) + (":%d" % col if col else "")

    def places(self, text):
        """A command's text report (not a diagnostic) with its places FILE:LINE[:COL] in cell terms."""
        def sub(m):
            return self.place_text(int(m.group(1)), int(m.group(2)) if m.group(2) else None)
        text = self.place.sub(sub, text)
        for n in self.names:
            text = text.replace(n, "the notebook")
        return text

    def ours(self, p):
        """True if the place (an error's or a label's, as data) is in the notebook's file."""
        return bool(p.get("file")) and p["file"] in self.names

    def where(self, p):
        """A place of the data as the cells name it: cell[N]:L:C, or the other file's FILE:L:C."""
        if not p.get("file"):
            return ""
        if self.ours(p):
            return self.place_text(p["line"], p["column"])
        return "%s:%d:%d" % (p["file"], p["line"], p["column"])

    def errors(self, document, skip=("E0500",)):
        """Every error of a run's JSON document laid out in cell terms; failed
        checks (E0500) are left out: a cell shows its own checks, with their
        derivations, beside its values."""
        out = []
        for e in (document or {}).get("errors", []):
            if e.get("code") not in skip:
                out.extend(self.error(e))
        return "\n".join(out) + ("\n" if out else "")

    def error(self, e):
        """One error as the terminal lays it out: its place and headline, each
        label under its source line (numbered in its cell; another cell's line
        after `--> cell[K]:L:C`), notes, help."""
        head = self.where(e)
        lines = ["%s%s: %s" % (head + ": " if head else "", "error[%s]" % e["code"], self.places(e["message"]))]
        labels = sorted((l for l in e.get("labels", []) if l.get("file")),
                        key=lambda l: (l["file"], l["line"], l["column"]))
        shown = [self.file.locate(l["line"])[1] if self.ours(l) and self.file.locate(l["line"]) else l["line"]
                 for l in labels]
        width = max([len(str(n)) for n in shown] or [1])
        current = self.file.locate(e["line"])[0] if self.ours(e) and self.file.locate(e["line"]) else None
        last_file, last_line = (e.get("file") or None), None
        for l, number in zip(labels, shown):
            cell = self.file.locate(l["line"])[0] if self.ours(l) and self.file.locate(l["line"]) else None
            if l["file"] != last_file or (self.ours(l) and cell is not current):
                lines.append("%s--> %s" % (" " * width, self.where(l)))
                last_file, current, last_line = l["file"], cell, None
            if not self.ours(l):  # another file's text is not the notebook's to show
                if l.get("message"):
                    lines.append("%s = %s" % (" " * width, self.places(l["message"])))
                continue
            text = self.lines[l["line"] - 1] if 0 < l["line"] <= len(self.lines) else ""
            if l["line"] != last_line:
                lines.append("%s |" % (" " * width))
                lines.append("%*d | %s" % (width, number, text))
                last_line = l["line"]
            start = len(text.encode("utf-8")[:l["column"] - 1].decode("utf-8", "ignore"))
            end = len(text.encode("utf-8")[:l["end_column"] - 1].decode("utf-8", "ignore")) \
                if l.get("end_line") == l["line"] else len(text)
            mark = ("^" if l.get("primary") else "-") * max(1, end - start)
            lines.append(("%s | %s%s %s" % (" " * width, " " * start, mark, self.places(l.get("message", "")))).rstrip())
        for n in e.get("notes", []):
            lines.append("%s = note: %s" % (" " * width, self.places(n)))
        if e.get("help"):
            lines.append("%s = help: %s" % (" " * width, self.places(e["help"])))
        return lines
