# The quick start: `make demo` and `make test` on a fresh Debian 12 machine.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
NAPKIN := ./$(BUILD_DIR)/napkin

.PHONY: all deps configure build demo test golden install package bench compare clean

all: build

deps:
	@.ci/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)

demo: build
	@$(NAPKIN) run examples/exercise1_size_a_model.napkin --steps
	@echo
	@$(NAPKIN) explain examples/exercise1_size_a_model.napkin decode.tokens_per_s

# The tests also render LaTeX and SVG, so they install TeX Live, poppler and Chromium.
test-deps:
	@.ci/install-deps.sh --test

test: test-deps build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

# Regenerate the golden outputs; read `git diff tests/` before committing.
golden: build
	@tests/golden/update.sh $(NAPKIN)

# Install bin/napkin, its GPU module (lib/napkin/) and the docs under PREFIX.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# A Debian package of the same files (build/napkin_VERSION_ARCH.deb).
package: build
	@cd $(BUILD_DIR) && cpack -G DEB

# Benchmarks build in their own directory, so `make test` stays lean.
BENCH_DIR ?= build-bench

bench: deps
	@cmake -S . -B $(BENCH_DIR) $(CMAKE_FLAGS) -DNAPKIN_BENCH=ON >/dev/null
	@cmake --build $(BENCH_DIR) -j$(JOBS) --target napkin napkin_bench
	@$(BENCH_DIR)/bench/napkin_bench $(BENCH_ARGS)

# napkin against plain Python and GNU units, as whole processes (hyperfine).
compare: bench
	@bench/compare.sh $(BENCH_DIR)/napkin

clean:
	@rm -rf $(BUILD_DIR)
