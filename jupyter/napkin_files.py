"""The kernel's file writes, as napkin's own (interpreter/io/atomic_write.hpp):
the bytes go to a new temporary file in the same folder, created with
O_EXCL|O_NOFOLLOW so that nothing planted there is opened, flushed to disk,
and renamed over the name in one step. A rename replaces a name and never
writes through it, so a symbolic link another user planted in a shared
folder (`.napkin-notebook-PID.napkin -> ~victim/file`) can never make the
kernel write the file it points at; the link is refused before anything is
written, and so is a directory, a FIFO or a device. On any failure the
temporary file is removed and whatever was at the name stays as it was."""
import os
import stat
import tempfile


class FileRefused(Exception):
    """The file was not written; the message says why, for the cell. `unsafe`:
    the name holds something that is not a regular file (a link, say), as
    opposed to a folder that cannot be written or a full disk."""

    def __init__(self, message, unsafe=False):
        super().__init__(message)
        self.message, self.unsafe = message, unsafe


def describe(mode):
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_target(path):
    """Refuses a name that is anything but a regular file or nothing (lstat: a link is not followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise FileRefused("could not look at %s: %s" % (path, e.strerror)) from None
    if stat.S_ISREG(st.st_mode):
        return
    what = describe(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        try:
            what += " (to %s)" % os.readlink(path)
        except OSError:
            pass
    raise FileRefused("%s is %s; the napkin kernel never writes through a link or into anything but a regular "
                      "file (in a shared folder a link may point at another user's file): remove it" % (path, what),
                      unsafe=True)


def write_file(path, text):
    """Replaces PATH with TEXT (UTF-8) whole, or raises FileRefused and changes nothing."""
    check_target(path)
    folder, name = os.path.split(os.path.abspath(path))
    try:
        # mkstemp opens with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600: a new file of ours, or an error.
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + name + ".", suffix=".tmp")
    except OSError as e:
        raise FileRefused("could not create a file in %s: %s" % (folder, e.strerror)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        check_target(path)  # a link planted meanwhile is refused too, though the rename would only replace it
        os.replace(tmp, path)
    except BaseException as e:  # an interrupt too: the temporary file never stays
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise FileRefused("could not write %s: %s" % (path, e.strerror or e)) from None
        raise
