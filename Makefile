# The quick start: `make demo` and `make test` on a fresh Debian 12 machine.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
NAPKIN := ./$(BUILD_DIR)/napkin

.PHONY: all deps configure build wasm playground demo test golden install package bench compare clean

all: build

# Set-up is quiet: a line per step, everything the step prints in
# $(SETUP_LOG), and on a failure the log's last lines.
SETUP_LOG := $(BUILD_DIR)/setup.log
step = @mkdir -p $(BUILD_DIR); echo "napkin: $(1)"; \
	if ! ( $(2) ) >>$(SETUP_LOG) 2>&1; then \
	  echo "napkin: $(1) failed; the last lines of $(SETUP_LOG):" >&2; tail -n 40 $(SETUP_LOG) >&2; exit 1; fi

deps:
	@mkdir -p $(BUILD_DIR); : >$(SETUP_LOG)
	$(call step,installing the build packages where missing (apt-get),.ci/install-deps.sh)

configure: deps
	$(call step,configuring $(BUILD_DIR)/,cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS))

build: configure
	$(call step,building $(NAPKIN) (the log: $(SETUP_LOG)),cmake --build $(BUILD_DIR) -j$(JOBS))

# The same command in WebAssembly, compiled by Debian's emscripten:
# $(WASM_DIR)/napkin.js and napkin.wasm, which the playground (web/) and
# Node.js run (web/src/napkin_runner.js). ccache, where installed, keeps
# em++'s objects as it does g++'s.
WASM_DIR ?= build-wasm
EMSCRIPTEN_TOOLCHAIN ?= /usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake
WASM_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DNAPKIN_CUDA=OFF -DNAPKIN_TESTS=OFF \
	$(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Debian's emscripten finds its acorn there under a Node.js of its own.
WASM_ENV := NODE_PATH=/usr/share/nodejs

wasm: deps
	$(call step,installing emscripten where missing (apt-get),.ci/install-deps.sh emscripten)
	$(call step,configuring $(WASM_DIR)/ with emscripten,$(WASM_ENV) cmake -S . -B $(WASM_DIR) -DCMAKE_TOOLCHAIN_FILE=$(EMSCRIPTEN_TOOLCHAIN) $(WASM_CMAKE_FLAGS))
	$(call step,building the whole command and the playground module in $(WASM_DIR)/ (napkin.wasm and napkin-playground.wasm; the log: $(SETUP_LOG)),$(WASM_ENV) cmake --build $(WASM_DIR) -j$(JOBS) --target napkin napkin-playground)

# The playground: a static page in web/dist around the WebAssembly build.
playground: wasm
	$(call step,installing npm where missing (apt-get),command -v npm >/dev/null || .ci/install-deps.sh npm)
	$(call step,building web/dist/index.html (npm ci and esbuild),web/build.sh $(WASM_DIR))

# What a newcomer came for: the number a question asks for, the formula
# behind it down to the spec, and the textbook's one line.
demo: build
	@echo
	@echo '$$ napkin explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --depth 2'
	@$(NAPKIN) explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --depth 2
	@echo
	@echo '$$ napkin explain examples/lab03_drills.napkin drill4.kv --flat'
	@$(NAPKIN) explain examples/lab03_drills.napkin drill4.kv --flat
	@echo
	@echo 'Every answer of the exercise with its formula: $(NAPKIN) run examples/exercise1_size_a_model.napkin --steps'

# The tests also render LaTeX and SVG, so they install TeX Live, poppler and Chromium.
test-deps: deps
	$(call step,installing what the rendering tests use where missing (apt-get),.ci/install-deps.sh --test)

# The WebAssembly build and the playground too: the wasm output is compared with the native one's, the page is tested in Chromium.
test: test-deps build playground
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
