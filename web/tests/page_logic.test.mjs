// The page's logic without a browser: where fields are written (napkin's
// JSON names values, the page finds their lines), share links both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scanFields } from '../src/fields.js';
import { encodeShare, decodeShare } from '../src/share.js';
import { webDir, example } from './browser.mjs';

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
