"""The napkin kernel's file writes (jupyter/napkin_files.py, and the notebook's
file that jupyter/napkin_runner.py writes beside the notebook), without
Jupyter: a link planted at the name is refused and never written through, a
failed write leaves what was there whole and no temporary file behind.

    python3 files_test.py NAPKIN"""
import atexit
import errno
import os
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "jupyter"))

import napkin_files  # noqa: E402
from napkin_files import FileRefused, write_file  # noqa: E402
from napkin_runner import Runner, RunFailure  # noqa: E402

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def refused(path, text="let x = 1\n"):
    """The FileRefused that writing PATH raises, or None where it was written."""
    try:
        write_file(path, text)
    except FileRefused as e:
        return e
    return None


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


work = tempfile.mkdtemp(prefix="napkin-files-test-")
atexit.register(shutil.rmtree, work, True)
folder = os.path.join(work, "course")  # a shared course folder
os.mkdir(folder)
victim = os.path.join(work, "victim.txt")  # another user's file
with open(victim, "w", encoding="utf-8") as f:
    f.write("the victim's own text\n")
name = os.path.join(folder, ".napkin-notebook-4242.napkin")


def left_behind():
    """Anything in the course folder but the name itself (a temporary file left over)."""
    return sorted(n for n in os.listdir(folder) if n != os.path.basename(name))


# A link to another user's file: refused, the file untouched, the link left as it was.
os.symlink(victim, name)
e = refused(name)
expect(e is not None and e.unsafe, "a link to a file is refused")
expect(e is not None and "is a symbolic link (to %s)" % victim in e.message and "never writes through a link"
       in e.message, "the refusal names the link and where it points: %s" % (e and e.message))
expect(read(victim) == "the victim's own text\n", "the linked file is not written: %r" % read(victim))
expect(os.path.islink(name) and os.readlink(name) == victim, "the link stays as it was")
expect(left_behind() == [], "no temporary file is left: %s" % left_behind())
os.unlink(name)

# A dangling link: following it would create the file it names.
absent = os.path.join(work, "created-through-a-link")
os.symlink(absent, name)
e = refused(name)
expect(e is not None and e.unsafe and "symbolic link" in e.message, "a dangling link is refused: %s" % (e and e.message))
expect(not os.path.lexists(absent), "nothing is created where a dangling link points")
os.unlink(name)

# A directory, and a FIFO (opening one to write blocks until a reader comes).
os.mkdir(name)
e = refused(name)
expect(e is not None and e.unsafe and "is a directory" in e.message, "a directory is refused: %s" % (e and e.message))
os.rmdir(name)
os.mkfifo(name)
e = refused(name)
expect(e is not None and e.unsafe and "is a FIFO" in e.message, "a FIFO is refused: %s" % (e and e.message))
os.unlink(name)

# A regular file is replaced whole: a new file of the writer's own (mode 0600), not the old one written into.
with open(name, "w", encoding="utf-8") as f:
    f.write("an older notebook file\n")
os.chmod(name, 0o644)
before = os.stat(name).st_ino
expect(refused(name, "let µ = 2 µs\n") is None, "a regular file is replaced")
expect(read(name) == "let µ = 2 µs\n", "the new text, in UTF-8: %r" % read(name))
expect(os.stat(name).st_ino != before, "the name holds a new file (renamed over), not the old one rewritten")
expect(stat.S_IMODE(os.stat(name).st_mode) == 0o600, "only its owner reads the new file: %o" % os.stat(name).st_mode)
expect(left_behind() == [], "no temporary file is left: %s" % left_behind())

# A write that fails half-way (a full disk at fsync) leaves the old file whole and no temporary file.
real_fsync = os.fsync


def full_disk(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


napkin_files.os.fsync = full_disk
e = refused(name, "let y = 2\n")
napkin_files.os.fsync = real_fsync
expect(e is not None and not e.unsafe and "No space left on device" in e.message, "a full disk is refused: %s"
       % (e and e.message))
expect(read(name) == "let µ = 2 µs\n", "after a failed write the old text is whole: %r" % read(name))
expect(left_behind() == [], "a failed write leaves no temporary file: %s" % left_behind())


# An interrupt mid-write: the temporary file goes, the interrupt goes on.
def interrupted(fd):
    raise KeyboardInterrupt


napkin_files.os.fsync = interrupted
try:
    write_file(name, "let z = 3\n")
    expect(False, "an interrupt during the write reaches the caller")
except KeyboardInterrupt:
    pass
napkin_files.os.fsync = real_fsync
expect(read(name) == "let µ = 2 µs\n" and left_behind() == [], "an interrupt leaves the old text and no temporary "
       "file: %s" % left_behind())

# A folder that does not exist: refused, but not as a planted name (the runner falls back to its own folder).
e = refused(os.path.join(work, "no-such-folder", "f.napkin"))
expect(e is not None and not e.unsafe and "could not create a file in" in e.message, "a missing folder: %s"
       % (e and e.message))
os.unlink(name)

# The runner: the notebook's file beside the notebook, with a link planted at its name by another user.
os.environ["NAPKIN_BINARY"] = os.path.abspath(sys.argv[1])
os.chdir(folder)
runner = Runner()
planted = os.path.join(folder, runner.file_name)
os.symlink(victim, planted)
try:
    runner.run(["run", "{file}"], "let x = 1\n")
    expect(False, "the runner refuses to write through a link at the notebook file's name")
except RunFailure as f:
    expect(f.ename == "NapkinFileError" and "the notebook's file was not written: %s is a symbolic link" % planted
           in f.message, "the runner's refusal: %s" % f.message)
expect(read(victim) == "the victim's own text\n", "the runner does not write the linked file: %r" % read(victim))
os.unlink(planted)
done = runner.run(["run", "{file}"], "let x = 1\n")
expect(done.rc == 0 and "x = 1" in done.out, "without the link the runner runs napkin: %r %r" % (done.out, done.err))
expect(sorted(os.listdir(folder)) == [], "the notebook's file is gone after the run: %s" % os.listdir(folder))
runner.close()

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("the napkin kernel's file writes pass")
