// The page's logic without a browser, under Node.js alone (ctest's
// web.page_logic, nothing to install): where values and errors go, from a
// report written here by hand as `napkin run --format json` writes one
// (places count lines and columns from 1, columns in bytes of UTF-8), share
// links both ways and their size limit, the status line's notice, the
// derivation panel's links from explain's `at` and `literal`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Text } from '@codemirror/state';
import { deflateRawSync } from 'node:zlib';
import { valuePlaces } from '../src/values.js';
import { toDiagnostics, elsewhere, offsetAt } from '../src/diagnostics.js';
import { encodeShare, decodeShare, inflate, MAX_FILE_BYTES } from '../src/share.js';
import { StatusLine, evaluationStatus, shareNotice } from '../src/status.js';
import { renderDerivation, sourcePlace, shownTerms } from '../src/derivation.js';
import { example } from './files.mjs';

const at = (line, column, end_line, end_column, file = 'f.napkin') => ({ file, line, column, end_line, end_column });
const docOf = (text) => Text.of(text.split('\n'));

// let a = 2 µs            line 1
// scenario s {            line 2
//   n = 4                 line 3
//   t = n * a             line 4
// }                       line 5
// scenario w = s with { n = 8 }
const TEXT = 'let a = 2 µs\nscenario s {\n  n = 4\n  t = n * a\n}\nscenario w = s with { n = 8 }\n';
const REPORT = {
  values: {
    a: { display: '2 µs', at: at(1, 5, 1, 6), input: true },
    's.n': { display: '4', at: at(3, 3, 3, 4), input: true },
    's.t': { display: '8 µs', at: at(4, 3, 4, 4), input: false },
    'w.n': { display: '8', at: at(6, 23, 6, 24), input: true },
    // taken from s: written inside s's statement, not w's
    'w.t': { display: '16 µs', at: at(4, 3, 4, 4), input: false },
    // from a library
    's.lib': { display: '1', at: at(3, 3, 3, 6, 'std/x'), input: true },
  },
  checks: [],
  records: [
    { name: 's', kind: 'scenario', at: at(2, 1, 5, 2) },
    { name: 'w', kind: 'scenario', at: at(6, 1, 6, 30) },
  ],
};

test('values: placed where the run says each is written, within its own statement', () => {
  const places = valuePlaces(REPORT, 'f.napkin');
  assert.deepEqual(places.map((p) => [p.key, p.at.line]), [['a', 1], ['s.n', 3], ['s.t', 4], ['w.n', 6]]);
  // Another file's name for the same text places nothing.
  assert.deepEqual(valuePlaces(REPORT, 'g.napkin'), []);
});

test('places: a byte column becomes the editor\'s UTF-16 offset', () => {
  const doc = docOf('let µ = "😀" + x\n');
  // `x` is byte column 19 (µ 2 bytes, 😀 4), UTF-16 offset 15 (µ 1 unit, 😀 2)
  assert.equal(offsetAt(doc, 1, 19), 15);
  assert.equal(offsetAt(doc, 2, 1), 17);
  assert.equal(offsetAt(doc, 3, 1), null);
});

test('diagnostics: from the run\'s errors and failed checks, over their spans, with labels, notes and help', () => {
  const text = 'let a = 2 s\nlet b = a + 3\ncheck a > 5 s\n';
  const e = {
    code: 'E0201', message: 'cannot add s (time) and a plain number', ...at(2, 9, 2, 10),
    labels: [
      { message: 'this is s (time) (2 s)', primary: true, ...at(2, 9, 2, 10) },
      { message: 'this is a plain number (3)', primary: false, ...at(2, 13, 2, 14) },
    ],
    notes: ['a note'], help: 'both sides of `+` must have the same dimension',
  };
  const failed = { code: 'E0500', message: 'check failed: 2 s > 5 s is false', ...at(3, 7, 3, 14), labels: [], notes: [], help: '' };
  const imported = { code: 'E0300', message: 'unknown name `q`', ...at(1, 1, 1, 2, 'lib.napkin'), labels: [], notes: [], help: '' };
  const report = { values: {}, errors: [e, e, imported], checks: [{ passed: false, status: 'failed', diagnostic: failed }] };
  const d = toDiagnostics(docOf(text), report, 'f.napkin');
  assert.deepEqual(d.map((x) => [x.source, x.from, x.to]), [['E0201', 20, 21], ['E0500', 32, 39]]);
  // As the terminal lays it out (napkin run f.napkin), the source line from the editor's text.
  assert.equal(d[0].message, [
    'f.napkin:2:9: error[E0201]: cannot add s (time) and a plain number',
    '  |',
    '2 | let b = a + 3',
    '  |         ^ this is s (time) (2 s)',
    '  |             - this is a plain number (3)',
    '  = note: a note',
    '  = help: both sides of `+` must have the same dimension',
  ].join('\n'));
  assert.deepEqual(elsewhere(report, 'f.napkin'), ['lib.napkin:1:1: error[E0300]: unknown name `q`']);
  // No report (napkin wrote none): nothing to place.
  assert.deepEqual(toDiagnostics(docOf(text), null, 'f.napkin'), []);
});

