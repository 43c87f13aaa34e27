#pragma once
// Files napkin writes (`fmt -w`, `measure --out`, plots, caches) are never
// left half written: the new bytes go to a temporary file in the same
// directory, are flushed to disk, and replace the original in one rename.
//
// Only a regular file the user may write is ever replaced, and it keeps its
// mode, owner and group. A directory, a device, a FIFO, a socket or a
// read-only file is refused with an error, and so is a symbolic link: napkin
// never writes through one (in a shared folder it may point at another
// user's file); naming the file itself writes it. A file in a folder napkin
// may not create files in is refused too, since it could not be replaced
// whole. A file with several hard links, or one whose owner or group napkin
// cannot give the replacement, is rewritten in place instead, so the links
// and the owner stay; that is not atomic, and the returned note says so.
//
// A file-size limit (`ulimit -f`) or a full disk fails the write with an
// error (the command line ignores SIGXFSZ), leaving the original whole: in
// place, the room is taken before any byte changes. The temporary file is
// removed on every failure, and on SIGINT, SIGTERM and SIGHUP.
#include <sys/stat.h>

#include <functional>
#include <string>
#include <string_view>

namespace napkin {

// Makes one step fail as a full or broken disk would: called before each
// step ("create", "write", "fsync", "rename"), a non-zero errno fails it.
using WriteFault = std::function<int(std::string_view step)>;

// Replaces `path` with `contents`, keeping the original's permissions and
// owner. On failure the original is untouched, the temporary file is
// removed, and napkin::Error (E0602) names the step. Returns "" when the
// file was replaced whole, or a note to show the user when it was rewritten
// in place (and why).
std::string atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault = {});

// An output file the user named (`plot -o`, `measure --out`): a character
// device or a FIFO that already exists there is written to as it is (a FIFO
// only while a reader has it open), anything else goes through atomic_write
// (whose note it returns).
std::string write_output(const std::string& path, std::string_view contents);

// Whether the user may write the file `st` describes: its permission bits
// for this process's effective user and groups. Root may write anything, but
// a file without any write bit is read-only to napkin even for root.
bool may_write(const std::string& path, const struct stat& st);

}  // namespace napkin
