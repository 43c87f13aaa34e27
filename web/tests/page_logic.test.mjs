// The page's logic without a browser, under Node.js alone (ctest's
// web.page_logic, nothing to install): where fields are written (napkin's
// JSON names values, the page finds their lines), share links both ways and
// their size limit, the status line's notice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scanFields } from '../src/fields.js';
import { deflateRawSync } from 'node:zlib';
import { encodeShare, decodeShare, inflate, MAX_FILE_BYTES } from '../src/share.js';
import { StatusLine, evaluationStatus, shareNotice } from '../src/status.js';
import { webDir, example } from './files.mjs';

const keys = (text) => scanFields(text).fields.map((f) => f.key);

test('fields: records, lets, top-level values; not a function, a call or a check', () => {
  const text = [
    'import "std/transformer"',
    'let a = 1',
    'top = a + 1',
    'model m extends transformer {',
    '  x = 1, y = f(z = 2)   # z is an argument',
    '  w: count = 3; v: B',
    '  nested = m with { x = 5 }',
    '}',
    'scenario s = m',
    '  with {',
    '    x = 2',
    '  }',
    'fn f(z = 1) = z',
    'check m.x == 1',
    'sweep s over x in [1, 2] show y',
    'record r { q = "a = b" }',
  ].join('\n');
  assert.deepEqual(keys(text), ['a', 'top', 'm.x', 'm.y', 'm.w', 'm.v', 'm.nested', 's.x', 'r.q']);
  const { records } = scanFields(text);
  assert.deepEqual(records.map((r) => r.name), ['m', 's', 'r']);
  // A record's statement ends at its closing brace, `with` on a line of its own included.
  assert.deepEqual(records.map((r) => text.slice(r.end - 1, r.end)), ['}', '}', '}']);
  assert.equal(text.slice(records[1].from, records[1].end), 'scenario s = m\n  with {\n    x = 2\n  }');
});

test('fields: offsets name the field', () => {
  const text = 'scenario p {\n  d_head = 1\n}\n';
  const [f] = scanFields(text).fields;
  assert.equal(text.slice(f.from, f.to), 'd_head');
});

test('fields: every field found in the examples is written on its line as NAME = or NAME:', () => {
  const dir = join(webDir, '../examples');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.napkin'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    const { fields } = scanFields(text);
    assert.ok(fields.length > 0, name);
    for (const f of fields) {
      const field = f.key.split('.').pop();
      const lineStart = text.lastIndexOf('\n', f.from) + 1;
      const lineEnd = text.indexOf('\n', f.from);
      const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
      assert.match(line, new RegExp(`(^|[\\s{,;])(let\\s+)?${field}\\s*(=[^=]|:)`), `${name}: ${f.key} on "${line}"`);
    }
  }
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
