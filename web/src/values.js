// Values beside their fields: a widget at the end of each field's line with
// the value napkin computed (or its error), a ✓ or ✗ at the end of each
// check, and under a record the values it shows that the file does not
// write itself. Where each goes, and which values are inputs, is the run's
// data (`napkin run --format json`: each value's and check's "at", each
// record's statement in "records", each value's "input"); nothing here
// reads napkin source. Positions follow the edits made until the next
// evaluation.
import { StateField, StateEffect, RangeSetBuilder } from '@codemirror/state';
import { EditorView, Decoration, WidgetType } from '@codemirror/view';
import { offsetAt } from './diagnostics.js';

export const setResults = StateEffect.define();
const MAX_COLUMN = 64;

function describe(v) {
  if (v.error) return { text: v.error.code, title: `${v.error.code}: ${v.error.message}`, cls: 'nv-error' };
  if (v.needs !== undefined) return { text: `needs ${v.needs}`, title: `needs the input ${v.needs} (declared at ${v.declared_at})`, cls: 'nv-needs' };
  const range = v.range ? ` (p5 to p95 of ${v.range.samples} samples)` : '';
  // An input (a literal) shows its value quieter than a formula's result.
  return { text: v.display, title: `${v.substituted || v.display}${range}: click for its derivation`, cls: v.input === true ? 'nv-input' : '' };
}

class ValueWidget extends WidgetType {
  constructor(key, v, pad) {
    super();
    this.key = key;
    this.d = describe(v);
    this.pad = pad;
  }
  eq(o) {
    return o.key === this.key && o.d.text === this.d.text && o.d.cls === this.d.cls && o.d.title === this.d.title && o.pad === this.pad;
  }
  toDOM() {
    const el = document.createElement('span');
    this.updateDOM(el);
    return el;
  }
  // A new title or class on the same span, rather than a new span.
  updateDOM(el) {
    el.className = `nv-value ${this.d.cls}`.trim();
    el.style.marginLeft = this.pad ? `${this.pad}ch` : '';
    el.dataset.key = this.key;
    el.title = this.d.title;
    el.textContent = this.d.text;
    return true;
  }
  ignoreEvent() { return false; }
}

class CheckWidget extends WidgetType {
  constructor(check) {
    super();
    this.passed = check.passed === true;
    this.title = check.passed === true ? 'this check passes'
      : check.error ? `${check.error.code}: ${check.error.message}` : 'this check fails';
  }
  eq(o) { return o.passed === this.passed && o.title === this.title; }
  toDOM() {
    const el = document.createElement('span');
    el.className = this.passed ? 'nv-check nv-pass' : 'nv-check nv-fail';
    el.title = this.title;
    el.textContent = this.passed ? '✓' : '✗';
    return el;
  }
}

class MoreWidget extends WidgetType {
  constructor(record, entries) {
    super();
    this.record = record;
    this.entries = entries; // [[key, value]]
    // Its text, tooltips and classes: the formulas of a file just opened come with its second run.
    this.sig = entries.map(([k, v]) => { const d = describe(v); return `${k}=${d.text}\t${d.title}\t${d.cls}`; }).join('\n');
  }
  eq(o) { return o.sig === this.sig; }
  toDOM() {
    const el = document.createElement('div');
    el.className = 'nv-more';
    const head = document.createElement('span');
    head.className = 'nv-more-head';
    head.textContent = `${this.record} also has`;
    el.append(head);
    for (const [key, v] of this.entries) {
      const chip = document.createElement('span');
      chip.className = 'nv-chip';
      const name = document.createElement('span');
      name.className = 'nv-chip-name';
      name.textContent = key.slice(this.record.length + 1);
      const d = describe(v);
      const val = document.createElement('span');
      val.className = `nv-value ${d.cls}`.trim();
      val.dataset.key = key;
      val.title = d.title;
      val.textContent = d.text;
      chip.append(name, ' ', val);
      el.append(chip);
    }
    return el;
  }
  ignoreEvent() { return false; }
}

