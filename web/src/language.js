// Highlighting for napkin: comments, strings, numbers and the unit written
// after a number, keywords (tokens.js). The words come from the editors'
// TextMate grammar (napkin:keywords, read at build time).
import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import words from 'napkin:keywords';
import { startState, token } from './tokens.js';

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
const napkin = StreamLanguage.define({
  name: 'napkin',
  startState,
  token: (stream, state) => token(stream, state, kind),
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
