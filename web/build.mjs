// Bundles the playground into dist/index.html, one file that holds the
// editor, the WebAssembly module and the examples: Chromium refuses fetch()
// and module scripts from file://, so nothing may be loaded at run time.
// Usage: node build.mjs WASM_DIR [OUT_DIR]
import * as esbuild from 'esbuild';
import { readFileSync, readdirSync, mkdirSync, writeFileSync, renameSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = dirname(fileURLToPath(import.meta.url));
const root = resolve(web, '..');
const [wasmArg, outArg] = process.argv.slice(2);
if (!wasmArg) {
  console.error('usage: node build.mjs WASM_DIR [OUT_DIR]  (WASM_DIR holds napkin-playground.js and napkin-playground.wasm from `make wasm`)');
  process.exit(2);
}
const wasmDir = resolve(wasmArg);
const outDir = resolve(outArg ?? join(web, 'dist'));
// The playground's napkin (`run` and `explain`, cli/playground_main.cpp), not the whole command.
const GLUE = 'napkin-playground.js', WASM = 'napkin-playground.wasm';
for (const f of [GLUE, WASM]) {
  if (!existsSync(join(wasmDir, f))) {
    console.error(`build.mjs: ${join(wasmDir, f)} is missing; build it with \`make wasm\``);
    process.exit(2);
  }
}

// The examples menu: every examples/*.napkin, by name, in name order.
function examplesModule() {
  const dir = join(root, 'examples');
  const names = readdirSync(dir).filter((n) => n.endsWith('.napkin')).sort();
  const entries = names.map((n) => [n, readFileSync(join(dir, n), 'utf8')]);
  return `export default ${JSON.stringify(Object.fromEntries(entries))};`;
}

// The highlighter's words come from the TextMate grammar the editors use
// (editors/vscode/syntaxes), so the two cannot drift apart.
function keywordsModule() {
  const grammar = JSON.parse(readFileSync(join(root, 'editors/vscode/syntaxes/napkin.tmLanguage.json'), 'utf8'));
  const words = {};
  for (const p of grammar.repository.keywords.patterns) {
    const m = /^\\b\(\?:([A-Za-z|]+)\)\\b$/.exec(p.match);
    if (!m) throw new Error(`build.mjs: a keyword pattern this build cannot read: ${p.match}`);
    words[p.name.replace(/\.napkin$/, '')] = m[1].split('|');
  }
  return `export default ${JSON.stringify(words)};`;
}

const virtual = {
  name: 'napkin-virtual',
  setup(build) {
    // napkin_runner.js names the glue where `make wasm` writes it; the build takes WASM_DIR's.
    build.onResolve({ filter: /(^|\/)build-wasm\/napkin\.js$/ }, () => ({ path: join(wasmDir, GLUE) }));
    build.onResolve({ filter: /^napkin:/ }, (a) => {
      return { path: a.path, namespace: 'napkin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'napkin' }, (a) => {
      if (a.path === 'napkin:examples') return { contents: examplesModule(), loader: 'js' };
      if (a.path === 'napkin:keywords') return { contents: keywordsModule(), loader: 'js' };
      return { errors: [{ text: `unknown module ${a.path}` }] };
    });
  },
};

const options = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari16'],
  minify: true,
  legalComments: 'eof',
  // The emscripten glue names node's modules on a path the browser never takes.
  external: ['fs', 'path', 'crypto', 'url', 'child_process', 'worker_threads', 'perf_hooks', 'ws'],
  plugins: [virtual],
  write: false,
  logLevel: 'warning',
};

const result = await esbuild.build({ ...options, entryPoints: [join(web, 'src/main.js')], outdir: outDir });

let js = '', css = '';
for (const f of result.outputFiles) {
  if (f.path.endsWith('.js')) js = f.text;
  else if (f.path.endsWith('.css')) css = f.text;
}
// The script and the style sheet go inline; a closing tag inside either would end it early.
if (/<\/script/i.test(js) || /<\/style/i.test(css)) throw new Error('build.mjs: the bundle holds a closing tag');
const page = readFileSync(join(web, 'index.html'), 'utf8')
  .replace('<!-- napkin:style -->', () => `<style>${css}</style>`)
  // The .wasm, in base64, in a data block of its own rather than in the
  // script, which is then 0.4 MB instead of 1.7 MB: napkin's start in the
  // page took 97-110 ms with it inside, 75 ms without (bench/README.md).
  .replace('<!-- napkin:wasm -->', () => `<script id="napkin-wasm" type="application/octet-stream">${readFileSync(join(wasmDir, WASM)).toString('base64')}</script>`)
  .replace('<!-- napkin:script -->', () => `<script>${js}</script>`);
mkdirSync(outDir, { recursive: true });
// Written whole or not at all: a half-written page is never left behind.
const tmp = join(outDir, '.index.html.tmp');
writeFileSync(tmp, page);
renameSync(tmp, join(outDir, 'index.html'));
const bytes = Buffer.from(page, 'utf8');
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`web/build.mjs: ${join(outDir, 'index.html')}: ${kib(bytes.length)} (${kib(gzipSync(bytes, { level: 9 }).length)} gzipped)`);
