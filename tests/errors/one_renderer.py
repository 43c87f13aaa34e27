#!/usr/bin/python3
"""one_renderer.py ROOT [FILE...]: fails when a C++ string literal outside
grammar/diagnostic.cpp spells an error's "error[" (a literal code such as
"error[E0702]", or a format such as "error[{}]"). Every message is a
Diagnostic that grammar/diagnostic.cpp renders (render, error_tag, headline),
so that each has its code and place, written one way. Comments may mention
the form; only string literals count. With FILEs, checks those instead of
the sources (the test checks itself on a file that must fail)."""
import pathlib
import re
import sys

RENDERER = "grammar/diagnostic.cpp"
FORBIDDEN = re.compile(r"error\[")
# A literal: a raw string R"d(...)d", a string "..." or a character '...'.
TOKEN = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"(?P<d>[^(\s]*)\((?P<raw>.*?)\)(?P=d)"|"(?P<str>(?:\\.|[^"\\\n])*)"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)


def literals(text):
    for m in TOKEN.finditer(text):
        body = m.group("raw") if m.group("raw") is not None else m.group("str")
        if body is not None:
            yield text.count("\n", 0, m.start()) + 1, body


def offenders(path, shown):
    for line, body in literals(path.read_text(encoding="utf-8", errors="replace")):
        if FORBIDDEN.search(body):
            yield f"{shown}:{line}: \"{body}\""


def main():
    root = pathlib.Path(sys.argv[1])
    if len(sys.argv) > 2:
        files = [(pathlib.Path(f), f) for f in sys.argv[2:]]
    else:
        files = [(p, p.relative_to(root).as_posix())
                 for folder in ("grammar", "interpreter")
                 for p in sorted((root / folder).rglob("*"))
                 if p.suffix in (".cpp", ".hpp", ".h", ".cu", ".cuh")]
        files = [(p, s) for p, s in files if s != RENDERER]
        if len(files) < 100:
            print(f"one_renderer: only {len(files)} sources under {root}: the wrong root?")
            return 1
    found = [o for p, s in files for o in offenders(p, s)]
    for o in found:
        print(f"{o}: an error spelled outside {RENDERER}; throw napkin::Error (fail) or render a Diagnostic")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