test('share links: the file comes back, name and all, and shorter', async () => {
  const text = example('exercise1_size_a_model.napkin');
  const hash = await encodeShare('exercise1_size_a_model.napkin', text);
  assert.match(hash, /^#f=exercise1_size_a_model\.napkin&z=[A-Za-z0-9_-]+$/);
  assert.ok(hash.length < text.length / 2);
  assert.deepEqual(await decodeShare(hash), { name: 'exercise1_size_a_model.napkin', text });
  // Non-ASCII survives (≈ · µ are napkin's).
  const odd = 'let x = 2 µs · 3 # ≈ 6 µs\n';
  assert.deepEqual(await decodeShare(await encodeShare('a.napkin', odd)), { name: 'a.napkin', text: odd });
});

test('share links: no link, a damaged one, a name that is no plain file name', async () => {
  assert.equal(await decodeShare(''), null);
  assert.equal(await decodeShare('#top'), null);
  await assert.rejects(decodeShare('#f=a.napkin&z=AAAA'));
  const hash = await encodeShare('../../etc/passwd', 'let x = 1\n');
  assert.equal((await decodeShare(hash)).name, 'shared.napkin');
});

const MiB = 1024 * 1024;
const linkOf = (name, bytes) => `#f=${name}&z=${Buffer.from(bytes).toString('base64url')}`;

test('share links: one that inflates past 16 MiB, napkin\'s file limit, is refused without inflating it all', async () => {
  // 200 MiB of one letter deflates to about 200 KB: a link of about 272,000 characters.
  const bomb = deflateRawSync(Buffer.alloc(200 * MiB, 'a'), { level: 9 });
  const link = linkOf('bomb.napkin', bomb);
  assert.ok(link.length < 300000, `${link.length} characters`);
  await assert.rejects(decodeShare(link), (e) => {
    assert.equal(e.name, 'ShareTooLarge');
    assert.match(e.message, /larger than 16 MiB/);
    return true;
  });
  // The reader is told why: the limit, not damage.
  const notice = await decodeShare(link).catch(shareNotice);
  assert.match(notice, /^This share link was not opened: the file it holds is larger than 16 MiB, the most napkin reads; opened the default example instead\.$/);
});

test('share links: a file of exactly 16 MiB opens, one byte more does not', async () => {
  assert.equal(MAX_FILE_BYTES, 16 * MiB); // grammar/parser.hpp: kMaxSourceBytes = 16u << 20
  const line = '# a comment line of 32 bytes ..\n';
  const text = line.repeat((16 * MiB) / line.length);
  assert.equal(Buffer.byteLength(text), 16 * MiB);
  const opened = await decodeShare(linkOf('big.napkin', deflateRawSync(Buffer.from(text))));
  assert.equal(opened.text.length, 16 * MiB);
  await assert.rejects(decodeShare(linkOf('big.napkin', deflateRawSync(Buffer.from(text + 'x')))), /larger than 16 MiB/);
  // The limit counts bytes, not characters: 'µ' is two bytes in UTF-8.
  await assert.rejects(inflate(deflateRawSync(Buffer.from('µ'.repeat(6))), 11), /larger than/);
  assert.equal((await inflate(deflateRawSync(Buffer.from('µ'.repeat(6))), 12)).length, 12);
});

test('share links: a damaged link says it is damaged', async () => {
  const notice = await decodeShare('#f=x.napkin&z=AAAA').catch(shareNotice);
  assert.match(notice, /^This share link is damaged \(.+\); opened the default example instead\.$/);
});

// A status element as the page has it: its text and its classes.
function statusElement() {
  const classes = new Set();
  return { textContent: '', classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)), contains: (c) => classes.has(c) } };
}

test('status line: a notice stays through the evaluations that follow it, until the reader acts', () => {
  const element = statusElement();
  const line = new StatusLine(element);
  line.show('loading napkin…');
  const notice = 'This share link is damaged (bad data); opened the default example instead.';
  line.warn(notice);
  // The default example's evaluations: the values (at once), then the formulas (about 250 ms later).
  const report = { errors: [], checks: [{ passed: true }] };
  line.show(evaluationStatus(report, { code: 0 }, 3.25));
  line.show(evaluationStatus(report, { code: 0 }, 41));
  assert.equal(element.textContent, `${notice} · evaluated in 41.0 ms · no errors · 1 of 1 checks pass`);
  assert.ok(element.classList.contains('notice'));
  line.dismiss();
  assert.equal(element.textContent, 'evaluated in 41.0 ms · no errors · 1 of 1 checks pass');
  assert.ok(!element.classList.contains('notice'));
  line.show(evaluationStatus({ errors: [{}, {}], checks: [{ passed: false }, { passed: true }] }, { code: 2 }, 5));
  assert.equal(element.textContent, 'evaluated in 5.0 ms · 2 errors · 1 of 2 checks pass');
  line.show(evaluationStatus(null, { code: 134 }, 5));
  assert.equal(element.textContent, 'evaluated in 5.0 ms · napkin stopped (exit status 134)');
});

