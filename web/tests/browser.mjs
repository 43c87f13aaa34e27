// Debian's Chromium driven by playwright-core and its Firefox ESR driven by
// puppeteer-core (browsers cannot be downloaded here), and a static server
// on 127.0.0.1 for web/dist: what the playground's tests and its benchmark
// share.
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import http from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { webDir } from './files.mjs';

export { webDir, example } from './files.mjs';
export const distDir = resolve(process.env.NAPKIN_PLAYGROUND_DIST ?? join(webDir, 'dist'));
export const pageFile = join(distDir, 'index.html');

export function requireDist() {
  if (!existsSync(pageFile)) {
    throw new Error(`${pageFile} is missing: build the playground first (\`make playground\`)`);
  }
}

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

// CHROMIUM_ARGS and the benchmarks' NAPKIN_CHROMIUM_ARGS, one argument per
// line (say --js-flags=--liftoff-only, to see what the engine's tiers cost).
export const chromiumArgs = () => [...CHROMIUM_ARGS, ...(process.env.NAPKIN_CHROMIUM_ARGS ?? '').split('\n').filter(Boolean)];
export const chromiumPath = () => process.env.NAPKIN_CHROMIUM ?? '/usr/bin/chromium';

// A fresh profile in a new user-data-dir, removed by close().
export async function launch({ width = 1400, height = 900 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'napkin-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(), headless: true, args: chromiumArgs(), viewport: { width, height },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Firefox ESR in a fresh profile, over WebDriver BiDi (playwright-core
// drives only its own build of Firefox); close() removes the profile.
export const firefoxPath = () => process.env.NAPKIN_FIREFOX ?? '/usr/bin/firefox-esr';
export async function launchFirefox({ width = 1400, height = 900 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'napkin-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox', protocol: 'webDriverBiDi', executablePath: firefoxPath(), headless: true,
    userDataDir: profile, defaultViewport: { width, height },
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Serves distDir on 127.0.0.1 at a port the system picks.
export async function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(distDir, rel.endsWith('/') ? join(rel, 'index.html') : rel);
    if (!file.startsWith(distDir) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

export const fileUrl = () => pathToFileURL(pageFile).href;

// A screenshot of `page` as NAPKIN_SCREENSHOTS/NAME.png, where that is set
// (Playwright's and puppeteer's pages take the same call).
export async function screenshot(page, name) {
  const dir = process.env.NAPKIN_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

// The colour the editor draws each of `texts` in (the first token spelt so),
// or null where no token is.
export const coloursOf = (page, texts) => page.evaluate((list) => {
  const spans = [...document.querySelectorAll('.cm-line span')];
  return list.map((t) => { const s = spans.find((x) => x.textContent === t); return s ? getComputedStyle(s).color : null; });
}, texts);

// Opens `url` and waits for its values and then their formulas (the
// evaluation that follows the first, values-only one).
export async function openPlayground(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  await page.goto(url);
  await page.waitForFunction(() => window.napkinPlayground && window.napkinPlayground.withFormulas > 0, null, { timeout: 20000 });
  return { page, problems };
}
