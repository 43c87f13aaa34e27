#!/usr/bin/env python3
"""Reads a grader document back with a real parser and checks what it says.

    grader_documents.py FORMAT FILE [--code CODE] [--or-errors N CODE LIMIT]
                        [--label TEXT] [--score S --max M]

FORMAT is json (check and grade), gradescope, junit, report (run --format
json) or toml (run --format toml). The file must be one whole document: UTF-8,
parsed by json, tomllib or ElementTree (xmllint, in the shell test, reads the
XML too), with no character a terminal obeys (C0 controls other than tab and
newline, DEL, C1). Then, where asked:

  --code CODE        the document carries an error CODE (an error object's
                     code, an <error type>, or `error[CODE]` in a text)
  --or-errors N CODE LIMIT
                     the error LIMIT (E0704), or exactly N errors of CODE:
                     the whole result or the limit's error, never a part
  --label TEXT       a check is named TEXT: ASCII, Python's escapes read
                     (\\x7f, \\ufffe)
  --score S --max M  the document's score and maximum, as numbers

Exit 0 when all hold; otherwise the reason, and 1.
"""
import json
import re
import sys
import tomllib
import xml.etree.ElementTree as ET

TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def parse(fmt, text):
    if fmt in ("json", "gradescope", "report"):
        return json.loads(text)  # one value: anything after it is "Extra data"
    if fmt == "toml":
        return tomllib.loads(text)
    if fmt == "junit":
        return ET.fromstring(text.encode("utf-8"))
    raise SystemExit(f"unknown format {fmt}")


def walk(node, codes, strings, names):
    """Error codes, strings and check names anywhere in a JSON or TOML tree."""
    if isinstance(node, dict):
        if isinstance(node.get("code"), str):
            codes.append(node["code"])
        if isinstance(node.get("name"), str):
            names.append(node["name"])
        for v in node.values():
            walk(v, codes, strings, names)
    elif isinstance(node, list):
        for v in node:
            walk(v, codes, strings, names)
    elif isinstance(node, str):
        strings.append(node)


def contents(fmt, doc):
    codes, strings, names = [], [], []
    if fmt == "junit":
        for e in doc.iter():
            if e.tag in ("error", "failure") and e.get("type"):
                codes.append(e.get("type"))
            if e.tag == "testcase":
                names.append(e.get("name"))
            strings.extend(v for v in e.attrib.values())
            if e.text:
                strings.append(e.text)
    else:
        walk(doc, codes, strings, names)
    return codes, strings, names


def count(code, codes, strings):
    return codes.count(code) + sum(s.count(f"error[{code}]") for s in strings)


def score_of(fmt, doc):
    if fmt == "junit":
        raise SystemExit("--score is read from JSON documents")
    if fmt == "gradescope":  # its specification has no top-level max_score: the tests' sum
        return doc["score"], sum(t.get("max_score", 0) for t in doc["tests"])
    return doc["score"], doc["max_score"]


def main(argv):
    fmt, path = argv[1], argv[2]
    args = argv[3:]
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"{path}: not UTF-8: {e}"
    bad = TERMINAL.search(text)
    if bad:
        return f"{path}: a character a terminal obeys, U+{ord(bad.group()):04X}, at {bad.start()}"
    if not text.strip():
        return f"{path}: empty, where a {fmt} document was due"
    try:
        doc = parse(fmt, text)
    except Exception as e:  # the parser's own words
        return f"{path}: does not parse as {fmt}: {e}"
    codes, strings, names = contents(fmt, doc)
    i = 0
    while i < len(args):
        opt = args[i]
        if opt == "--code":
            code = args[i + 1]
            if count(code, codes, strings) == 0:
                return f"{path}: no error {code} in the document (codes: {sorted(set(codes))[:10]})"
            i += 2
        elif opt == "--or-errors":
            n, code, limit = int(args[i + 1]), args[i + 2], args[i + 3]
            have = count(code, codes, strings)
            if count(limit, codes, strings) == 0 and have != n:
                return f"{path}: {have} errors {code} where {n} were due, and no {limit}: a shorter result"
            i += 4
        elif opt == "--label":
            label = args[i + 1].encode("ascii").decode("unicode_escape")
            if label not in names:
                return f"{path}: no check named {label!r} among {names[:5]!r}"
            i += 2
        elif opt == "--score":
            want = (float(args[i + 1]), float(args[i + 3]))
            got = score_of(fmt, doc)
            if not all(isinstance(g, (int, float)) for g in got) or tuple(map(float, got)) != want:
                return f"{path}: score {got!r}, where {want!r} was due"
            i += 4
        else:
            return f"unknown option {opt}"
    return None


if __name__ == "__main__":
    why = main(sys.argv)
    if why:
        print(why)
        sys.exit(1)
