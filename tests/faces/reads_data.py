"""faces.reads_data: no file of the playground (web/src/*.js) or the
notebook kernel (jupyter/*.py) reads places or diagnostics out of napkin's
text. Values, underlines and places come from the JSON documents napkin
writes (docs/architecture.md, The faces); a pattern that matches a place
(`:\\d+`, `:(\\d+)`, `:[0-9]`) or looks for an error's tag in text ('error['
as a whole string, a regular expression's error\\[) is a face parsing what
napkin printed.

Usage: reads_data.py ROOT [FILE...]  (FILE...: these instead of the faces)
Prints FILE:LINE: what for each finding; exit 1 when there is one.
"""
import glob
import os
import re
import sys

FINDINGS = [
    # A colon, maybe a group's opening, then a digit class: a place's line or column.
    (re.compile(r":\(?(?:\?:)?(?:\\d|\[0-9\])"), "a pattern that matches a place's :LINE or :COL"),
    # 'error[' as a whole string: looking for a diagnostic's tag in text, not writing one from data.
    (re.compile(r"""(["'`])error\[\1"""), "a search for the string 'error['"),
    (re.compile(r"error\\\\?\["), "a regular expression for 'error['"),
]


def faces(root):
    return sorted(glob.glob(os.path.join(root, "web", "src", "*.js")) +
                  glob.glob(os.path.join(root, "jupyter", "*.py")))


def main():
    root = sys.argv[1]
    files = sys.argv[2:] or faces(root)
    found = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, start=1):
                for pattern, what in FINDINGS:
                    if pattern.search(line):
                        print("%s:%d: %s: %s" % (os.path.relpath(path, root), n, what, line.strip()))
                        found += 1
    if not files:
        print("no face files under %s" % root)
        return 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
