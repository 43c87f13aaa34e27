#include <catch2/catch.hpp>
#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interpreter/io/atomic_write.hpp"
#include "grammar/diagnostic.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using napkin::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("atomic_write creates and replaces a file and leaves nothing beside it", "[atomic_write]") {
  TempDir d;
  const fs::path f = d.path / "plan.napkin";
  napkin::atomic_write(f.string(), "let a = 1\n");
  CHECK(slurp(f) == "let a = 1\n");
  ::chmod(f.c_str(), 0640);
  napkin::atomic_write(f.string(), "let a = 2\n");
  CHECK(slurp(f) == "let a = 2\n");
  struct stat st {};
  REQUIRE(::stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);  // the original's permissions are kept
  CHECK(entries(d.path) == 1);
}

TEST_CASE("atomic_write never writes through a symbolic link: the link and its target stay", "[atomic_write]") {
  TempDir d;
  spit(d.path / "real.toml", "old");
  fs::create_symlink("real.toml", d.path / "link.toml");
  try {
    napkin::atomic_write((d.path / "link.toml").string(), "new");
    FAIL("a write through a link should be refused");
  } catch (const napkin::Error& e) {
    CHECK(code_text(e.diagnostic().code) == "E0602");
    CHECK_THAT(e.diagnostic().message, Catch::Contains("symbolic link to real.toml"));
  }
  CHECK(fs::is_symlink(d.path / "link.toml"));
  CHECK(slurp(d.path / "real.toml") == "old");
  CHECK(napkin::atomic_write((d.path / "real.toml").string(), "new").empty());  // the file itself, named
  CHECK(slurp(d.path / "real.toml") == "new");
}

TEST_CASE("atomic_write refuses a folder without a write bit, root too, and leaves the file", "[atomic_write]") {
  TempDir d;
  const fs::path f = d.path / "ro" / "plan.napkin";
  fs::create_directory(d.path / "ro");
  spit(f, "old");
  ::chmod((d.path / "ro").c_str(), 0555);
  try {
    napkin::atomic_write(f.string(), "new");
    FAIL("a write into a read-only folder should be refused");
  } catch (const napkin::Error& e) {
    CHECK_THAT(e.diagnostic().message, Catch::Contains("is read-only, so the file cannot be replaced whole"));
  }
  ::chmod((d.path / "ro").c_str(), 0755);
  CHECK(slurp(f) == "old");
}

TEST_CASE("past the file-size limit a write fails with EFBIG and the original stays whole", "[atomic_write]") {
  // As the command line does: SIGXFSZ ignored, so the write fails instead.
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit old_limit {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  TempDir d;
  const fs::path f = d.path / "a.napkin", g = d.path / "b.napkin";
  const std::string original(200000, 'o');
  spit(f, original);
  fs::create_hard_link(f, g);  // rewritten in place
  struct rlimit small = old_limit;
  small.rlim_cur = 100000;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string in_place_error, plain_error;
  try {
    napkin::atomic_write(f.string(), std::string(150000, 'n'));
  } catch (const napkin::Error& e) {
    in_place_error = e.diagnostic().message;
  }
  fs::remove(g);
  try {
    napkin::atomic_write(f.string(), std::string(150000, 'n'));
  } catch (const napkin::Error& e) {
    plain_error = e.diagnostic().message;
  }
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(in_place_error, Catch::Contains("File too large"));
  CHECK_THAT(plain_error, Catch::Contains("File too large"));
  CHECK(slurp(f) == original);
  CHECK(entries(d.path) == 1);  // no temporary left
}

TEST_CASE("a write that fails at any step leaves the original intact", "[atomic_write]") {
  const char* step = GENERATE("create", "write", "fsync", "rename");
  TempDir d;
  const fs::path f = d.path / "profile.toml";
  const std::string original = "peak = 989 TFLOP/s\n";
  spit(f, original);
  // Fail the second chunk of the write: the temporary file is half written.
  int writes = 0;
  const napkin::WriteFault fault = [&](std::string_view s) {
    if (s != step) return 0;
    return s == "write" && ++writes < 2 ? 0 : ENOSPC;
  };
  const std::string replacement(1 << 20, 'x');
  try {
    napkin::atomic_write(f.string(), replacement, fault);
    FAIL("the write should have failed at " << step);
  } catch (const napkin::Error& e) {
    CHECK(code_text(e.diagnostic().code) == "E0602");
    CHECK_THAT(e.diagnostic().message, Catch::Contains(step) && Catch::Contains("No space left on device"));
  }
  CHECK(slurp(f) == original);
  CHECK(entries(d.path) == 1);  // no temporary file left behind
}

TEST_CASE("a write into a missing directory is a napkin error, not an exception from the library", "[atomic_write]") {
  TempDir d;
  const fs::path f = d.path / "no" / "such" / "dir" / "out.toml";
  try {
    napkin::atomic_write(f.string(), "x");
    FAIL("the write should have failed");
  } catch (const napkin::Error& e) {
    CHECK(code_text(e.diagnostic().code) == "E0602");
    CHECK_THAT(e.diagnostic().message, Catch::Contains("out.toml") && Catch::Contains("No such file or directory"));
  }
}
