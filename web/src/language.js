// Highlighting for napkin: comments, strings, numbers and the unit written
// after a number, keywords. The words come from the editors' TextMate
// grammar (napkin:keywords, read at build time).
import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import words from 'napkin:keywords';

const kind = new Map();
const tagFor = {
  'keyword.other.declaration': 'declaration',
  'keyword.control': 'control',
  'keyword.operator.word': 'operatorWord',
  'keyword.other': 'keyword',
  'constant.language.boolean': 'bool',
};
for (const [scope, list] of Object.entries(words)) {
  for (const w of list) kind.set(w, tagFor[scope] ?? 'keyword');
}
// A word after a number is its unit unless an expression may hold it there (`64 with`, `2 to 3`).
const notUnits = new Set(['within', 'with', 'if', 'then', 'else', 'and', 'or', 'not', 'true', 'false', 'to']);

const napkin = StreamLanguage.define({
  name: 'napkin',
  startState: () => ({ afterNumber: false }),
  token(stream, state) {
    if (stream.sol()) state.afterNumber = false;
    if (stream.eatSpace()) return null;
    const afterNumber = state.afterNumber;
    state.afterNumber = false;
    if (stream.peek() === '#') { stream.skipToEnd(); return 'comment'; }
    if (stream.peek() === '"') {
      stream.next();
      let c;
      while ((c = stream.next()) != null) {
        if (c === '\\') stream.next();
        else if (c === '"') break;
      }
      return 'string';
    }
    if (stream.match(/^\$?[0-9][0-9_]*(\.[0-9]+)?([eE][+-]?[0-9]+)?%?/)) {
      state.afterNumber = true;
      return 'number';
    }
    if (stream.match(/^[A-Za-z_$µμ][A-Za-z0-9_]*/)) {
      const w = stream.current();
      if (kind.has(w)) return kind.get(w);
      if (afterNumber && !notUnits.has(w)) {
        // A compound unit: `token/s`, `FLOP/param/token`, `B^2`.
        stream.match(/^(\^-?[0-9]+)?([*/][A-Za-z$µμ][A-Za-z0-9_]*(\^-?[0-9]+)?)*/);
        return 'unit';
      }
      if (stream.match(/^\s*\(/, false)) return 'call';
      return 'name';
    }
    if (stream.match(/^(->|==|!=|<=|>=|~=|≈|[-+*/^<>=·×])/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
  tokenTable: {
    declaration: tags.definitionKeyword,
    control: tags.controlKeyword,
    operatorWord: tags.operatorKeyword,
    keyword: tags.keyword,
    bool: tags.bool,
    unit: tags.unit,
    call: tags.function(tags.variableName),
    name: tags.variableName,
  },
});

const style = HighlightStyle.define([
  { tag: tags.comment, color: '#5f6b5f', fontStyle: 'italic' },
  { tag: tags.string, color: '#8a3b12' },
  { tag: tags.number, color: '#1a5fb4' },
  { tag: tags.unit, color: '#1a7f64' },
  { tag: [tags.definitionKeyword, tags.keyword], color: '#7b2d8b', fontWeight: '600' },
  { tag: [tags.controlKeyword, tags.operatorKeyword], color: '#7b2d8b' },
  { tag: tags.bool, color: '#1a5fb4' },
  { tag: tags.function(tags.variableName), color: '#6b4400' },
  { tag: tags.operator, color: '#444' },
]);

export function napkinLanguage() {
  return [napkin, syntaxHighlighting(style)];
}
