// The WebAssembly build where it differs from a native machine, or could:
// its stack (a deep file must end in napkin's own error, not a trap), its
// probes (none: measure's `else` applies), every error case of tests/errors/
// read exactly as declared, and one instance used again and again.
//
//   node tests/wasm/limits_test.mjs WASM_DIR   (from the repository root)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [wasmDir] = process.argv.slice(2);
if (!wasmDir) {
  console.error("usage: node tests/wasm/limits_test.mjs WASM_DIR");
  process.exit(2);
}
const root = process.cwd();
const { loadNapkin } = await import(pathToFileURL(join(root, "web/src/napkin_runner.js")).href);
const { default: createNapkin } = await import(pathToFileURL(resolve(root, wasmDir, "napkin.js")).href);
const napkin = await loadNapkin(new Uint8Array(readFileSync(resolve(root, wasmDir, "napkin.wasm"))), createNapkin);

const errors = "tests/errors";
// What the cases import: tests/errors/imports/, folders and all.
function walk(dir, out = {}) {
  for (const name of readdirSync(join(root, dir)).sort()) {
    const p = `${dir}/${name}`;
    if (statSync(join(root, p)).isDirectory()) walk(p, out);
    else out[p] = readFileSync(join(root, p));
  }
  return out;
}
const imports = walk(`${errors}/imports`);

// A case's declaration, as tests/errors/check_case.sh reads it.
function declared(line, name) {
  const m = /^# expect: (E[0-9]{4})(?: at (?:([^ ]+):)?([0-9]+):([0-9]+))?\s*$/.exec(line);
  assert.ok(m, `${name}: no declaration`);
  const [, code, file, l, c] = m;
  return { code, prefix: l ? `${file ?? `${errors}/${name}.napkin`}:${l}:${c}: error[${code}]: ` : `error[${code}]: ` };
}

function checkCase(name, text, declaration) {
  const path = `${errors}/${name}.napkin`;
  const r = napkin.run(["run", path], { ...imports, [path]: text });
  const { code, prefix } = declared(declaration, name);
  assert.ok(r.stderr.startsWith(prefix), `${name}: stderr begins ${JSON.stringify(r.stderr.slice(0, 200))}, not ${prefix}`);
  assert.equal(r.code, code === "E0500" ? 1 : 2, `${name}: exit status`);
  assert.equal(r.stderr, readFileSync(join(root, errors, `${name}.err`), "utf8"), `${name}: stderr is ${name}.err`);
}

test("every error case reads as declared", () => {
  const cases = readdirSync(join(root, errors)).filter((n) => n.endsWith(".napkin"));
  assert.ok(cases.length > 100, `only ${cases.length} error cases`);
  for (const file of cases) {
    // As bytes: some cases are not valid UTF-8 on purpose.
    const bytes = readFileSync(join(root, errors, file));
    checkCase(file.replace(/\.napkin$/, ""), bytes, bytes.toString("utf8").split("\n")[0]);
  }
});

const generated = (name) => execFileSync("awk", ["-f", join(root, errors, "generated", `${name}.awk`)], { encoding: "utf8", maxBuffer: 256 << 20 });

// Too deep for the browser's stack as well as for napkin's limit: below.
const deep = ["field_chain_too_deep", "extends_chain_too_deep"];

test("the generated error cases read as declared (the big ones)", () => {
  for (const file of readdirSync(join(root, errors, "generated")).filter((n) => n.endsWith(".awk"))) {
    const name = file.replace(/\.awk$/, "");
    if (deep.includes(name)) continue;
    const awk = readFileSync(join(root, errors, "generated", file), "utf8");
    checkCase(name, generated(name), awk.split("\n").find((l) => l.startsWith("# expect:")));
  }
});

// napkin's own depth error, E0701, at the field or record where evaluation
// stopped: past its limit of 2000 levels where the stack allows that, or
// where the stack guard finds too little stack left. WebAssembly's stack is
// smaller than a native thread's 8 MiB, and the engine's own stack, which
// the module's calls also use, smaller still (about 1 MB in Node.js and
// Chromium): the module's C++ stack is sized so that the guard stops first.
const depthError = (name) =>
  new RegExp(
    `^${name.replace(/[.]/g, "\\.")}:[0-9]+:[0-9]+: error\\[E0701\\]: evaluation nested (deeper than 2000 levels|too deeply for this thread's stack) \\(a very long chain of records or fields\\)\n`,
  );

