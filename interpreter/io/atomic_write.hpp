#pragma once
// Files napkin writes (`fmt -w`, `measure --out`, plots, caches) are never
// left half written: the new bytes go to a temporary file in the same
// directory, are flushed to disk, and replace the original in one rename.
//
// Only a regular file the user may write is ever replaced, and it keeps its
// mode, owner and group. A directory, a device, a FIFO, a socket or a
// read-only file is refused with an error. A file with several hard links,
// or one whose owner or group napkin cannot give the replacement, is
// rewritten in place instead, so the links and the owner stay.
#include <sys/stat.h>

#include <functional>
#include <string>
#include <string_view>

namespace napkin {

// Makes one step fail as a full or broken disk would: called before each
// step ("create", "write", "fsync", "rename"), a non-zero errno fails it.
using WriteFault = std::function<int(std::string_view step)>;

// Replaces `path` with `contents`, keeping the original's permissions and
// owner, and writing through a symbolic link. On failure the original is
// untouched, the temporary file is removed, and napkin::Error (E0602) names
// the step.
void atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault = {});

// An output file the user named (`plot -o`, `measure --out`): a character
// device or a FIFO that already exists there is written to as it is (a FIFO
// only while a reader has it open), anything else goes through atomic_write.
void write_output(const std::string& path, std::string_view contents);

// Whether the user may write the file `st` describes: its permission bits
// for this process's effective user and groups. Root may write anything, but
// a file without any write bit is read-only to napkin even for root.
bool may_write(const std::string& path, const struct stat& st);

}  // namespace napkin