// Whether the place `at` lies inside `within` (both the run's places).
function inside(at, within) {
  const before = (l1, c1, l2, c2) => l1 < l2 || (l1 === l2 && c1 <= c2);
  return before(within.line, within.column, at.line, at.column) && before(at.end_line, at.end_column, within.end_line, within.end_column);
}

// Where each value is written in this file: its key and the line of its
// name. A let is written at its name; a record's field where the record's
// own statement writes it (a field it takes from another record, or from a
// library, is listed under it instead).
export function valuePlaces(report, path) {
  const records = new Map((report.records ?? []).map((r) => [r.name, r.at]));
  const out = [];
  for (const [key, v] of Object.entries(report.values ?? {})) {
    const at = v.at;
    if (!at || at.file !== path) continue;
    const dot = key.indexOf('.');
    const own = dot < 0 ? at : records.get(key.slice(0, dot));
    if (own && own.file === path && inside(at, own)) out.push({ key, at });
  }
  return out;
}

// Builds the decorations for one evaluation of `doc`, the file `path`:
// `report` is napkin's JSON of the same text.
export function buildDecorations(doc, report, path) {
  const items = [];
  const placed = new Set();
  const byLine = new Map();
  for (const { key, at } of valuePlaces(report, path)) {
    const from = offsetAt(doc, at.line, at.column);
    if (from === null) continue;
    placed.add(key);
    const line = doc.lineAt(from);
    if (!byLine.has(line.number)) byLine.set(line.number, []);
    byLine.get(line.number).push([key, report.values[key]]);
  }
  // The values of consecutive lines line up in a column, two characters
  // after the longest of those lines (the editor's font is monospaced).
  const width = (n) => [...doc.line(n).text.trimEnd()].length;
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  const column = new Map();
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) j++;
    const run = lines.slice(i, j + 1);
    const col = Math.min(MAX_COLUMN, Math.max(...run.map(width)) + 2);
    for (const n of run) column.set(n, col);
    i = j + 1;
  }
  for (const [n, list] of byLine) {
    const line = doc.line(n);
    const used = [...line.text].length;
    const pad = Math.max(2, column.get(n) - [...line.text.trimEnd()].length) - (used - [...line.text.trimEnd()].length);
    list.forEach(([key, v], i) => {
      const widget = new ValueWidget(key, v, i === 0 ? Math.max(1, pad) : 0);
      items.push({ pos: line.to, side: 10 + i, deco: Decoration.widget({ widget, side: 10 + i }) });
    });
  }
  for (const c of report.checks ?? []) {
    const at = c.at;
    if (!at || at.file !== path || offsetAt(doc, at.line, 1) === null) continue;
    const line = doc.line(at.line);
    items.push({ pos: line.to, side: 5, deco: Decoration.widget({ widget: new CheckWidget(c), side: 5 }) });
  }
  const keys = Object.keys(report.values ?? {});
  for (const r of report.records ?? []) {
    if (r.at.file !== path || offsetAt(doc, r.at.end_line, 1) === null) continue;
    const prefix = `${r.name}.`;
    const rest = keys.filter((k) => k.startsWith(prefix) && !placed.has(k)).map((k) => [k, report.values[k]]);
    if (rest.length === 0) continue;
    const line = doc.line(r.at.end_line);
    items.push({ pos: line.to, side: 100, deco: Decoration.widget({ widget: new MoreWidget(r.name, rest), side: 100, block: true }) });
  }
  items.sort((a, b) => a.pos - b.pos || a.side - b.side);
  const builder = new RangeSetBuilder();
  for (const it of items) builder.add(it.pos, it.pos, it.deco);
  return builder.finish();
}

export const valuesField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) if (e.is(setResults)) return e.value;
    return tr.docChanged ? deco.map(tr.changes) : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});
