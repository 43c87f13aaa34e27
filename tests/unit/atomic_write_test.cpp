#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interpreter/io/atomic_write.hpp"
#include "grammar/diagnostic.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "napkin-atomic-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

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

TEST_CASE("atomic_write through a symbolic link replaces the target and keeps the link", "[atomic_write]") {
  TempDir d;
  spit(d.path / "real.toml", "old");
  fs::create_symlink("real.toml", d.path / "link.toml");
  napkin::atomic_write((d.path / "link.toml").string(), "new");
  CHECK(fs::is_symlink(d.path / "link.toml"));
  CHECK(slurp(d.path / "real.toml") == "new");
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
