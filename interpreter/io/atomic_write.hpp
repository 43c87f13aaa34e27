#pragma once
// Files napkin writes (`fmt -w`, `measure --out`, plots, caches) are never
// left half written: the new bytes go to a temporary file in the same
// directory, are flushed to disk, and replace the original in one rename.
#include <functional>
#include <string>
#include <string_view>

namespace napkin {

// Makes one step fail as a full or broken disk would: called before each
// step ("create", "write", "fsync", "rename"), a non-zero errno fails it.
using WriteFault = std::function<int(std::string_view step)>;

// Replaces `path` with `contents`, keeping the original's permissions and
// writing through a symbolic link. On failure the original is untouched, the
// temporary file is removed, and napkin::Error (E0602) names the step.
void atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault = {});

}  // namespace napkin
