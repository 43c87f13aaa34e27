// The playground's napkin (napkin-playground.wasm: `run` and `explain`
// without CLI11, no TOML, no probes to run) against the whole command built
// the same way (napkin.wasm, itself compared with the native binary by
// parity_test.mjs): every example through every format the page can ask
// for, byte for byte; and the few things it does otherwise, as written here.
//
//   node tests/wasm/playground_test.mjs WASM_DIR   (from the repository root)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadExamples } from "./examples.mjs";
import { gzipSync } from "node:zlib";

const [wasmDir] = process.argv.slice(2);
if (!wasmDir) {
  console.error("usage: node tests/wasm/playground_test.mjs WASM_DIR");
  process.exit(2);
}
const root = process.cwd();

const { files, examples } = loadExamples(root);

const { loadNapkin } = await import(pathToFileURL(join(root, "web/src/napkin_runner.js")).href);
async function load(name) {
  const { default: factory } = await import(pathToFileURL(resolve(root, wasmDir, `${name}.js`)).href);
  return loadNapkin(new Uint8Array(readFileSync(resolve(root, wasmDir, `${name}.wasm`))), factory);
}
const whole = await load("napkin");
const page = await load("napkin-playground");

function same(args, given = files) {
  const want = whole.run(args, given, { readBack: false });
  const got = page.run(args, given, { readBack: false });
  assert.equal(got.stderr, want.stderr, `stderr of ${args.join(" ")}`);
  assert.equal(got.stdout, want.stdout, `stdout of ${args.join(" ")}`);
  assert.equal(got.code, want.code, `exit status of ${args.join(" ")}`);
  return got;
}