test("a chain deeper than the stack ends in napkin's depth error, never in the engine's", () => {
  for (const name of deep) {
    const path = `${errors}/${name}.napkin`;
    for (let k = 0; k < 2; k++) {  // the second time on code the engine has optimised
      const r = napkin.run(["run", path], { [path]: generated(name) });
      assert.equal(r.code, 2, `${name}: ${r.stderr.slice(0, 300)}`);
      assert.match(r.stderr, depthError(path));
    }
  }
  // Every depth either evaluates or is E0701: fields each needing the next,
  // and records each extending the next.
  const fields = (n) => {
    let t = "record r {\n";
    for (let i = n; i >= 1; i--) t += `  a${i} = a${i - 1} + 1\n`;
    return `${t}  a0 = 0\n}\n`;
  };
  const records = (n) => {
    let t = "";
    for (let i = n; i >= 1; i--) t += `record r${i} extends r${i - 1} { }\n`;
    return `${t}record r0 { x = 1 }\n`;
  };
  for (const [shape, gen] of [["fields", fields], ["records", records]]) {
    for (const n of [250, 500, 1000, 1500, 1750, 2000, 2500, 4000]) {
      for (let k = 0; k < 2; k++) {
        const r = napkin.run(["run", "deep.napkin"], { "deep.napkin": gen(n) });
        assert.ok(r.code === 0 || r.code === 2, `${n} ${shape}: exit ${r.code}: ${r.stderr.slice(0, 200)}`);
        if (r.code === 2) assert.match(r.stderr, depthError("deep.napkin"), `${n} ${shape}`);
      }
    }
  }
  // A chain of 250 evaluates, as it does natively: a250 = a249 + 1, ..., a0 = 0.
  const ok = napkin.run(["explain", "deep.napkin", "r.a250", "--depth", "0"], { "deep.napkin": fields(250) });
  assert.equal(ok.stderr, "");
  assert.equal(ok.code, 0);
  assert.equal(ok.stdout, "r.a250 = a249 + 1\n       = 249 + 1\n       = 250  (…)\n");
});

test("measure(...) has no probe in WebAssembly: its else applies, and without one it is E0900", () => {
  const text = [
    'import "std/hardware"',
    "",
    "hardware mine extends h200 {",
    "  memory_bandwidth = measure(gpu.copy_bandwidth) else 4.01 TB/s",
    "}",
    "",
  ].join("\n");
  const r = napkin.run(["explain", "lab.napkin", "mine.memory_bandwidth"], { "lab.napkin": text });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /= 4\.01 TB\/s {2}\[fallback: the browser has no probes \(napkin runs here as WebAssembly\)\]/);

  const bare = "x = measure(cpu.copy_bandwidth)\n";
  const e = napkin.run(["run", "bare.napkin"], { "bare.napkin": bare });
  assert.equal(e.code, 2);
  assert.match(
    e.stderr,
    /^bare\.napkin:1:5: error\[E0900\]: `cpu\.copy_bandwidth` could not be measured: the browser has no probes \(napkin runs here as WebAssembly\)\n/,
  );
  assert.match(e.stderr, /give a value to use instead: `measure\(cpu\.copy_bandwidth\) else 4\.8 TB\/s`/);
});

test("one instance serves many runs: the same answer warm, an edit seen, nothing left from the last run", () => {
  const path = "examples/exercise1_size_a_model.napkin";
  const text = readFileSync(join(root, path), "utf8");
  const first = napkin.run(["run", path, "--no-measure"], { [path]: text });
  assert.equal(first.code, 0, first.stderr);
  for (let i = 0; i < 3; i++) assert.deepEqual(napkin.run(["run", path, "--no-measure"], { [path]: text }), first);

  const a = napkin.run(["run", "v.napkin"], { "v.napkin": "x = 2 GB\n" });
  const b = napkin.run(["run", "v.napkin"], { "v.napkin": "x = 3 GB\n" });
  assert.equal(a.stdout, "x = 2 GB\n");
  assert.equal(b.stdout, "x = 3 GB\n");

  // v.napkin was given to the runs above, not to this one.
  const gone = napkin.run(["run", "v.napkin"], {});
  assert.equal(gone.code, 2);
  assert.equal(gone.stderr, "error[E0602]: cannot read v.napkin: No such file or directory\n");
});

test("a file napkin rewrites comes back in files", () => {
  const r = napkin.run(["fmt", "-w", "f.napkin"], { "f.napkin": "x   =  1 GB\n" });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(Object.keys(r.files), ["f.napkin"]);
  assert.equal(r.files["f.napkin"], "x = 1 GB\n");
});
