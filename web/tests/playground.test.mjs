// The playground in Chromium, opened from disk (file://) and from a static
// server on 127.0.0.1: it opens with exercise 1 and evaluates it, an edit
// moves a value, an error is underlined at its place, a click opens a
// derivation, a share link opens the same file again (a damaged one or one
// past 16 MiB says so until the reader edits), the examples menu loads an
// example. Screenshots go to NAPKIN_SCREENSHOTS (when set).
//
// Expected figures are the exercise's own (examples/exercise1_size_a_model.napkin):
// d_head = d_model / heads = 6144 / 48 = 128, and 6144 / 96 = 64 with 96 heads;
// textbook_layer = 12 · d² = 12 · 6144² = 452,984,832 param; the whole model,
// 48 layers of 390,070,272 param and two 64,000 × 6,144 embeddings, 19,509,805,056 param.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { launch, serve, fileUrl, openPlayground, requireDist, example, screenshot, coloursOf } from './browser.mjs';

const exercise = example('exercise1_size_a_model.napkin');
const drills = example('lab03_drills.napkin');

let browser;
let server;
before(async () => {
  requireDist();
  browser = await launch();
  server = await serve();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const value = (page, key) => page.locator(`.nv-value[data-key="${key}"]`).first();
const line = (page, text) => page.locator('.cm-line', { hasText: text }).first();
const shot = screenshot;
// Puts the cursor at the end of the line that shows `text`.
async function endOf(page, text) {
  await line(page, text).click({ position: { x: 4, y: 4 } });
  await page.keyboard.press('End');
}

for (const origin of ['file', 'http']) {
  const url = () => (origin === 'file' ? fileUrl() : server.url);

  test(`${origin}: opens with exercise 1, evaluated, without a request`, async () => {
    const requests = [];
    const page0 = await browser.context.newPage();
    page0.on('request', (r) => requests.push(r.url()));
    await page0.goto(url());
    await page0.waitForFunction(() => window.napkinPlayground?.evaluations > 0, null, { timeout: 20000 });
    assert.equal(await page0.evaluate(() => window.napkinPlayground.doc()), exercise);
    assert.equal(await page0.locator('#examples').inputValue(), 'exercise1_size_a_model.napkin');
    assert.equal(await value(page0, 'parameters.d_head').textContent(), '128');
    assert.equal(await value(page0, 'parameters.textbook_layer').textContent(), '452,984,832 param');
    // Highlighted: a keyword, a string, a number and its unit, a comment, each in its colour.
    const colours = await coloursOf(page0, ['import', '"std/transformer"', '8192', 'token', '# GQA']);
    assert.deepEqual(colours, ['rgb(123, 45, 139)', 'rgb(138, 59, 18)', 'rgb(26, 95, 180)', 'rgb(26, 127, 100)', 'rgb(95, 107, 95)']);
    // The first evaluation asks for the values alone; the next, at once, for
    // the formulas: each tooltip then shows its numbers, an input looks like one.
    const first = await page0.evaluate(() => window.napkinPlayground.timings[0].brief);
    assert.equal(first, 'values');
    await page0.waitForFunction(() => window.napkinPlayground.withFormulas > 0, null, { timeout: 20000 });
    // ... asked for once the values are painted, not before.
    const m = await page0.evaluate(() => window.napkinPlayground.marks);
    assert.ok(m.firstDrawn <= m.firstPainted && m.firstPainted <= m.formulasDrawn, JSON.stringify(m));
    // The editor is made once the first evaluation has answered, with its values.
    assert.ok(m.firstAsked < m.editorCreated && m.firstAnswered <= m.editorCreated, JSON.stringify(m));
    assert.equal(await value(page0, 'parameters.textbook_layer').getAttribute('title'),
      '12 · 6,144^2 · 1 param: click for its derivation');
    assert.match(await value(page0, 'drill.layers').getAttribute('class'), /\bnv-input\b/);
    // The values under a record too.
    assert.equal(await page0.locator('.nv-more .nv-value[data-key="drill.weight_bytes"]').getAttribute('title'),
      '19,509,805,056 param · 2 B/param: click for its derivation');
    assert.doesNotMatch(await value(page0, 'parameters.textbook_layer').getAttribute('class'), /\bnv-input\b/);
    // The exercise's checks all hold, and the status says so.
    const status = await page0.locator('#status').textContent();
    assert.match(status, /no errors/);
    assert.match(status, /(\d+) of \1 checks pass/);
    assert.ok(await page0.locator('.nv-check.nv-pass').count() > 0);
    assert.equal(await page0.locator('.nv-check.nv-fail').count(), 0);
    // No network at run time: the page is the only thing loaded.
    assert.deepEqual(requests, [url()]);
    await shot(page0, `${origin}-1-opened`);
    await page0.close();
  });

  test(`${origin}: an edit moves the values that depend on it`, async () => {
    const { page, problems } = await openPlayground(browser.context, url());
    await endOf(page, 'heads           = 48');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('96');
    await page.waitForFunction(() => document.querySelector('.nv-value[data-key="parameters.d_head"]')?.textContent === '64');
    assert.equal(await value(page, 'drill.heads').textContent(), '96');
    // textbook_layer does not depend on the heads: it stays.
    assert.equal(await value(page, 'parameters.textbook_layer').textContent(), '452,984,832 param');
    // The check that pins d_head = 128 now fails, at its line.
    await page.waitForFunction(() => document.querySelectorAll('.nv-check.nv-fail').length > 0);
    const failing = line(page, 'check parameters.d_head == 128');
    assert.equal(await failing.locator('.nv-check.nv-fail').count(), 1);
    // …and napkin's E0500 is underlined there, over its primary label as the
    // run's JSON gives it: the condition, from column 7 to the line's end.
    await page.waitForFunction(() => document.querySelectorAll('.cm-lintRange-error').length > 0);
    assert.equal(await failing.locator('.cm-lintRange-error').textContent(), 'parameters.d_head == 128');
    assert.match(await page.locator('#problems-list').textContent(), /:58:7: error\[E0500\]: check failed: 64 == 128 is false/);
    await shot(page, `${origin}-2-edited`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${origin}: an error is underlined at its line and column, with napkin's diagnostic`, async () => {
    const { page } = await openPlayground(browser.context, url());
    // Line 33 is `let d = drill.d_model`; the new line 34 names nothing defined.
    await endOf(page, 'let d = drill.d_model');
    await page.keyboard.press('Enter');
    await page.keyboard.type('let bad = nosuch + 1');
    // Evaluations while typing see the line half-written; wait for the whole line's.
    await page.waitForFunction(() => {
      const marks = [...document.querySelectorAll('.cm-lintRange-error')];
      return marks.length === 1 && marks[0].textContent === 'nosuch';
    }, null, { timeout: 10000 });
    const underline = page.locator('.cm-lintRange-error').first();
    const bad = line(page, 'let bad = nosuch + 1');
    assert.equal(await bad.locator('.cm-lintRange-error').count(), 1);
    assert.equal(await value(page, 'bad').textContent(), 'E0300');
    // The problems list: the place, then the diagnostic as the terminal prints it.
    const item = page.locator('#problems-list li').first();
    assert.equal(await item.locator('button').textContent(), 'line 34, column 11');
    const text = await item.locator('pre').textContent();
    assert.match(text, /^exercise1_size_a_model\.napkin:34:11: error\[E0300\]: unknown name `nosuch`/);
    assert.match(text, /34 \| let bad = nosuch \+ 1/);
    assert.match(await page.locator('#status').textContent(), /1 error/);
    // Hovering the underline shows the same diagnostic.
    await underline.hover();
    const tip = page.locator('.cm-tooltip-lint').first();
    await tip.waitFor({ timeout: 5000 });
    assert.match(await tip.textContent(), /error\[E0300\]: unknown name `nosuch`/);
    await shot(page, `${origin}-3-error`);
    await page.close();
  });

  test(`${origin}: a click on a value opens its derivation`, async () => {
    const { page, problems } = await openPlayground(browser.context, url());
    await value(page, 'parameters.textbook_layer').click();
    const panel = page.locator('#derivation');
    await panel.locator('h2', { hasText: 'parameters.textbook_layer' }).waitFor({ timeout: 5000 });
    assert.equal(await panel.locator('.dv-flat').textContent(),
      'parameters.textbook_layer = 12 · 6,144^2 · 1 param = 452,984,832 param');
    // The tree: the value, then `d`, then drill.d_model, the input on line 22.
    const labels = await panel.locator('.dv-label').allTextContents();
    assert.deepEqual(labels, ['parameters.textbook_layer', 'd', 'drill.d_model']);
    await shot(page, `${origin}-4-derivation`);
    // A place in the file is a button that moves the cursor there.
    await panel.locator('button.dv-src', { hasText: 'line 22' }).click();
    const head = await page.evaluate(() => {
      const sel = window.getSelection();
      return sel.anchorNode && (sel.anchorNode.nodeType === 1 ? sel.anchorNode : sel.anchorNode.parentElement).closest('.cm-line')?.textContent;
    });
    assert.match(head ?? '', /^\s*d_model\s+= 6144/);
    // From the keyboard: Ctrl+Enter on a field's line opens it; Esc closes it.
    await endOf(page, 'd_kv   = drill.kv_dim');
    await page.keyboard.press('Control+Enter');
    await panel.locator('h2', { hasText: 'parameters.d_kv' }).waitFor({ timeout: 5000 });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'derivation');
    await page.keyboard.press('Escape');
    assert.match(await panel.locator('h2').textContent(), /^Derivations$/);
    // A selected expression: drill.params = 48 · 390,070,272 + 2 · 64,000 · 6,144 (untied embeddings).
    await endOf(page, 'total = drill.params');
    for (let i = 0; i < 'drill.params'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+Enter');
    await panel.locator('h2', { hasText: 'drill.params' }).waitFor({ timeout: 5000 });
    assert.equal(await panel.locator('.dv-result').first().textContent(), '19,509,805,056 param');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${origin}: a share link opens the same file again`, async () => {
    const { page } = await openPlayground(browser.context, url());
    await endOf(page, 'heads           = 48');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('96');
    await page.waitForFunction(() => document.querySelector('.nv-value[data-key="parameters.d_head"]')?.textContent === '64');
    const edited = exercise.replace('heads           = 48', 'heads           = 96');
    assert.equal(await page.evaluate(() => window.napkinPlayground.doc()), edited);
    await page.locator('#share').click();
    // The link is compressed asynchronously (CompressionStream): wait for it.
    await page.waitForFunction(() => document.querySelector('#share-url')?.value.includes('#f='));
    const link = await page.locator('#share-url').inputValue();
    assert.ok(link.startsWith(url()), link);
    const fragment = new URL(link).hash;
    assert.match(fragment, /^#f=exercise1_size_a_model\.napkin&z=[A-Za-z0-9_-]+$/);
    // Compressed: the link is shorter than the file.
    assert.ok(fragment.length < edited.length / 2, `${fragment.length} characters for ${edited.length}`);
    await shot(page, `${origin}-5-share`);
    await page.close();
    const { page: again, problems } = await openPlayground(browser.context, link);
    assert.equal(await again.evaluate(() => window.napkinPlayground.doc()), edited);
    assert.equal(await value(again, 'parameters.d_head').textContent(), '64');
    assert.deepEqual(problems, []);
    // A damaged link says so and opens the default example; the notice outlives both of the
    // example's evaluations (values, then formulas) and goes when the reader edits.
    await again.goto(`${url()}#f=x.napkin&z=AAAA`);
    await again.reload();
    await again.waitForFunction(() => window.napkinPlayground?.withFormulas > 0, null, { timeout: 20000 });
    assert.equal(await again.evaluate(() => window.napkinPlayground.doc()), exercise);
    await again.waitForTimeout(300);
    const status = again.locator('#status');
    assert.match(await status.textContent(), /^This share link is damaged \(.*\); opened the default example instead\. · evaluated in /);
    await shot(again, `${origin}-5-damaged-link`);
    const evaluations = await again.evaluate(() => window.napkinPlayground.evaluations);
    await endOf(again, 'heads           = 48');
    await again.keyboard.type(' ');
    await again.waitForFunction((n) => window.napkinPlayground.evaluations > n, evaluations);
    assert.match(await status.textContent(), /^evaluated in /);
    await again.close();
  });

  test(`${origin}: a share link that inflates past 16 MiB is refused, and the reader told`, async () => {
    // 200 MiB of one letter in a link of about 272,000 characters: the page stops inflating at 16 MiB.
    const bomb = deflateRawSync(Buffer.alloc(200 * 1024 * 1024, 'a'), { level: 9 });
    const { page, problems } = await openPlayground(browser.context, `${url()}#f=bomb.napkin&z=${bomb.toString('base64url')}`);
    assert.equal(await page.evaluate(() => window.napkinPlayground.doc()), exercise);
    assert.match(await page.locator('#status').textContent(),
      /^This share link was not opened: the file it holds is larger than 16 MiB, the most napkin reads; opened the default example instead\. · /);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${origin}: the examples menu opens each example`, async () => {
    const { page, problems } = await openPlayground(browser.context, url());
    const names = await page.locator('#examples option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
    assert.ok(names.includes('lab03_drills.napkin') && names.includes('basics.napkin'), names.join(' '));
    await page.locator('#examples').selectOption('lab03_drills.napkin');
    await page.waitForFunction(() => window.napkinPlayground.path() === 'lab03_drills.napkin');
    assert.equal(await page.evaluate(() => window.napkinPlayground.doc()), drills);
    await page.waitForFunction(() => document.querySelectorAll('.nv-value').length > 0);
    assert.match(await page.locator('#status').textContent(), /no errors/);
    await shot(page, `${origin}-6-example`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
