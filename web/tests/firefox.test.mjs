// The playground in Firefox (Debian's firefox-esr, headless, driven by
// puppeteer-core over WebDriver BiDi; playwright-core drives only its own
// build of Firefox): opened from disk, it evaluates exercise 1, an edit
// moves a value and underlines the check it breaks, a click opens a
// derivation, and a share link opens the same file again. The same page
// and figures as playground.test.mjs, which covers each in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileUrl, launchFirefox, requireDist, example, screenshot, coloursOf } from './browser.mjs';

const exercise = example('exercise1_size_a_model.napkin');

let firefox;
let browser;
before(async () => {
  requireDist();
  firefox = await launchFirefox();
  browser = firefox.browser;
});
after(async () => {
  await firefox?.close();
});

async function open(url) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  await page.goto(url);
  await page.waitForFunction(() => window.napkinPlayground?.withFormulas > 0, { timeout: 20000 });
  return { page, problems };
}
const valueText = (page, key) => page.$eval(`.nv-value[data-key="${key}"]`, (e) => e.textContent);
// Puts the cursor at the end of the line that shows `text`.
async function endOf(page, text) {
  const box = await page.evaluate((t) => {
    const l = [...document.querySelectorAll('.cm-line')].find((x) => x.textContent.includes(t));
    l.scrollIntoView({ block: 'center' });
    const r = l.getBoundingClientRect();
    return { x: r.left + 4, y: r.top + 4 };
  }, text);
  await page.mouse.click(box.x, box.y);
  await page.keyboard.press('End');
}
const shot = (page, name) => screenshot(page, `firefox-${name}`);

test('firefox: opens with exercise 1, evaluated, every check passing', async () => {
  const { page, problems } = await open(fileUrl());
  assert.equal(await page.evaluate(() => window.napkinPlayground.doc()), exercise);
  assert.equal(await valueText(page, 'parameters.d_head'), '128');
  assert.equal(await valueText(page, 'drill.heads'), '48');
  assert.match(await page.$eval('#status', (e) => e.textContent), /no errors · (\d+) of \1 checks pass/);
  // Highlighted as in Chromium: a keyword and a comment in their colours.
  const colours = await coloursOf(page, ['import', '# GQA']);
  assert.deepEqual(colours, ['rgb(123, 45, 139)', 'rgb(95, 107, 95)']);
  await shot(page, '1-opened');
  assert.deepEqual(problems, []);
  await page.close();
});

test('firefox: an edit moves a value and underlines the check it breaks; a click opens a derivation', async () => {
  const { page, problems } = await open(fileUrl());
  await endOf(page, 'heads           = 48');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('96');
  await page.waitForFunction(() => document.querySelector('.nv-value[data-key="parameters.d_head"]')?.textContent === '64');
  // E0500 over the check's condition, its primary label's span in the run's JSON.
  await page.waitForFunction(() => [...document.querySelectorAll('.cm-lintRange-error')].some((e) => e.textContent === 'parameters.d_head == 128'));
  assert.match(await page.$eval('#problems-list', (e) => e.textContent), /:58:7: error\[E0500\]: check failed: 64 == 128 is false/);
  await shot(page, '2-edited');
  await page.click('.nv-value[data-key="parameters.textbook_layer"]');
  await page.waitForFunction(() => document.querySelector('#derivation h2')?.textContent.includes('parameters.textbook_layer'));
  assert.equal(await page.$eval('#derivation .dv-flat', (e) => e.textContent),
    'parameters.textbook_layer = 12 · 6,144^2 · 1 param = 452,984,832 param');
  await shot(page, '3-derivation');
  assert.deepEqual(problems, []);
  await page.close();
});

test('firefox: a share link opens the same file again', async () => {
  const { page } = await open(fileUrl());
  await endOf(page, 'heads           = 48');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('96');
  await page.waitForFunction(() => document.querySelector('.nv-value[data-key="parameters.d_head"]')?.textContent === '64');
  const edited = exercise.replace('heads           = 48', 'heads           = 96');
  await page.click('#share');
  await page.waitForFunction(() => document.querySelector('#share-url')?.value.includes('#f='));
  const link = await page.$eval('#share-url', (e) => e.value);
  assert.match(new URL(link).hash, /^#f=exercise1_size_a_model\.napkin&z=[A-Za-z0-9_-]+$/);
  await page.close();
  const again = await open(link);
  assert.equal(await again.page.evaluate(() => window.napkinPlayground.doc()), edited);
  assert.equal(await valueText(again.page, 'parameters.d_head'), '64');
  assert.deepEqual(again.problems, []);
  await again.page.close();
});
