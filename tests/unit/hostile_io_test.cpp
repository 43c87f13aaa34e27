// Issue 13: readers open only regular files, writers replace only regular
// files the user may write, and a did-you-mean costs no more than its
// length allows.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "grammar/diagnostic.hpp"
#include "interpreter/core/suggest.hpp"
#include "interpreter/io/atomic_write.hpp"
#include "interpreter/io/read_source.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

using Dir = napkin::test::TempDir;

TEST_CASE("read_source refuses devices and FIFOs, and reads a pipe only when asked", "[hostile]") {
  std::string text;
  CHECK(napkin::read_source("/dev/zero", text) == napkin::kNotRegularFile);
  Dir d;
  const fs::path fifo = d.path / "f";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(napkin::read_source(fifo.string(), text) == napkin::kNotRegularFile);
  CHECK(napkin::read_source(fifo.string(), text, /*allow_pipe=*/true) == 0);  // no writer: empty, no wait
  CHECK(text.empty());
  CHECK(napkin::read_source(d.path.string(), text) == EISDIR);
}

TEST_CASE("atomic_write refuses what is not a regular file the user may write", "[hostile]") {
  Dir d;
  const fs::path fifo = d.path / "f";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_AS(napkin::atomic_write(fifo.string(), "x"), napkin::Error);
  CHECK(fs::is_fifo(fifo));
  CHECK_THROWS_AS(napkin::atomic_write(d.path.string(), "x"), napkin::Error);
  const fs::path ro = d.path / "ro";
  std::ofstream(ro) << "old";
  ::chmod(ro.c_str(), 0444);
  CHECK_THROWS_AS(napkin::atomic_write(ro.string(), "new"), napkin::Error);  // root too: no write bit
  std::ifstream in(ro);
  std::string s;
  in >> s;
  CHECK(s == "old");
}

TEST_CASE("atomic_write keeps hard links", "[hostile]") {
  Dir d;
  const fs::path a = d.path / "a", b = d.path / "b";
  std::ofstream(a) << "old";
  fs::create_hard_link(a, b);
  napkin::atomic_write(a.string(), "new");
  CHECK(fs::hard_link_count(a) == 2);
  std::ifstream in(b);
  std::string s;
  in >> s;
  CHECK(s == "new");
}

TEST_CASE("write_output writes to a character device instead of replacing it", "[hostile]") {
  CHECK_THROWS_AS(napkin::write_output("/dev/full", "x"), napkin::Error);  // ENOSPC
  CHECK(fs::is_character_file("/dev/full"));
  napkin::write_output("/dev/null", "x");
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("a did-you-mean is bounded by length", "[hostile]") {
  const std::string huge(120000, 'a');
  const auto start = std::chrono::steady_clock::now();
  CHECK(napkin::closest(huge, {huge + "b", "a", "batch"}).empty());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(100));
  CHECK(napkin::closest("bacth", {"batch", "a_very_long_name_that_is_far"}) == std::vector<std::string>{"batch"});
  CHECK(napkin::edit_distance("GiB", "Gib") == 1);
}
