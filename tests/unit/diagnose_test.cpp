// cli/diagnose.cpp: whatever stops a command becomes a Diagnostic with a
// code, in this one place (docs/architecture.md, "Errors: one channel").
#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>
#include <system_error>

#include "interpreter/cli/diagnose.hpp"

using namespace napkin;

TEST_CASE("every exception a command can meet becomes a Diagnostic with its code", "[errors]") {
  Diagnostic mine;
  mine.code = codes::division_by_zero;
  mine.message = "division by zero";
  mine.notes = {"a note"};
  const Diagnostic kept = cli::diagnose(std::make_exception_ptr(Error(mine)));
  CHECK(kept.code == codes::division_by_zero);
  CHECK(kept.message == "division by zero");
  CHECK(kept.notes == std::vector<std::string>{"a note"});

  const Diagnostic memory = cli::diagnose(std::make_exception_ptr(std::bad_alloc()));
  CHECK(memory.code == codes::size_limit);
  CHECK(render(memory) == "error[E0702]: out of memory\n");
  // A restricted run reports its own bound (cli/restricted.cpp).
  CHECK(cli::diagnose(std::make_exception_ptr(std::bad_alloc()), 256).code == codes::memory_limit);

  const auto io = std::make_exception_ptr(std::system_error(std::make_error_code(std::errc::no_space_on_device), "x.toml"));
  CHECK(cli::diagnose(io).code == codes::io);

  const Diagnostic bug = cli::diagnose(std::make_exception_ptr(std::logic_error("a tree ends early")));
  CHECK(render(bug) == "error[E0000]: internal error: a tree ends early; please report it\n");
  CHECK(cli::diagnose(std::make_exception_ptr(42)).code == codes::internal);

  const cli::Result r = cli::failed(memory);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "error[E0702]: out of memory\n");
}

TEST_CASE("the renderer's pieces: a cell's tag and a one-line headline", "[errors]") {
  CHECK(error_tag(codes::division_by_zero) == "error[E0400]");
  CHECK(error_tag("E0503") == "error[E0503]");
  Diagnostic d = unplaced(codes::usage, "give exactly one goal", "use --max");
  CHECK(headline(d) == "error[E0800]: give exactly one goal");
  CHECK(render(d) == "error[E0800]: give exactly one goal\n  = help: use --max\n");
  CHECK_THROWS_AS(fail(codes::io, "cannot read x"), Error);
}
