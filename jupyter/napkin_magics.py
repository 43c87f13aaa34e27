"""The kernel's magics: a line that starts with % runs a napkin command on
the notebook's file (every cell run so far, this one included)."""
import re
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
        text = command(kernel, ["explain", "{file}"] + args + extra, file)
        markdown = command(kernel, ["explain", "{file}"] + args + extra + ["--format", "markdown"], file)
        if not silent:
            kernel.show(markdown, text)
    elif name == "plot":
        if not args or args[0] not in ("roofline", "sweep"):
            raise usage_error("%%plot draws `roofline` or `sweep`: %s" % MAGICS["plot"][0])
        svg, err = kernel.plot(args[:1] + ["{file}"] + args[1:], file)
        if svg is None:
            raise CellError("NapkinError", first_line(err), err.splitlines())
        if not silent:
            kernel.show_svg(svg, args[0])
    elif name == "handout":
        text = command(kernel, ["handout", "{file}"] + args, file)
        if not silent:
            kernel.show(text, text)


def command(kernel, args, file):
    """napkin ARGS: its standard output, or the cell's error with napkin's message."""
    done = kernel.runner.run(args, file.text)
    if done.rc == 0:
        return done.out
    err = kernel.translator(file).places(done.err).strip() or "napkin %s exited %d" % (args[0], done.rc)
    # An older napkin has no `handout` and says only that an argument was not expected, as it does
    # of an option `handout` does not take: its list of commands tells the two apart. Otherwise
    # napkin's own message is the problem, and the cell shows it.
    if args[0] == "handout" and not has_command(kernel, "handout"):
        missing = "this napkin has no `handout` command (`napkin --help` lists its commands)"
        raise CellError("NapkinError", missing, [missing + "; it said:"] + err.splitlines())
    raise CellError("NapkinError", first_line(err), err.splitlines())


def has_command(kernel, name):
    """Whether `napkin --help` lists the command NAME (under Subcommands:, indented)."""
    listed = kernel.runner.run(["--help"], "").out
    return re.search(r"^  %s " % re.escape(name), listed, re.M) is not None


def first_line(text):
    return next((l for l in text.splitlines() if "error" in l), text.splitlines()[0] if text else "napkin failed")


def usage_error(what):
    message = "%s; the magics are:\n%s" % (what, help_text())
    return CellError("MagicError", what, message.rstrip("\n").splitlines())
