// napkin's command line, run in WebAssembly: the same `main` as the native
// binary (build-wasm/napkin.js and napkin.wasm, `make wasm`), for the
// playground page and for Node.js ≥ 20.
//
// Contract:
//
//   const napkin = await loadNapkin(wasmBinary);   // Uint8Array of napkin.wasm
//   const { code, stdout, stderr, files } = napkin.run(args, inputFiles);
//
// - `args` is the command line without the program name, exactly as given
//   to the native binary: ["run", "examples/exercise1_size_a_model.napkin",
//   "--format", "json"].
// - `inputFiles` maps relative paths ("examples/x.napkin", "lab.napkin") to
//   their text (a string, written as UTF-8) or their bytes (a Uint8Array,
//   written as they are: a file need not be valid UTF-8). Each run starts from an empty working folder, writes these
//   files into it and runs there, so a path napkin prints is the relative
//   path the caller used, as the native binary prints it when run from the
//   repository root; no path of the host appears in any output. An import
//   reads only the files given (the standard library is in the binary).
// - The result: `code` is napkin's exit status (0 ok, 1 a check failed,
//   2 a usage, parse or evaluation error); `stdout` and `stderr` are
//   everything napkin wrote, decoded as UTF-8, flushed after each run;
//   `files` maps the relative path of every file in the working folder after
//   the run to its text (what `napkin fmt` rewrote, `--out` wrote); a caller
//   that needs none passes `{ readBack: false }` as the third argument (the
//   playground: reading the files back is a tenth of a warm run), and gets
//   `files: {}`.
// - One instance serves any number of runs (the runtime stays up between
//   them: a warm re-evaluation costs only the evaluation). Runs are
//   synchronous; call them one at a time. If the module ever traps (it
//   should not: napkin turns bad input into errors), that run returns code
//   70 with the trap in `stderr`, and the next run uses a fresh instance.
// - measure(...) has no probe here: its `else` applies, and a measure
//   without one is error E0900.
//
// Bundling: the glue is emscripten's (MODULARIZE, for web and Node.js). It
// names Node's `fs`, `path` and `crypto` in branches a browser never takes,
// so a browser bundle marks them external (esbuild: --external:fs
// --external:path --external:crypto). `loadNapkin(wasmBinary, factory)`
// takes another build's createNapkin in place of build-wasm's.
import createNapkin from "../../build-wasm/napkin.js";

// The working folder inside the module's in-memory file system.
const WORK = "/playground";
// The exit status of a run whose module trapped (EX_SOFTWARE).
const TRAPPED = 70;

function instantiate(factory, wasm, streams) {
  const options = {
    thisProgram: "napkin",
    noInitialRun: true,
    // Exit statuses come back from callMain; under Node.js the glue would
    // otherwise also set process.exitCode.
    quit: (status, toThrow) => {
      throw toThrow;
    },
    print: () => {},
    printErr: () => {},
    preRun: [
      (m) => {
        m.FS.init(
          () => null,
          (byte) => streams.out.push(Uint8Array.of(byte)),
          (byte) => streams.err.push(Uint8Array.of(byte)),
        );
      },
    ],
    // What napkin writes to stdout and stderr, a write at a time, exactly
    // as written: FS.init's devices pass it on byte by byte, a call each,
    // which was a sixth of a warm run; each stream's write is taken over
    // once the streams are open.
    postRun: [
      (m) => {
        for (const [fd, sink] of [[1, streams.out], [2, streams.err]]) {
          const stream = m.FS.getStream(fd);
          stream.stream_ops = {
            ...stream.stream_ops,
            write: (_stream, buffer, offset, length) => {
              sink.push(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length).slice());
              return length;
            },
          };
        }
      },
    ],
  };
  options.wasmBinary = wasm;
  // Under Node.js the glue hooks the process's uncaughtException and
  // unhandledRejection, for a program that is nothing but the module; here
  // they would take over the embedding program's errors, once per instance.
  const node = typeof process === "object" && typeof process.listeners === "function";
  const hooks = ["uncaughtException", "unhandledRejection"];
  const before = node ? hooks.map((h) => process.listeners(h)) : [];
  // The module compiles synchronously (-sWASM_ASYNC_COMPILATION=0) and, in
  // emscripten 3.1.6, is the options object itself once the factory
  // returns; the promise resolves to it as well.
  const ready = factory(options);
  if (node) {
    hooks.forEach((h, i) => {
      for (const l of process.listeners(h)) if (!before[i].includes(l)) process.removeListener(h, l);
    });
  }
  return { module: options, ready };
}

