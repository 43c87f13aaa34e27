#pragma once
// Measurements kept between runs, so evaluating a file twice does not run
// its probes twice: a TOML file with a table per device and, inside it, one
// per probe and arguments. Writes go through io's atomic replacement
// (interpreter/io/atomic_write.hpp), so a reader never sees half a file; a
// writer holds a lock (flock on the cache's name + ".lock") while it reads
// the cache, adds its entry and replaces it, so writers at once merge.
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "measurement.hpp"

namespace napkin::measure {

toml::table to_toml(const Measurement& m);
// Throws napkin::Error when a field is missing or has the wrong type.
Measurement from_toml(const toml::table& t);

// Writes `doc` to `path` with napkin::atomic_write: only a regular file (or
// nothing) at `path` is replaced, never through a link; anything else, or a
// failed write, throws napkin::Error with atomic_write's message.
void write_atomically(const std::string& path, const std::string& header, const toml::table& doc);
// `header` and `doc` as the text write_atomically writes.
std::string toml_text(const std::string& header, const toml::table& doc);

// Reads a regular file whole, up to `limit` bytes. Throws napkin::Error
// naming the file for one that is missing (when `missing_ok` is false), not a
// regular file, unreadable or over the limit; returns false for a missing
// file when `missing_ok`.
bool read_regular(const std::string& path, std::string& text, std::size_t limit, bool missing_ok = false);
inline constexpr std::size_t kMaxTomlBytes = std::size_t{4} << 20;  // profiles and the cache

class Cache {
 public:
  explicit Cache(std::string path) : path_(std::move(path)) {}

  // $NAPKIN_MEASURE_CACHE, else $XDG_CACHE_HOME/napkin/measurements.toml,
  // else ~/.cache/napkin/measurements.toml. Only the last two have their
  // directory made when missing; $NAPKIN_MEASURE_CACHE's must exist.
  static std::string default_path();

  const std::string& path() const { return path_; }
  std::optional<Measurement> find(const std::string& device, const std::string& key) const;
  // Adds or replaces one entry; throws napkin::Error when the file cannot
  // be written, or when a file is there that is not napkin's cache (it is
  // left as it is).
  void store(const std::string& device, const Measurement& m) const;

 private:
  std::string path_;
  toml::table load() const;
};

}  // namespace napkin::measure
