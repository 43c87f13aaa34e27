# The WebAssembly build (`make wasm`): the same command, compiled by Debian's
# emscripten into build-wasm/napkin.js and napkin.wasm, for the playground
# (web/) and Node.js. Included by the top CMakeLists.txt when the compiler is
# em++ (cmake with emscripten's toolchain file, as the Makefile configures it).
#
# The libraries napkin uses are header-only, or can be (fmt), and are read
# from Debian's /usr/include. That folder cannot be searched whole: its libc
# headers are glibc's, not emscripten's. A folder in the build tree links only
# the five libraries' own header folders.
set(NAPKIN_WASM_INCLUDE ${CMAKE_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${NAPKIN_WASM_INCLUDE})
foreach(dir tao fmt toml++ CLI nlohmann)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "the WebAssembly build reads /usr/include/${dir}: install the build packages (.ci/install-deps.sh)")
  endif()
  file(CREATE_LINK /usr/include/${dir} ${NAPKIN_WASM_INCLUDE}/${dir} SYMBOLIC)
endforeach()

function(napkin_header_library name)
  add_library(${name} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${name} SYSTEM INTERFACE ${NAPKIN_WASM_INCLUDE})
endfunction()
napkin_header_library(taocpp::pegtl)
napkin_header_library(fmt::fmt)
# fmt's compiled part is included in each file that formats, rather than
# linked from Debian's libfmt.so, which is a native library.
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)
napkin_header_library(tomlplusplus::tomlplusplus)
napkin_header_library(CLI11::CLI11)
napkin_header_library(nlohmann_json::nlohmann_json)

# The optimisation level, compile and link alike, with link-time
# optimisation: bench/README.md weighs -Oz against -Os and -O2, with and
# without LTO. In Chromium, whose engine inlines small WebAssembly calls
# itself, -Oz with LTO ran the playground's warm evaluation as fast as -O2
# (7.3 ms against 8.3 ms) in 70 % of the size.
set(NAPKIN_WASM_OPT -Oz CACHE STRING "em++'s optimisation level for the WebAssembly build: -Oz, -Os or -O2")
set(CMAKE_CXX_FLAGS_RELEASE "${NAPKIN_WASM_OPT} -flto -DNDEBUG")

# After LLVM, Binaryen inlines every function of at most 6 of its nodes (2 at
# -Oz by default) and optimises the module once more. The engine compiles a
# function the first time it is called, at a cost of its own for each one,
# and -Oz leaves thousands of accessors and forwarding calls behind: exercise
# 1's first run called 1,423 functions, 558 of them of 20 bytes or fewer.
# bench/README.md ("Fewer functions for a first run") has the figures.
set(NAPKIN_WASM_INLINE_NODES 6 CACHE STRING "Binaryen inlines WebAssembly functions of at most this many nodes")
# A function with one caller, though, Binaryen inlines whatever its size
# unless told otherwise: PEGTL's rules, each matched from one place, became
# one parse_module of 24 KB, and a few more grew past 10 KB. The engine's
# optimising compiler takes longer than in proportion for such a function
# (135 ms for that one), on the core the page's thread shares on a small
# machine, while the first evaluations run. At most 100 nodes it took 50-80 ms
# for all of a first run's hot functions instead of 420-470 ms, and the
# module is 8 KB smaller gzipped ("Hot functions the engine can optimise
# quickly").
set(NAPKIN_WASM_ONE_CALLER_NODES 100 CACHE STRING "Binaryen inlines a WebAssembly function with one caller only if it has at most this many nodes")
add_link_options(-sBINARYEN_EXTRA_PASSES=--always-inline-max-function-size=${NAPKIN_WASM_INLINE_NODES},--one-caller-inline-max-function-size=${NAPKIN_WASM_ONE_CALLER_NODES},-Oz)

# JavaScript exceptions unwind through the JS stack, which overflows (about
# 790 nested fields) before napkin's own depth limit is reached; WebAssembly's
# own exceptions do not.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# What the command needs to run in a page or under Node.js: a factory
# (createNapkin) that the page calls, main run by callMain for each
# evaluation on one instance (the runtime stays up between calls), files in
# emscripten's in-memory file system, and memory that grows as a file needs.
# The C++ stack (in linear memory) is 2.25 MiB, so that the stack guard
# (1 MiB reserve) ends a deep file with napkin's E0701 before the engine's
# own stack (about 1 MB in Node.js and Chromium, which the module's calls
# also use) overflows: at -Oz a chain of `extends` overflows it between
# 1,800 and 2,000 levels, below napkin's limit of 2000, and the guard stops
# it at about 1,430 (a chain of fields, whose frames are larger, at about
# 610 fields). The margin depends on frame sizes: with 3 MiB, smaller
# evaluator frames let a 2,000-deep chain reach the engine's limit first
# (tests/wasm/limits_test.mjs).
# The .wasm is compiled synchronously from the bytes the caller passes
# (wasmBinary), so neither a fetch nor a file URL is needed. The runtime
# stays up after main returns, so stdio is not flushed at exit: the caller
# flushes it (_fflush) after each call.
set(NAPKIN_WASM_LINK_FLAGS
  -sMODULARIZE=1 -sEXPORT_NAME=createNapkin
  -sINVOKE_RUN=0 -sEXIT_RUNTIME=0
  -sEXPORTED_RUNTIME_METHODS=callMain,FS
  -sEXPORTED_FUNCTIONS=_main,_fflush
  -sALLOW_MEMORY_GROWTH=1
  -sTOTAL_STACK=2304KB
  -sENVIRONMENT=web,worker,node
  -sWASM_ASYNC_COMPILATION=0)

function(napkin_wasm_command target)
  target_link_options(${target} PRIVATE ${NAPKIN_WASM_LINK_FLAGS})
endfunction()

# A build-time tool (napkin-embed-stdlib) runs under Node.js, the build's
# emulator, and reads the host's files.
function(napkin_wasm_tool target)
  target_link_options(${target} PRIVATE -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sWASM_ASYNC_COMPILATION=0)
endfunction()
