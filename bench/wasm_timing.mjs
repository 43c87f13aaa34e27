// The WebAssembly build's figures under Node.js (bench/README.md, "The
// WebAssembly build"): the .wasm's size raw and gzipped, the time to compile
// and start it, napkin's first evaluation of exercise 1 on a fresh instance,
// and a warm re-evaluation (the same instance, the next edit), as the
// playground runs them through web/src/napkin_runner.js.
//
//   node bench/wasm_timing.mjs [WASM_DIR] [RUNS] [NAME]   (from the repository root; build-wasm, 50,
//   napkin: the whole command; napkin-playground: the page's)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const wasmDir = process.argv[2] ?? "build-wasm";
const runs = Number(process.argv[3] ?? 50);
const name = process.argv[4] ?? "napkin";
const root = process.cwd();
const example = "examples/exercise1_size_a_model.napkin";
const text = readFileSync(resolve(root, example), "utf8");
const args = ["run", example];
const files = { [example]: text };

const wasm = new Uint8Array(readFileSync(resolve(root, wasmDir, `${name}.wasm`)));
const glue = readFileSync(resolve(root, wasmDir, `${name}.js`));
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const ms = (t) => `${t.toFixed(2)} ms`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const { default: createNapkin } = await import(pathToFileURL(resolve(root, wasmDir, `${name}.js`)).href);
const { loadNapkin } = await import(pathToFileURL(resolve(root, "web/src/napkin_runner.js")).href);

// Each fresh instance in turn: start-up, then its first evaluation.
const starts = [];
const firsts = [];
let napkin;
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  napkin = await loadNapkin(wasm, createNapkin);
  const t1 = performance.now();
  const r = napkin.run(args, files);
  const t2 = performance.now();
  if (r.code !== 0) throw new Error(`napkin ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  starts.push(t1 - t0);
  firsts.push(t2 - t1);
}

// The same instance again and again, each run a new edit of the file (a
// number changed, as a user types: the vocabulary), then the text as it is.
const warm = [];
for (let i = 0; i < runs; i++) {
  const edited = { [example]: text.replace("vocab           = 64000", `vocab           = ${64001 + i}`) };
  if (edited[example] === text) throw new Error(`${example} no longer has the line this benchmark edits`);
  const t0 = performance.now();
  const r = napkin.run(args, edited);
  warm.push(performance.now() - t0);
  // A changed vocabulary fails the checks that pin the parameter count (exit 1): evaluation as usual.
  if (r.code !== 1) throw new Error(`edit ${i}: exited ${r.code}: ${r.stderr}`);
}
const warmSame = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  napkin.run(args, files);
  warmSame.push(performance.now() - t0);
}
const json = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  napkin.run(["run", example, "--format", "json"], files);
  json.push(performance.now() - t0);
}
const brief = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  napkin.run(["run", example, "--format", "json", "--brief"], files, { readBack: false });
  brief.push(performance.now() - t0);
}

console.log(`${name}.wasm          ${kb(wasm.length)} raw, ${kb(gzipSync(wasm, { level: 9 }).length)} gzipped (gzip -9)`);
console.log(`${name}.js (glue)     ${kb(glue.length)} raw, ${kb(gzipSync(glue, { level: 9 }).length)} gzipped`);
console.log(`node ${process.versions.node}, ${example}:`);
console.log(`start-up (compile, instantiate)  median ${ms(median(starts))} of ${starts.length} (min ${ms(Math.min(...starts))})`);
console.log(`first evaluation (fresh instance) median ${ms(median(firsts))} of ${firsts.length} (min ${ms(Math.min(...firsts))})`);
console.log(`warm re-evaluation, an edit     median ${ms(median(warm))} of ${runs} (min ${ms(Math.min(...warm))})`);
console.log(`warm re-evaluation, same text   median ${ms(median(warmSame))} of ${runs} (min ${ms(Math.min(...warmSame))})`);
console.log(`warm, --format json             median ${ms(median(json))} of ${runs} (min ${ms(Math.min(...json))})`);
console.log(`warm, --format json --brief     median ${ms(median(brief))} of ${runs} (min ${ms(Math.min(...brief))})`);
