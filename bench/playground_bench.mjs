// The playground in Chromium (Debian's, headless, through playwright-core):
// how long after the page starts loading exercise 1's values are on screen,
// how long a warm re-evaluation of it takes, and how large the page is.
// Usage: node bench/playground_bench.mjs [WASM_DIR] [--loads N] [--runs N] [--alone] [--firefox]
// (--alone: the page's marks with no DevTools attached and nothing else;
// --firefox: also the marks in Debian's Firefox ESR, through puppeteer-core)
// (after `make playground`; WASM_DIR, default build-wasm, for the size of
// the .wasm the page holds, napkin-playground.wasm).
import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { launch, launchFirefox, fileUrl, serve, pageFile, requireDist, chromiumArgs, chromiumPath } from '../web/tests/browser.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const loads = option('--loads', 10);
const runs = option('--runs', 100);
const aloneOnly = argv.includes('--alone');
const inFirefox = argv.includes('--firefox');
const wasmDir = resolve(argv.find((a, i) => !a.startsWith('--') && !['--loads', '--runs'].includes(argv[i - 1])) ?? 'build-wasm');

// The page's marks, from its script's start: napkin compiled and started,
// the first evaluation (values alone) asked for, begun and answered, the
// editor's state made (the file, its first 3,000 characters highlighted),
// the values and diagnostics placed in it, the editor made (its DOM and
// layout, with those values), the values
// drawn (in the editor's DOM) and painted (a task after the next frame; with
// no DevTools attached no frame comes, and this is the page's 50 ms
// fallback), and the next evaluation (their formulas) drawn.
const MARKS = ['napkinReady', 'firstAsked', 'firstRunStarted', 'firstAnswered', 'stateMade', 'valuesPlaced', 'editorCreated', 'firstDrawn', 'firstPainted', 'formulasDrawn'];

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x) => `${x.toFixed(1)} ms`;
// Each mark of `loads` (the marks of one load each) from the script's start: median, slowest.
const printMarks = (loads) => {
  for (const name of MARKS) {
    const xs = loads.map((m) => m[name] - m.scriptStart);
    console.log(`  ${name}: ${ms(median(xs))}, ${ms(Math.max(...xs))}`);
  }
};
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;

async function marksWithoutDevTools() {
  // The frame's marks come back by a POST; an image the server answers only
  // then holds the page's load event, so that Chromium does not print the
  // DOM and leave before the formulas are drawn.
  const wrapper = `<!doctype html><body><iframe src="/" width="1400" height="900"></iframe><img src="/hold" alt=""><script>
    const f = document.querySelector('iframe');
    const poll = () => {
      const p = f.contentWindow && f.contentWindow.napkinPlayground;
      if (!p || p.withFormulas === 0) return setTimeout(poll, 5);
      fetch('/marks', { method: 'POST', body: JSON.stringify(p.marks) });
    };
    poll();
  </script>`;
  const dist = resolve(pageFile, '..');
  let hold = null, got;
  const marks = new Promise((ok) => { got = ok; });
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/bench.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(wrapper);
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(dist, 'index.html')));
    if (path === '/hold') { hold = res; return; }
    if (path === '/marks') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        got(JSON.parse(body));
        res.writeHead(204).end();
        hold?.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const profile = mkdtempSync(join(tmpdir(), 'napkin-chromium-'));
  try {
    const browser = new Promise((ok, fail) => {
      execFile(chromiumPath(),
        [...chromiumArgs(), `--user-data-dir=${profile}`, '--timeout=20000', '--dump-dom', `http://127.0.0.1:${server.address().port}/bench.html`],
        { maxBuffer: 1 << 24 }, (e) => (e ? fail(e) : ok()));
    });
    const m = await Promise.race([marks, browser.then(() => null)]);
    if (!m) throw new Error('the playground drew no formulas with no DevTools attached');
    await browser;
    return m;
  } finally {
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

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

  for (const [origin, url] of aloneOnly ? [] : [['file://', fileUrl()], ['http://127.0.0.1', server.url]]) {
    // Each load in a browser of its own: a new tab of the same browser may
    // share a renderer process with the last, whose engine keeps the module
    // it compiled (and the code it optimised) for the same bytes.
    const first = [], sinceLoad = [], startup = [], firstRun = [], marks = [];
    for (let i = 0; i < loads; i++) {
      const fresh = await launch();
      const tab = await fresh.context.newPage();
      await tab.goto(url);
      await tab.waitForFunction(() => window.napkinPlayground?.withFormulas > 0, null, { timeout: 20000 });
      const t = await tab.evaluate(() => {
        const p = window.napkinPlayground;
        // Painted: a task after the frame that shows the first evaluation's values.
        return { first: p.marks.firstPainted - performance.timeOrigin, script: p.scriptStart, loadMs: p.loadMs, run: p.timings[0].run, marks: p.marks };
      });
      first.push(t.first);
      sinceLoad.push(t.first - t.script);
      startup.push(t.loadMs);
      firstRun.push(t.run);
      marks.push(t.marks);
      await fresh.close();
    }
    console.log(`${origin}, ${loads} loads (median, slowest):`);
    console.log(`  values painted after navigation starts: ${ms(median(first))}, ${ms(Math.max(...first))}`);
    console.log(`  values painted after the page has loaded (its script starts): ${ms(median(sinceLoad))}, ${ms(Math.max(...sinceLoad))}`);
    console.log(`  of which napkin's start (compile and instantiate the .wasm): ${ms(median(startup))}, ${ms(Math.max(...startup))}`);
    console.log(`  and the first \`napkin run --format json --brief=values\`: ${ms(median(firstRun))}, ${ms(Math.max(...firstRun))}`);
    // The page's marks, from its script's start: napkin compiled and
    // started, the editor made, the first evaluation asked for, answered, drawn.
    for (const name of MARKS) console.log(`  ${name}: ${ms(median(marks.map((m) => m[name] - m.scriptStart)))}`);
  }

  // The same marks with no DevTools protocol attached, which slows
  // emscripten's start several times over: Chromium alone, printing the DOM
  // of a page on 127.0.0.1 that holds the playground in a frame and writes
  // the frame's marks into itself once its formulas are drawn.
  const alone = [];
  for (let i = 0; i < loads; i++) alone.push(await marksWithoutDevTools());
  console.log(`http://127.0.0.1 with no DevTools attached, ${loads} loads (median, slowest), from the page's script start:`);
  printMarks(alone);
  const since = (name) => alone.map((m) => m[name] - m.navigationStart);
  console.log(`  from navigation start (the frame's document requested): its script started ${ms(median(since('scriptStart')))}, `
    + `the first evaluation answered ${ms(median(since('firstAnswered')))}, its values drawn ${ms(median(since('firstDrawn')))}`);

  if (inFirefox) {
    // Each load in a Firefox of its own, from disk, through WebDriver BiDi.
    const got = [];
    for (let i = 0; i < loads; i++) {
      const firefox = await launchFirefox();
      try {
        const tab = await firefox.browser.newPage();
        await tab.goto(fileUrl());
        await tab.waitForFunction(() => window.napkinPlayground?.withFormulas > 0, { timeout: 20000 });
        got.push(await tab.evaluate(() => window.napkinPlayground.marks));
      } finally {
        await firefox.close();
      }
    }
    console.log(`Firefox ESR, file://, ${loads} loads (median, slowest), from the page's script start:`);
    printMarks(got);
  }

  if (!aloneOnly) {
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
  }
} finally {
  await browser.close();
  await server.close();
}
