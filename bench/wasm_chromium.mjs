// WebAssembly builds of the playground's napkin side by side in Chromium
// (Debian's, headless, through playwright-core): for each NAME, DIR/NAME.js
// and DIR/NAME.wasm are loaded into a blank page of a browser of its own,
// and exercise 1 is evaluated as the playground evaluates it (`run --format
// json --brief`): the module's start, the first evaluation, the next four,
// and the median of the last 100 of 200 more (the engine has optimised the
// hot functions by then). bench/README.md compares -Oz, -Os and -O2
// with and without link-time optimisation this way.
//
//   node bench/wasm_chromium.mjs [--values] DIR NAME...   (from the repository root, after `make playground`)
//
// --values: `run --format json --brief=values`, as the page evaluates a
// file it has just opened. NAPKIN_CHROMIUM_ARGS (web/tests/browser.mjs)
// passes the browser more arguments, such as --js-flags.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from '../web/node_modules/esbuild/lib/main.js';
import { launch } from '../web/tests/browser.mjs';

const argv = process.argv.slice(2);
const valuesOnly = argv[0] === '--values';
const [dirArg, ...names] = valuesOnly ? argv.slice(1) : argv;
if (!dirArg || names.length === 0) {
  console.error('usage: node bench/wasm_chromium.mjs [--values] DIR NAME...   (DIR/NAME.js and DIR/NAME.wasm, from make wasm)');
  process.exit(2);
}
const dir = resolve(dirArg);
const example = readFileSync('examples/exercise1_size_a_model.napkin', 'utf8');
// The runner the page uses, as a classic script (window.NR.loadNapkin).
const runner = (await esbuild.build({
  entryPoints: ['web/src/napkin_runner.js'], bundle: true, format: 'iife', globalName: 'NR', write: false,
  platform: 'browser', external: ['fs', 'path', 'crypto', 'url', 'child_process', 'worker_threads', 'perf_hooks', 'ws'],
  plugins: [{ name: 'glue', setup: (b) => b.onResolve({ filter: /build-wasm\/napkin\.js$/ }, () => ({ path: join(dir, `${names[0]}.js`) })) }],
})).outputFiles[0].text;

const server = http.createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>napkin</title>');
  if (path === '/runner.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(runner);
  const name = path.slice(1);
  if (!/^[\w.-]+\.(js|wasm)$/.test(name)) return res.writeHead(404).end();
  try {
    res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'application/wasm' }).end(readFileSync(join(dir, name)));
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/`;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

for (const name of names) {
  const rows = [];
  for (let k = 0; k < 5; k++) {
    const browser = await launch();
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.addScriptTag({ url: '/runner.js' });
    await page.addScriptTag({ url: `/${name}.js` });
    rows.push(await page.evaluate(async ({ name, example, valuesOnly }) => {
      const bytes = new Uint8Array(await (await fetch(`/${name}.wasm`)).arrayBuffer());
      const args = ['run', 'ex.napkin', '--format', 'json', valuesOnly ? '--brief=values' : '--brief'];
      const files = { 'ex.napkin': example };
      const t0 = performance.now();
      const napkin = await NR.loadNapkin(bytes, createNapkin);
      const t1 = performance.now();
      const r = napkin.run(args, files, { readBack: false });
      const t2 = performance.now();
      if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
      const times = [];
      for (let i = 0; i < 200; i++) {
        const a = performance.now();
        napkin.run(args, files, { readBack: false });
        times.push(performance.now() - a);
      }
      const warm = times.slice(100).sort((a, b) => a - b);
      return { start: t1 - t0, first: t2 - t1, next: times.slice(0, 4), warm: warm[warm.length >> 1] };
    }, { name, example, valuesOnly }));
    await browser.close();
  }
  const f = (x) => x.toFixed(1);
  console.log(`${name}: start ${f(median(rows.map((r) => r.start)))} ms, first evaluation ${f(median(rows.map((r) => r.first)))} ms, ` +
    `the next four ${rows[2].next.map((x) => x.toFixed(0)).join(', ')} ms, warm ${f(median(rows.map((r) => r.warm)))} ms (medians of 5 browsers)`);
}
server.close();
