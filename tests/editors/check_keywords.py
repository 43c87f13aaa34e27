#!/usr/bin/python3
"""The TextMate grammar's keyword patterns hold exactly the grammar's keywords.

Every `struct kw_NAME : keyword<...>` of grammar/rules.hpp is a keyword; the
grammar's `keywords` patterns must name each once and nothing else, and the
words a unit may not be (`number`'s lookahead) must be the keywords an
expression may hold (`expr_keyword`) and `to`, as rules.hpp's unit_symbol says.
Usage: check_keywords.py RULES_HPP GRAMMAR_JSON
"""
import json
import re
import sys

rules = open(sys.argv[1], encoding="utf-8").read()
grammar = json.load(open(sys.argv[2], encoding="utf-8"))

spelled = {}
for name, chars in re.findall(r"struct (kw_\w+)\s*:\s*keyword<([^>]*)>", rules):
    spelled[name] = "".join(re.findall(r"'(.)'", chars))
keywords = set(spelled.values())
expr = re.search(r"struct expr_keyword\s*:\s*sor<([^>]*)>", rules)
expr_words = {spelled[k] for k in re.findall(r"kw_\w+", expr.group(1))} | {spelled["kw_to"]}


def alternatives(pattern):
    """Every word of every (?:a|b|c) group in a pattern."""
    words = []
    for group in re.findall(r"\(\?!?:?((?:[a-z]+\|)+[a-z]+)\)", pattern):
        words += group.split("|")
    return words


in_grammar = []
for p in grammar["repository"]["keywords"]["patterns"]:
    in_grammar += alternatives(p["match"])
failed = False
if sorted(in_grammar) != sorted(set(in_grammar)):
    print("a keyword is listed twice:", sorted(w for w in set(in_grammar) if in_grammar.count(w) > 1))
    failed = True
if set(in_grammar) != keywords:
    print("grammar/rules.hpp has keywords the TextMate grammar lacks:", sorted(keywords - set(in_grammar)))
    print("the TextMate grammar has keywords grammar/rules.hpp lacks:", sorted(set(in_grammar) - keywords))
    failed = True
not_units = set(alternatives(grammar["repository"]["number"]["match"]))
if not_units != expr_words:
    print("the words a unit may not be differ from rules.hpp's expr_keyword and `to`:",
          sorted(not_units ^ expr_words))
    failed = True
if not keywords or not expr_words:
    print("no keywords read from", sys.argv[1])
    failed = True
print(f"{len(keywords)} keywords, {len(expr_words)} that end a unit: " + ("differ" if failed else "the same"))
sys.exit(1 if failed else 0)
