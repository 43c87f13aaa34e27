// The highlighter's tokens, line by line, against what a reader sees in them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringStream } from '@codemirror/language';
import { startState, token } from '../src/tokens.js';

const words = new Map([['let', 'declaration'], ['check', 'keyword'], ['if', 'control'], ['true', 'bool']]);

// Each token of `text` as kind:text (null for space and anything unmarked).
function tokens(text) {
  const out = [];
  const state = startState();
  for (const line of text.split('\n')) {
    const stream = new StringStream(line, 4, 2);
    while (!stream.eol()) {
      stream.start = stream.pos;
      const kind = token(stream, state, words);
      if (kind) out.push(`${kind}:${stream.current()}`);
    }
  }
  return out;
}

test('tokens: a number and the unit after it, compound units too', () => {
  assert.deepEqual(tokens('let bw = 3.35e12 B/s * 2 # HBM'),
    ['declaration:let', 'name:bw', 'operator:=', 'number:3.35e12', 'unit:B/s', 'operator:*', 'number:2', 'comment:# HBM']);
  assert.deepEqual(tokens('x = 8 FLOP/param/token + 4 B^2 + 5 µs'),
    ['name:x', 'operator:=', 'number:8', 'unit:FLOP/param/token', 'operator:+', 'number:4', 'unit:B^2', 'operator:+', 'number:5', 'unit:µs']);
  assert.deepEqual(tokens('cost = $1_000.50 + 12%'), ['name:cost', 'operator:=', 'number:$1_000.50', 'operator:+', 'number:12%']);
});

test('tokens: a word after a number that an expression holds there is no unit', () => {
  assert.deepEqual(tokens('r = 2 to 3'), ['name:r', 'operator:=', 'number:2', 'name:to', 'number:3']);
  assert.deepEqual(tokens('a = 64 if true'), ['name:a', 'operator:=', 'number:64', 'control:if', 'bool:true']);
  // Nor on the next line: a unit follows its number on the same line.
  assert.deepEqual(tokens('a = 64\nGiB'), ['name:a', 'operator:=', 'number:64', 'name:GiB']);
});

test('tokens: calls, strings with escapes, checks and operators', () => {
  assert.deepEqual(tokens('p = params (cfg) -> "a \\" b" # c'),
    ['name:p', 'operator:=', 'call:params', 'name:cfg', 'operator:->', 'string:"a \\" b"', 'comment:# c']);
  assert.deepEqual(tokens('check m.kv ≈ 40 GB within 1%'),
    ['keyword:check', 'name:m', 'name:kv', 'operator:≈', 'number:40', 'unit:GB', 'name:within', 'number:1%']);
  assert.deepEqual(tokens('y = a · b × c >= d != e'),
    ['name:y', 'operator:=', 'name:a', 'operator:·', 'name:b', 'operator:×', 'name:c', 'operator:>=', 'name:d', 'operator:!=', 'name:e']);
  assert.deepEqual(tokens('"open'), ['string:"open']);
});
