"""The notebook's file: its cells in the order they were first run, and the
translation of napkin's places (FILE:LINE:COL) back into the cells'
own line numbers (cell[3]:2:5)."""
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
    """Rewrites napkin's output about the file into the cells' terms."""

    def __init__(self, file_text, names):
        self.file = file_text
        alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
        self.place = re.compile(r"(?:%s):(\d+)(?::(\d+))?" % alternatives)
        self.names = names

    def place_text(self, line, col=None):
        where = self.file.locate(line)
        if where is None:
            return "notebook:%d" % line
        cell, local = where
        return "%s:%d" % (cell.name, local) + (":%d" % col if col else "")

    def places(self, text):
        def sub(m):
            return self.place_text(int(m.group(1)), int(m.group(2)) if m.group(2) else None)
        text = self.place.sub(sub, text)
        for n in self.names:
            text = text.replace(n, "the notebook")
        return text

    def is_ours(self, where):
        return self.place.match(where) is not None

    def diagnostics(self, text, skip=("E0500",)):
        """napkin's rendered diagnostics with places, gutter numbers and gutter
        width in cell lines; a label in another cell than the last shown gets
        its own `--> cell[K]:L:C` line. Failed checks (E0500) are left out:
        a cell shows its own checks, with their derivations, beside its values."""
        out, block = [], []
        for line in text.splitlines():
            if block and not re.match(r"^ *(\d* \||--> |= )", line):
                out.extend(self._block(block, skip))
                block = []
            if re.match(r"^(\S+:\d+:\d+: )?error\[", line):
                block = [line]
            elif block:
                block.append(line)
            else:
                out.append(self.places(line))
        if block:
            out.extend(self._block(block, skip))
        return "\n".join(out) + ("\n" if out else "")

    def _block(self, block, skip):
        header = block[0]
        if any("error[%s]" % code in header for code in skip):
            return []
        m = re.match(r"^(\S+):\d+:\d+: ", header)
        ours = bool(m) and self.is_ours(m.group(0)[:-2])
        current = self._header_cell(header) if ours else None
        rows = []  # (kind, number or None, text)
        for i, line in enumerate(block[1:], start=1):
            g = re.match(r"^ *(\d*) \|(.*)$", line)
            a = re.match(r"^ *--> (.*)$", line)
            if a:
                ours = self.is_ours(a.group(1))
                current = self._place_cell(a.group(1)) if ours else None
                rows.append(("arrow", None, self.places(a.group(1))))
            elif g and g.group(1):
                number = int(g.group(1))
                if ours:
                    cell, local = self.file.locate(number) or (None, number)
                    if cell is not None and cell is not current:
                        col = caret_column(g.group(2), block[i + 1] if i + 1 < len(block) else "")
                        arrow = ("arrow", None, "%s:%d" % (cell.name, local) + (":%d" % col if col else ""))
                        at = len(rows) - 1 if rows and rows[-1][0] == "bar" and not rows[-1][2] else len(rows)
                        rows.insert(at, arrow)
                        current = cell
                    number = local
                rows.append(("line", number, g.group(2)))
            elif g:
                rows.append(("bar", None, g.group(2)))
            else:
                rows.append(("note", None, self.places(line.strip())))
        width = max([len(str(n)) for k, n, _ in rows if k == "line"] or [1])
        lines = [self.places(header)]
        for kind, number, text in rows:
            if kind == "arrow":
                lines.append("%s--> %s" % (" " * width, text))
            elif kind == "line":
                lines.append("%*d |%s" % (width, number, text))
            elif kind == "bar":
                lines.append("%s |%s" % (" " * width, text))
            else:
                lines.append("%s %s" % (" " * width, text))
        return lines

    def _place_cell(self, where):
        m = self.place.match(where)
        found = self.file.locate(int(m.group(1))) if m else None
        return found[0] if found else None

    def _header_cell(self, header):
        return self._place_cell(header.split(": ", 1)[0])


def caret_column(source_text, caret_row):
    """The column of the first caret under a shown line, unless the line was cut."""
    if source_text.startswith(" … ") or not caret_row:
        return None
    m = re.match(r"^ *\d* \|( *)[\^-]", caret_row)
    return len(m.group(1)) if m else None