// A usage error: exit 2, nothing on stdout, napkin's E0800 naming `what`.
function refused(args, what) {
  const r = page.run(args, files, { readBack: false });
  assert.equal(r.code, 2, `exit status of ${args.join(" ")}`);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^error\[E0800\]: /);
  assert.ok(r.stderr.includes(what), `${args.join(" ")}: ${r.stderr}`);
  assert.match(r.stderr, /= help: the playground runs `run FILE/);
}

// The value `explain` opens: the file's last value with a formula.
function lastDerived(file) {
  const values = JSON.parse(whole.run(["run", file, "--format", "json"], files).stdout).values ?? {};
  const names = Object.keys(values).filter((k) => values[k].formula !== undefined && values[k].formula !== values[k].display);
  return names.at(-1);
}

// What a page downloads: napkin-playground.wasm within 400 KB gzipped
// (bench/README.md; 392,647 B when this was written). A change that goes past
// it is a change to weigh, not to wave through.
test("the page's module is at most 400,000 bytes gzipped", () => {
  const gz = gzipSync(readFileSync(resolve(root, wasmDir, "napkin-playground.wasm")), { level: 9 }).length;
  assert.ok(gz <= 400_000, `napkin-playground.wasm is ${gz} B gzipped`);
});

test("the examples are all there", () => {
  assert.ok(examples.length >= 16, `only ${examples.length} examples found`);
});

for (const file of examples) {
  test(file, () => {
    for (const format of ["text", "markdown", "latex", "json"]) same(["run", file, "--format", format]);
    same(["run", file, "--format", "json", "--brief"]);
    same(["run", file, "--format", "json", "--brief=values"]);
    same(["run", file, "--steps"]);
    same(["run", file, "--steps=flat", "--format", "markdown", "--checks", "beside"]);
    same(["run", file, "--all", "--digits", "6"]);
    const value = lastDerived(file);
    if (value !== undefined) {
      for (const format of ["text", "json", "markdown", "latex"]) same(["explain", file, value, "--format", format]);
      same(["explain", file, value, "--flat"]);
      same(["explain", file, value, "--depth", "1", "--sources"]);
    }
  });
}

test("the page's own evaluation: a brief report, the values the page shows", () => {
  const r = same(["run", "examples/exercise1_size_a_model.napkin", "--format", "json", "--brief"]);
  assert.equal(r.code, 0);
  const report = JSON.parse(r.stdout);
  assert.equal(report.values["parameters.d_head"].display, "128");
  assert.equal(report.values["parameters.d_head"].formula, "drill.head_dim");
  assert.equal(report.values["parameters.d_head"].substituted, "128");
  assert.equal(report.values["parameters.d_head"].derivation, undefined);
  // A file just opened: its values first, without their formulas.
  const values = JSON.parse(same(["run", "examples/exercise1_size_a_model.napkin", "--format", "json", "--brief=values"]).stdout);
  const { at, ...figures } = values.values["parameters.d_head"];
  assert.deepEqual(figures, { si: 128, unit: "", display: "128", input: false });
  // Where it is written: the page places it there (docs/playground.md).
  assert.equal(at.file, "examples/exercise1_size_a_model.napkin");
  const line = files["examples/exercise1_size_a_model.napkin"].split("\n")[at.line - 1];
  assert.equal(line.slice(at.column - 1, at.end_column - 1), "d_head");
  assert.deepEqual(Object.keys(values.values), Object.keys(report.values));
  assert.deepEqual(values.checks, report.checks);
});

test("errors read the same", () => {
  same(["run", "examples/no_such_file.napkin"]);
  same(["run", "examples/no_such_file.napkin", "--format", "json"]);
  same(["explain", "examples/basics.napkin", "no_such_value"]);
  same(["run", "f.napkin"], { "f.napkin": "x = measure(gpu.copy_bandwith) else 1 TB/s\n" });
  same(["run", "f.napkin"], { "f.napkin": "x = measure(gpu.copy_bandwidth) else 1 TB/s\ny = measure(cpu.copy_bandwidth)\n" });
  same(["run", "f.napkin", "--format", "json"], { "f.napkin": "x = 1 GB + 2 s\n" });
});

test("what the playground does not do is a usage error", () => {
  refused(["run", "f.napkin", "--format", "toml"], "--format: toml is not one of text, json, markdown, latex");
  refused(["check", "f.napkin"], "no command `check` here");
  refused([], "a command is needed");
  refused(["run"], "`run` needs FILE");
  refused(["run", "a.napkin", "b.napkin"], "one argument too many: b.napkin");
  refused(["run", "a.napkin", "--no-measure"], "the playground's `run` has no option --no-measure");
  refused(["run", "a.napkin", "--digits", "40"], "--digits: 40 is not a whole number from 1 to 17");
  refused(["run", "a.napkin", "--digits"], "--digits needs a value");
  refused(["run", "a.napkin", "--all=yes"], "--all takes no value");
  refused(["run", "a.napkin", "--brief"], "--brief shortens the JSON or TOML report");
  refused(["run", "a.napkin", "--format", "json", "--brief=trees"], "--brief: trees is not one of lines, values");
  refused(["explain", "a.napkin"], "`explain` needs NAME");
});

test("a page holds one file: import_toml says so, at its place", () => {
  const r = page.run(["run", "f.napkin"], { "f.napkin": 'hardware mine = import_toml("h200.toml")\n' }, { readBack: false });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^f\.napkin:1:17: error\[E0602\]: the playground holds one file: import_toml\(\.\.\.\) has no profile to read here\n/);
  assert.match(r.stderr, /= help: give the profile's figures as a record in the file, or run napkin on the command line\n$/);
});

// The page's diagnostics are made from the run's JSON (web/src/diagnostics.js).
const { Text } = await import(pathToFileURL(join(root, "web/node_modules/@codemirror/state/dist/index.js")).href);
const { toDiagnostics } = await import(pathToFileURL(join(root, "web/src/diagnostics.js")).href);

test("a solve that finds nothing: the page underlines what `napkin check` reports, E0503 at 8:1", () => {
  const text = readFileSync(join(root, "tests/errors/solve_no_solution.napkin"), "utf8");
  const given = { "f.napkin": text };
  const check = whole.run(["check", "f.napkin"], given, { readBack: false });
  assert.equal(check.code, 2);
  assert.match(check.stderr, /^f\.napkin:8:1: error\[E0503\]: no solution in \[300, 400\]/m);
  const r = page.run(["run", "f.napkin", "--format", "json", "--brief"], given, { readBack: false });
  const doc = Text.of(text.split("\n"));
  const d = toDiagnostics(doc, JSON.parse(r.stdout), "f.napkin");
  assert.equal(d.length, 1, JSON.stringify(d));
  assert.equal(d[0].source, "E0503");
  // The whole statement, line 8, as `check` and the language server place it.
  assert.equal(d[0].from, doc.line(8).from);
  assert.equal(d[0].to, doc.line(8).to);
  assert.match(d[0].message, /^f\.napkin:8:1: error\[E0503\]: no solution in \[300, 400\]/);
  assert.equal(d[0].message.split("\n")[0], check.stderr.split("\n")[0]);
});
