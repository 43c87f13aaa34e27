"""A cell's results as Markdown (notebooks) and plain text (consoles), from
`napkin run --format json`: napkin computes every figure and writes every
formula; this only lays them out."""


def shown(v):
    if "display" in v:
        return v["display"]
    if "value" in v:
        x = v["value"]
        return ("true" if x else "false") if isinstance(x, bool) else str(x)
    return "?"


def steps(v):
    """formula, formula with numbers, result: the distinct ones, in that order."""
    out = []
    for part in (v.get("formula"), v.get("substituted"), shown(v)):
        if part is not None and (not out or part != out[-1]):
            out.append(part)
    return out


def code(s):
    """s as Markdown inline code, whatever backticks it holds."""
    fence = "`"
    while fence in s:
        fence += "`"
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return fence + pad + s + pad + fence


def error_text(e):
    """A value's error as `run --format json` carries it: an object with its code and message."""
    if isinstance(e, dict):
        return "error[%s]: %s" % (e.get("code", "E0000"), e.get("message", ""))
    return str(e)


class CellResult:
    """What a cell added to the file: values, checks, sweeps, solves."""

    def __init__(self, values, checks, sweeps, solves, failures):
        # failures: napkin check's account of each failing check, for the cell's error
        self.values = values      # [(name, json value)]
        self.checks = checks      # [(json check, place)]
        self.sweeps = sweeps      # [json sweep]
        self.solves = solves      # [json solve]
        self.failures = failures  # {place: napkin's failure text, in cell terms}

    def empty(self):
        return not (self.values or self.checks or self.sweeps or self.solves)

    def markdown(self):
        parts = []
        if self.values:
            lines = []
            for name, v in self.values:
                if "error" in v:
                    lines.append("- %s: **%s**" % (code(name), error_text(v["error"])))
                    continue
                s = steps(v)
                lines.append("- " + " = ".join([code(name)] + [code(p) for p in s[:-1]] + ["**%s**" % s[-1]]))
            parts.append("\n".join(lines))
        for sw in self.sweeps:
            parts.append(sweep_markdown(sw))
        for so in self.solves:
            parts.append("- %s → %s = **%s**" % (code(solve_statement(so)), code(so["record"] + "." + so["input"]),
                                                 solve_answer(so)))
        if self.checks:
            lines = []
            # A failing check's derivation is the cell's error, below the display.
            for ch, place in self.checks:
                mark = "✓" if ch["passed"] else "✗"
                lines.append("- %s %s" % (mark, code(ch["source"])))
            parts.append("\n".join(lines))
        return "\n\n".join(parts) + "\n"

    def text(self):
        lines = []
        for name, v in self.values:
            if "error" in v:
                lines.append("%s: %s" % (name, error_text(v["error"])))
                continue
            s = steps(v)
            lines.append("%s = %s" % (name, s[0]))
            lines.extend("%s = %s" % (" " * len(name), p) for p in s[1:])
        for sw in self.sweeps:
            lines.append(sweep_text(sw))
        for so in self.solves:
            lines.append("%s\n%s.%s = %s" % (solve_statement(so), so["record"], so["input"], solve_answer(so)))
        for ch, place in self.checks:
            lines.append(("✓ " if ch["passed"] else "✗ ") + ch["source"])
        return "\n".join(lines) + "\n"


def solve_answer(so):
    """What a solve found, or, when it found nothing, its error (an object)."""
    return error_text(so["error"]) if "error" in so else shown(so["solution"])


def solve_statement(so):
    return "solve %s for %s %s where %s" % (so["record"], so["input"], so["goal"], so["condition"])


def sweep_cells(sw):
    header = sw["inputs"] + sw["columns"]
    rows = [[shown(row.get(k, {})) if isinstance(row.get(k), dict) else "" for k in header] for row in sw["rows"]]
    return header, rows


def numeric_columns(sw, header):
    return [all("si" in row.get(k, {}) for row in sw["rows"]) for k in header]


def sweep_markdown(sw):
    header, rows = sweep_cells(sw)
    lines = ["**sweep %s**" % sw["sweep"], "",
             "| " + " | ".join(code(h) for h in header) + " |",
             "| " + " | ".join("---:" if n else ":---" for n in numeric_columns(sw, header)) + " |"]
    lines += ["| " + " | ".join(r.replace("|", "\\|") for r in row) + " |" for row in rows]
    return "\n".join(lines)


def sweep_text(sw):
    """As `napkin sweep` lays it out: numbers to the right, text and booleans to the left."""
    header, rows = sweep_cells(sw)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    numeric = numeric_columns(sw, header)
    def line(cells):
        return "  " + "  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells, widths, numeric)).rstrip()
    return "\n".join(["sweep " + sw["sweep"], line(header)] + [line(row) for row in rows])
