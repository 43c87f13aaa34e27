"""The notebook's file: its cells in the order they were first run, and the
translation of napkin's places back into the cells' own line numbers
(cell[3]:2:5): a diagnostic's from its data (line, column and end, as
`napkin run --format json` gives them, and each place its words name as a
mention), never from its rendered text."""


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
        if line.startswith("%"):
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
    code, message, labels with line and column, notes, help, and the places
    its words name), as the terminal lays them out, with cell line numbers."""

    def __init__(self, file_text, names):
        self.file = file_text
        self.names = names
        self.lines = file_text.text.split("\n")

    def place_text(self, line, col=None):
        where = self.file.locate(line)
        if where is None:
            return "notebook:%d" % line
        cell, local = where
        return "%s:%d" % (cell.name, local) + (":%d" % col if col else "")

    def words(self, e, part, index=0):
        """The error's message, help or note number INDEX (`part`), each place
        its words name (the error's `mentions`, as data) in cell terms."""
        text = e["notes"][index] if part == "note" else e.get(part, "")
        mentions = [m for m in e.get("mentions", []) if isinstance(m, dict) and isinstance(m.get("text"), str)
                    and m["text"] and m.get("in") == part and (part != "note" or m.get("index") == index)]
        out, i = [], 0
        while True:
            # The next words a mention names, the longest where two start together:
            # `f.napkin:4` is the start of `f.napkin:4:7`.
            found = [(at, -len(m["text"]), k) for k, m in enumerate(mentions) if (at := text.find(m["text"], i)) >= 0]
            if not found:
                break
            at, _, k = min(found)
            out += [text[i:at], self.where(mentions[k])]
            i = at + len(mentions[k]["text"])
        return "".join(out) + text[i:]

    def ours(self, p):
        """True if the place (an error's or a label's, as data) is in the notebook's file."""
        return bool(p.get("file")) and p["file"] in self.names

    def where(self, p):
        """A place of the data as the cells name it: cell[N]:L:C, or the other file's FILE:L:C
        (without the column where it is 0: a mention that names only the line)."""
        if not p.get("file"):
            return ""
        if self.ours(p):
            return self.place_text(p["line"], p.get("column"))
        return "%s:%d" % (p["file"], p["line"]) + (":%d" % p["column"] if p.get("column") else "")

    def shown(self, document, skip=("E0500",)):
        """The errors of a JSON document a cell shows; failed checks (E0500) are
        left out: a cell shows its own checks, with their derivations, beside its values."""
        errors = document.get("errors", []) if isinstance(document, dict) else []
        return [e for e in errors if isinstance(e, dict) and e.get("code") not in skip]

    def errors(self, document, skip=("E0500",)):
        """Every error of a JSON document (run's, or a failed explain's) laid out in cell terms."""
        out = [line for e in self.shown(document, skip) for line in self.error(e)]
        return "\n".join(out) + ("\n" if out else "")

    def unchanged(self, text):
        """What napkin wrote where it gives no document to lay out (a command
        without --format json): its own words, not rewritten, and the notebook's
        file, where they name it, explained once."""
        text = text.rstrip("\n")
        named = next((n for n in self.names if n in text), None)
        if named:
            text += ("\n(%s is the notebook's file: the cells run so far, in order, each after a "
                     "`# cell[N]` line; %%file shows it)" % named)
        return text

    def error(self, e):
        """One error as the terminal lays it out: its place and headline, each
        label under its source line (numbered in its cell; another cell's line
        after `--> cell[K]:L:C`), notes, help."""
        head = self.where(e)
        lines = ["%s%s: %s" % (head + ": " if head else "", "error[%s]" % e["code"], self.words(e, "message"))]
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
                    lines.append("%s = %s" % (" " * width, l["message"]))
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
            lines.append(("%s | %s%s %s" % (" " * width, " " * start, mark, l.get("message", ""))).rstrip())
        for i in range(len(e.get("notes", []))):
            lines.append("%s = note: %s" % (" " * width, self.words(e, "note", i)))
        if e.get("help"):
            lines.append("%s = help: %s" % (" " * width, self.words(e, "help")))
        return lines