function removeTree(FS, path) {
  for (const name of FS.readdir(path)) {
    if (name === "." || name === "..") continue;
    const child = `${path}/${name}`;
    if (FS.isDir(FS.stat(child).mode)) {
      removeTree(FS, child);
      FS.rmdir(child);
    } else {
      FS.unlink(child);
    }
  }
}

const encoder = new TextEncoder();

function writeTree(FS, files) {
  for (const [rel, text] of Object.entries(files)) {
    if (rel.startsWith("/") || rel.split("/").includes("..")) {
      throw new Error(`napkin_runner: ${JSON.stringify(rel)} is not a relative path inside the working folder`);
    }
    const parts = rel.split("/");
    let dir = WORK;
    for (const part of parts.slice(0, -1)) {
      if (part === "" || part === ".") continue;
      dir = `${dir}/${part}`;
      if (!FS.analyzePath(dir).exists) FS.mkdir(dir);
    }
    // UTF-8 by the engine's own encoder: emscripten's, a JavaScript loop
    // over each character, took 10 ms of a page's first evaluation.
    FS.writeFile(`${WORK}/${rel}`, typeof text === "string" ? encoder.encode(text) : text);
  }
}

function readTree(FS, path, prefix, out) {
  for (const name of FS.readdir(path).sort()) {
    if (name === "." || name === "..") continue;
    const child = `${path}/${name}`;
    const rel = prefix ? `${prefix}/${name}` : name;
    if (FS.isDir(FS.stat(child).mode)) readTree(FS, child, rel, out);
    else out[rel] = FS.readFile(child, { encoding: "utf8" });
  }
  return out;
}

export async function loadNapkin(wasmBinary, factory = createNapkin) {
  if (!(wasmBinary instanceof Uint8Array))
    throw new TypeError("loadNapkin: wasmBinary must be a Uint8Array of napkin.wasm");
  const streams = { out: [], err: [] };
  const decoder = new TextDecoder("utf-8");
  let current = instantiate(factory, wasmBinary, streams);
  await current.ready;
  let module = current.module;

  const fresh = () => {
    current = instantiate(factory, wasmBinary, streams);
    module = current.module;
    if (typeof module.callMain !== "function" || !module.calledRun)
      throw new Error("napkin_runner: the module did not start synchronously");
  };

  const prepare = (files) => {
    const { FS } = module;
    FS.chdir("/");
    if (FS.analyzePath(WORK).exists) removeTree(FS, WORK);
    else FS.mkdir(WORK);
    writeTree(FS, files);
    FS.chdir(WORK);
  };

  // The chunks one stream received, as one string.
  const text = (chunks) => {
    let size = 0;
    for (const c of chunks) size += c.length;
    const all = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return decoder.decode(all);
  };

  function run(args, files = {}, { readBack = true } = {}) {
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
      throw new TypeError("napkin.run: args must be an array of strings");
    if (module === null) fresh();
    prepare(files);
    streams.out.length = 0;
    streams.err.length = 0;
    let code;
    let trap = null;
    try {
      code = module.callMain(args);
      // stdio is not flushed at exit while the runtime stays up.
      module._fflush(0);
    } catch (e) {
      trap = e;
    }
    const stdout = text(streams.out);
    let stderr = text(streams.err);
    if (trap !== null) {
      stderr += `napkin: the WebAssembly module stopped: ${trap && trap.message ? trap.message : String(trap)}\n`;
      module = null;  // a trapped instance is not used again
      return { code: TRAPPED, stdout, stderr, files: {} };
    }
    return { code, stdout, stderr, files: readBack ? readTree(module.FS, WORK, "", {}) : {} };
  }

  return { run };
}