// A node of `napkin explain FILE NAME --format json`, written here by hand.
const node = (label, at, more = {}) => ({ label, display: '1', formula: 'x', substituted: '1', at, ...more });

test('derivation: a formula\'s place comes from `at`, its file and line as data, never from `source`', () => {
  assert.deepEqual(sourcePlace(node('a', { file: 'f.napkin', line: 12 }, { source: 'f.napkin:12' }), 'f.napkin'), { line: 12 });
  // A file whose name holds a colon and digits: the data says where the name ends.
  assert.deepEqual(sourcePlace(node('b', { file: 'plans:7', line: 3 }, { source: 'plans:7:3' }), 'plans:7'), { line: 3 });
  assert.deepEqual(sourcePlace(node('c', { file: 'plans:7', line: 3 }, { source: 'plans:7:3' }), 'plans'),
    { text: 'plans:7:3' });
  // A library's formula is named, not linked; text alone (no `at`) places nothing.
  assert.deepEqual(sourcePlace(node('d', { file: 'std/transformer', line: 163 }, { source: 'std/transformer:163' }), 'f.napkin'),
    { text: 'std/transformer:163' });
  assert.equal(sourcePlace(node('e', undefined, { source: 'f.napkin:4' }), 'f.napkin'), null);
});

test('derivation: a literal is what explain says is one, whatever its text looks like', () => {
  assert.deepEqual(shownTerms({ label: 'n', formula: '6144', substituted: '6144', display: '6,144', literal: true }), []);
  // `(2 + 3) · 4` is a literal too: nothing to derive, as the terminal shows it.
  assert.deepEqual(shownTerms({ label: 'm', formula: '(2 + 3) · 4', substituted: '(2 + 3) · 4', display: '20', literal: true }), []);
  // A name's formula is shown even where it reads like a number.
  assert.deepEqual(shownTerms({ label: 'k', formula: 'n', substituted: '6,144', display: '6,144' }), ['n']);
  assert.deepEqual(shownTerms({ label: 't', formula: 'a * b', substituted: '2 · 3', display: '6' }), ['a * b', '2 · 3']);
});

// Just enough of a document for the panel: elements with children and listeners.
class FakeElement {
  constructor(tag) { Object.assign(this, { tagName: tag, className: '', children: [], listeners: {} }); }
  append(...c) { this.children.push(...c); }
  replaceChildren(...c) { this.children = c; }
  addEventListener(type, f) { this.listeners[type] = f; }
  get textContent() { return this.children.map((c) => (typeof c === 'string' ? c : c.textContent)).join(''); }
  *all() { yield this; for (const c of this.children) if (c instanceof FakeElement) yield* c.all(); }
}

test('derivation panel: a formula in the edited file is a button to its line; a library\'s is its name', () => {
  globalThis.document = { createElement: (tag) => new FakeElement(tag) };
  try {
    const tree = node('s.t', { file: 'f.napkin', line: 4 }, {
      source: 'f.napkin:4', formula: 'n * a', substituted: '4 · 2 µs', display: '8 µs',
      children: [
        node('s.n', { file: 'f.napkin', line: 3 }, { source: 'f.napkin:3', formula: '4', substituted: '4', display: '4', literal: true }),
        node('lib.k', { file: 'std/x', line: 9 }, { source: 'std/x:9', display: '2 µs' }),
      ],
    });
    const panel = new FakeElement('div');
    const went = [];
    renderDerivation(panel, { key: 's.t', tree, flat: null, path: 'f.napkin', goto: (line) => went.push(line) });
    const buttons = [...panel.all()].filter((e) => e.tagName === 'button');
    assert.deepEqual(buttons.map((b) => b.textContent), ['line 4', 'line 3']);
    buttons[1].listeners.click();
    assert.deepEqual(went, [3]);
    const lib = [...panel.all()].filter((e) => e.className === 'dv-src dv-lib');
    assert.deepEqual(lib.map((e) => e.textContent), ['std/x:9']);
    const lines = [...panel.all()].filter((e) => e.className === 'dv-line').map((e) => e.textContent);
    assert.deepEqual(lines, ['s.t = n * a = 4 · 2 µs = 8 µs line 4', 's.n = 4 line 3', 'lib.k = x = 1 = 2 µs std/x:9']);
    // explain's document of errors (it failed): the panel shows the message, no tree.
    renderDerivation(panel, { key: 'q', tree: { errors: [{ code: 'E0300' }] }, flat: null, error: 'it failed', path: 'f.napkin', goto: () => {} });
    assert.ok(panel.textContent.endsWith('it failed'));
  } finally {
    delete globalThis.document;
  }
});
