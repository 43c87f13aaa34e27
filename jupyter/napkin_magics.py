"""The kernel's magics: a line that starts with % runs a napkin command on
the notebook's file (every cell run so far, this one included). A command
that fails shows its errors from data where it writes JSON (`explain
--format json`, `handout --format json`), in cell terms; `plot` writes no
document of its errors, and shows napkin's message as napkin wrote it, as
does any command whose options napkin refused before it ran."""
import json
import shlex

from napkin_render import code
from napkin_runner import CellError

MAGICS = {
    "explain": ("%explain NAME [--depth N] [--sources]", "the derivation tree of a value (napkin explain)"),
    "flat": ("%flat NAME", "the whole derivation on one line (napkin explain --flat)"),
    "plot": ("%plot roofline [--gpu NAME] [--peak FIELD] | %plot sweep [--sweep N]",
             "a roofline or a sweep, drawn inline (napkin plot)"),
    "handout": ("%handout [OPTIONS]", "the notebook's file as a handout (napkin handout)"),
    "file": ("%file", "the notebook's file: every cell run so far, in order"),
    "help": ("%help", "this list"),
}


def help_text():
    return "\n".join("%-70s %s" % (usage, what) for usage, what in MAGICS.values()) + "\n"


def help_markdown():
    return "\n".join("- %s: %s" % (code(usage), what) for usage, what in MAGICS.values()) + "\n"


def parse(line):
    """(name, args) of a magic line, or the cell's error: checked before the cell runs."""
    try:
        words = shlex.split(line)
    except ValueError as e:
        raise CellError("MagicError", "%%%s: %s" % (line, e), ["%%%s: %s" % (line, e)]) from None
    if not words:
        raise usage_error("an empty magic")
    if words[0] not in MAGICS:
        raise usage_error("no magic %%%s" % words[0])
    return words[0], words[1:]


def run_magic(kernel, line, silent):
    name, args = parse(line)
    file = kernel.file()
    if name == "help":
        if not silent:
            kernel.show(help_markdown(), help_text())
        return
    if name == "file":
        if not silent:
            kernel.show("```napkin\n%s```\n" % file.text, file.text)
        return
    if not file.cells and name != "handout":
        raise usage_error("%%%s needs a cell of napkin source to have run first" % name)
    if name in ("explain", "flat"):
        if not args or args[0].startswith("-"):
            raise usage_error("%%%s needs a NAME: %s" % (name, MAGICS[name][0]))
        extra = ["--flat"] if name == "flat" else []
        as_json = ["explain", "{file}"] + args + ["--format", "json"]
        text = command(kernel, ["explain", "{file}"] + args + extra, file, as_json)
        markdown = command(kernel, ["explain", "{file}"] + args + extra + ["--format", "markdown"], file, as_json)
        if not silent:
            kernel.show(markdown, text)
    elif name == "plot":
        if not args or args[0] not in ("roofline", "sweep"):
            raise usage_error("%%plot draws `roofline` or `sweep`: %s" % MAGICS["plot"][0])
        svg, err = kernel.plot(args[:1] + ["{file}"] + args[1:], file)
        if svg is None:
            raise CellError("NapkinError", (err.splitlines() or ["napkin plot failed"])[0], err.splitlines())
        if not silent:
            kernel.show_svg(svg, args[0])
    elif name == "handout":
        text = command(kernel, ["handout", "{file}"] + args, file, ["handout", "{file}", "--format", "json"])
        if not silent:
            kernel.show(text, text)


def command(kernel, args, file, as_json=None):
    """napkin ARGS: its standard output, or the cell's error. Where the command
    writes JSON, `as_json` (the same command with --format json) gives the
    errors as data, laid out in cell terms; where it has none (options napkin
    refused before running) the cell shows napkin's message as napkin wrote
    it."""
    done = kernel.runner.run(args, file.text)
    if done.rc == 0:
        return done.out
    tr = kernel.translator(file)
    if as_json is not None:
        failed = kernel.runner.run(as_json, file.text)
        try:
            errors = tr.shown(json.loads(failed.out), skip=())
        except ValueError:
            errors = []
        if errors:
            laid = [tr.error(e) for e in errors]
            raise CellError("NapkinError", laid[0][0], [l for e in laid for l in e])
    said = tr.unchanged(done.err) or "napkin %s exited %d" % (args[0], done.rc)
    raise CellError("NapkinError", said.splitlines()[0], said.splitlines())


def usage_error(what):
    message = "%s; the magics are:\n%s" % (what, help_text())
    return CellError("MagicError", what, message.rstrip("\n").splitlines())
