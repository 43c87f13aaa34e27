"""Runs the napkin binary on the notebook's file; every failure to run it is a
RunFailure with a message for the cell, never an exception out of the kernel."""
import os
import shutil
import signal
import subprocess
import tempfile

from napkin_files import FileRefused, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
# Installed as PREFIX/share/napkin/jupyter/: the binary is PREFIX/bin/napkin.
INSTALLED_BINARY = os.path.normpath(os.path.join(HERE, "..", "..", "..", "bin", "napkin"))
DEFAULT_TIMEOUT_S = 300


class RunFailure(Exception):
    """napkin could not be run, or did not finish as napkin does."""

    def __init__(self, ename, message):
        super().__init__(message)
        self.ename = ename
        self.message = message


class CellError(Exception):
    """The cell fails: ename, evalue and the lines of its traceback."""

    def __init__(self, ename, evalue, lines):
        super().__init__(evalue)
        self.ename, self.evalue, self.lines = ename, evalue, lines


class Completed:
    def __init__(self, rc, out, err):
        self.rc = rc
        self.out = out
        self.err = err


def find_binary():
    """NAPKIN_BINARY, else the napkin installed beside this module, else PATH."""
    env = os.environ.get("NAPKIN_BINARY")
    if env:
        return env, [env]
    tried = [INSTALLED_BINARY, "napkin on PATH"]
    if os.access(INSTALLED_BINARY, os.X_OK):
        return INSTALLED_BINARY, tried
    return shutil.which("napkin"), tried


def napkin_version():
    """`napkin --version`'s number, or "" where napkin does not answer."""
    binary, _ = find_binary()
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, timeout=2, stdin=subprocess.DEVNULL)
        return out.stdout.decode("utf-8", "replace").split()[-1] if out.returncode == 0 and out.stdout.split() else ""
    except (OSError, TypeError, subprocess.SubprocessError):
        return ""


def timeout_s():
    try:
        value = float(os.environ.get("NAPKIN_KERNEL_TIMEOUT", DEFAULT_TIMEOUT_S))
        return value if value > 0 else DEFAULT_TIMEOUT_S
    except ValueError:
        return DEFAULT_TIMEOUT_S


class Runner:
    """Writes the notebook's source to one file and runs `napkin ARGS` on it.

    The file lies in the kernel's working directory (the notebook's folder),
    so that `import "other.napkin"` finds files beside the notebook; it exists
    only while napkin runs. Where that folder is not writable it goes to a
    temporary folder instead."""

    def __init__(self):
        self.cwd = os.getcwd()
        self.tmpdir = tempfile.mkdtemp(prefix="napkin-kernel-")
        self.file_name = ".napkin-notebook-%d.napkin" % os.getpid()

    def names(self):
        """Every spelling of the file's path that napkin may print."""
        return [os.path.join(self.cwd, self.file_name), os.path.join(self.tmpdir, self.file_name), self.file_name]

    def temp_path(self, name):
        return os.path.join(self.tmpdir, name)

    def close(self):
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def _write(self, source):
        """The file's path, and its name as napkin is given it (relative in the working directory).
        Written as napkin writes files (napkin_files): a link planted at the name is refused, never
        followed; a folder that cannot be written sends the file to the kernel's own folder."""
        tmp = os.path.join(self.tmpdir, self.file_name)
        failed = []
        for path, name in ((os.path.join(self.cwd, self.file_name), self.file_name), (tmp, tmp)):
            try:
                write_file(path, source)
                return path, name
            except FileRefused as e:
                if e.unsafe:
                    raise RunFailure("NapkinFileError", "the notebook's file was not written: " + e.message) from None
                failed.append(e.message)
        raise RunFailure("NapkinFileError", "could not write the notebook's file: " + "; ".join(failed))

    def run(self, args, source):
        """`napkin ARGS` with "{file}" in ARGS standing for the notebook's file."""
        binary, tried = find_binary()
        if not binary:
            raise RunFailure("NapkinNotFound",
                             "napkin was not found (looked for %s): install napkin, or set NAPKIN_BINARY "
                             "to the napkin executable" % " and ".join(tried))
        path, name = self._write(source)
        argv = [binary] + [name if a == "{file}" else a for a in args]
        shown = "napkin " + " ".join("FILE" if a == "{file}" else a for a in args)
        try:
            proc = subprocess.run(argv, cwd=self.cwd, capture_output=True, timeout=timeout_s(),
                                  stdin=subprocess.DEVNULL)
        except FileNotFoundError:
            raise RunFailure("NapkinNotFound", "napkin was not found at %s: install napkin, or set NAPKIN_BINARY "
                             "to the napkin executable" % binary) from None
        except PermissionError:
            raise RunFailure("NapkinNotFound", "%s is not executable: set NAPKIN_BINARY to the napkin executable"
                             % binary) from None
        except subprocess.TimeoutExpired:
            raise RunFailure("NapkinTimeout", "`%s` did not finish within %g s (NAPKIN_KERNEL_TIMEOUT sets the limit)"
                             % (shown, timeout_s())) from None
        except OSError as e:
            raise RunFailure("NapkinNotFound", "napkin could not be started (%s): %s" % (binary, e)) from None
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        # An interrupt reaches napkin too (Jupyter signals the kernel's process group).
        if proc.returncode == -signal.SIGINT:
            raise KeyboardInterrupt
        # napkin exits 0, 1 (a check failed) or 2 (an error); anything else is a crash.
        if proc.returncode < 0:
            try:
                how = "was killed by %s" % signal.Signals(-proc.returncode).name
            except ValueError:
                how = "was killed by signal %d" % -proc.returncode
            raise RunFailure("NapkinCrashed", "napkin %s while running `%s`%s" % (how, shown, tail(err)))
        if proc.returncode not in (0, 1, 2):
            raise RunFailure("NapkinCrashed", "napkin exited with status %d while running `%s`%s"
                             % (proc.returncode, shown, tail(err)))
        return Completed(proc.returncode, out, err)


def tail(err):
    err = err.strip()
    if not err:
        return ""
    lines = err.splitlines()[-10:]
    return "; it said:\n" + "\n".join(lines)
