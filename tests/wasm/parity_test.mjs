// The WebAssembly build against the native one: every example of examples/
// (recursively), through every format of `run`, `check`, `explain` of a
// value, `fmt` and `handout`, run by both and compared byte for byte (exit
// status, standard output, standard error). The expectation is the native
// binary's output of the same command line, run from the repository root
// with the same relative path: the point is that the browser shows what the
// command line prints.
//
//   node tests/wasm/parity_test.mjs NATIVE_NAPKIN WASM_DIR   (from the repository root)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadExamples } from "./examples.mjs";

const [native, wasmDir] = process.argv.slice(2);
if (!native || !wasmDir) {
  console.error("usage: node tests/wasm/parity_test.mjs NATIVE_NAPKIN WASM_DIR");
  process.exit(2);
}
const root = process.cwd();

const { files, examples } = loadExamples(root);

function runNative(args) {
  // Measuring is the machine's: both builds run with it off (--no-measure),
  // which the measure test below leaves out on purpose.
  const env = { ...process.env };
  delete env.NAPKIN_NO_MEASURE;
  const r = spawnSync(native, args, { cwd: root, env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const { loadNapkin } = await import(pathToFileURL(join(root, "web/src/napkin_runner.js")).href);
const { default: createNapkin } = await import(pathToFileURL(resolve(root, wasmDir, "napkin.js")).href);
const napkin = await loadNapkin(new Uint8Array(readFileSync(resolve(root, wasmDir, "napkin.wasm"))), createNapkin);

function same(args) {
  const want = runNative(args);
  const got = napkin.run(args, files);
  assert.equal(got.stderr, want.stderr, `stderr of napkin ${args.join(" ")}`);
  assert.equal(got.stdout, want.stdout, `stdout of napkin ${args.join(" ")}`);
  assert.equal(got.code, want.code, `exit status of napkin ${args.join(" ")}`);
  return want;
}

// The value `explain` opens: the file's last value with a formula (a derived
// one, in every example), as the native JSON report lists them.
function lastDerived(file) {
  const r = runNative(["run", file, "--format", "json", "--no-measure"]);
  const values = JSON.parse(r.stdout).values ?? {};
  const names = Object.keys(values).filter((k) => values[k].formula !== undefined && values[k].formula !== values[k].display);
  return names.at(-1);
}

test("the examples are all there", () => {
  // examples/ as this test was written: 16 files, 4 of them in subfolders.
  assert.ok(examples.length >= 16, `only ${examples.length} examples found`);
  assert.ok(examples.some((p) => p.startsWith("examples/grading/")));
});

for (const file of examples) {
  test(file, () => {
    for (const format of ["text", "markdown", "latex", "json", "toml"]) same(["run", file, "--format", format, "--no-measure"]);
    same(["run", file, "--steps", "--no-measure"]);
    same(["run", file, "--format", "json", "--brief=values", "--no-measure"]);
    same(["check", file, "--no-measure"]);
    same(["check", file, "--format", "json", "--no-measure"]);
    const value = lastDerived(file);
    if (value !== undefined) {
      same(["explain", file, value, "--no-measure"]);
      same(["explain", file, value, "--flat", "--no-measure"]);
    }
    same(["fmt", file]);
    for (const format of ["text", "markdown", "latex"]) same(["handout", file, "--format", format, "--no-measure"]);
  });
}

test("errors and usage read the same", () => {
  same(["run", "examples/no_such_file.napkin"]);
  same(["run"]);
  same(["explain", "examples/basics.napkin", "no_such_value", "--no-measure"]);
  same(["--version"]);
  same(["--help"]);
});
