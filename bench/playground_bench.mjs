// The playground in Chromium (Debian's, headless, through playwright-core):
// how long after the page starts loading exercise 1's values are on screen,
// how long a warm re-evaluation of it takes, and how large the page is.
// Usage: node bench/playground_bench.mjs [WASM_DIR] [--loads N] [--runs N]
// (after `make playground`; WASM_DIR, default build-wasm, for the size of
// the .wasm the page holds, napkin-playground.wasm).
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { launch, fileUrl, serve, pageFile, requireDist } from '../web/tests/browser.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const loads = option('--loads', 10);
const runs = option('--runs', 100);
const wasmDir = resolve(argv.find((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--'))) ?? 'build-wasm');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x) => `${x.toFixed(1)} ms`;
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;

requireDist();
const browser = await launch();
const server = await serve();
try {
  // Sizes: the page (everything: editor, examples, the .wasm inside) and the .wasm alone.
  const page = readFileSync(pageFile);
  console.log(`page web/dist/index.html: ${kib(page.length)}, ${kib(gzipSync(page, { level: 9 }).length)} gzipped`);
  const wasmFile = join(wasmDir, 'napkin-playground.wasm');
  if (existsSync(wasmFile)) {
    const wasm = readFileSync(wasmFile);
    const gz = gzipSync(wasm, { level: 9 }).length;
    console.log(`napkin-playground.wasm: ${wasm.length} B (${kib(wasm.length)}), ${gz} B gzipped (${kib(gz)})`);
  }

  for (const [origin, url] of [['file://', fileUrl()], ['http://127.0.0.1', server.url]]) {
    // Each load in a browser of its own: a new tab of the same browser may
    // share a renderer process with the last, whose engine keeps the module
    // it compiled (and the code it optimised) for the same bytes.
    const first = [], sinceLoad = [], startup = [], firstRun = [], marks = [];
    for (let i = 0; i < loads; i++) {
      const fresh = await launch();
      const tab = await fresh.context.newPage();
      await tab.goto(url);
      await tab.waitForFunction(() => window.napkinPlayground?.evaluations > 0, null, { timeout: 20000 });
      const t = await tab.evaluate(() => {
        const p = window.napkinPlayground;
        return { first: p.firstEvaluation, script: p.scriptStart, loadMs: p.loadMs, run: p.timings[0].run, marks: p.marks };
      });
      first.push(t.first);
      sinceLoad.push(t.first - t.script);
      startup.push(t.loadMs);
      firstRun.push(t.run);
      marks.push(t.marks);
      await fresh.close();
    }
    console.log(`${origin}, ${loads} loads (median, slowest):`);
    console.log(`  values on screen after navigation starts: ${ms(median(first))}, ${ms(Math.max(...first))}`);
    console.log(`  values on screen after the page has loaded (its script starts): ${ms(median(sinceLoad))}, ${ms(Math.max(...sinceLoad))}`);
    console.log(`  of which napkin's start (compile and instantiate the .wasm): ${ms(median(startup))}, ${ms(Math.max(...startup))}`);
    console.log(`  and the first \`napkin run --format json --brief\`: ${ms(median(firstRun))}, ${ms(Math.max(...firstRun))}`);
    // The page's marks, from its script's start: napkin compiled and
    // started, the editor made, the first evaluation asked for, answered, drawn.
    for (const name of ['napkinReady', 'editorCreated', 'firstAsked', 'firstRunStarted', 'firstAnswered', 'firstDrawn'])
      console.log(`  ${name}: ${ms(median(marks.map((m) => m[name] - m.scriptStart)))}`);
  }

  // Warm: the same page evaluating exercise 1 again and again.
  const tab = await browser.context.newPage();
  await tab.goto(fileUrl());
  await tab.waitForFunction(() => window.napkinPlayground?.evaluations > 0, null, { timeout: 20000 });
  const warm = await tab.evaluate(async (n) => {
    const p = window.napkinPlayground;
    const from = p.timings.length;
    for (let i = 0; i < n; i++) await p.evaluate();
    return p.timings.slice(from);
  }, runs);
  await tab.close();
  const run = warm.map((t) => t.run), total = warm.map((t) => t.total);
  console.log(`warm re-evaluation of exercise 1, ${runs} runs (median, 90th percentile):`);
  console.log(`  \`napkin run --format json --brief\` in the .wasm: ${ms(median(run))}, ${ms(pct(run, 0.9))}`);
  console.log(`  with the page's update (values, diagnostics): ${ms(median(total))}, ${ms(pct(total, 0.9))}`);
} finally {
  await browser.close();
  await server.close();
}
