// napkin's errors as editor diagnostics, from the run's data alone: `napkin
// run --format json` gives each error whole (its code, message, the primary
// label's place and where it ends, every label, notes and help) and each
// failed check its error the same way (`diagnostic`). Places count lines
// and columns from 1, columns in bytes of UTF-8, as the terminal's
// file:line:col; the editor counts UTF-16 units.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The UTF-16 offset in `text` of byte column `col` (from 1).
function utf16Column(text, col) {
  const bytes = encoder.encode(text);
  return decoder.decode(bytes.subarray(0, Math.max(0, Math.min(bytes.length, col - 1)))).length;
}

// The document offset of a line and byte column (from 1), or null past the text.
export function offsetAt(doc, line, column) {
  if (!Number.isInteger(line) || line < 1 || line > doc.lines) return null;
  const l = doc.line(line);
  return l.from + Math.min(l.length, utf16Column(l.text, column || 1));
}

// Every error of the run, each once: those it met, a failed solve's, each failed check's.
export function runDiagnostics(report) {
  const all = [...(report?.errors ?? [])];
  for (const c of report?.checks ?? []) if (c.diagnostic) all.push(c.diagnostic);
  const seen = new Set();
  return all.filter((e) => {
    const key = `${e.file}:${e.line}:${e.column}:${e.code}:${e.message}`;
    return !seen.has(key) && seen.add(key);
  });
}

// The code points of `text` before byte column `col` (from 1): where a caret goes.
function charsBefore(text, col) {
  return [...decoder.decode(encoder.encode(text).subarray(0, Math.max(0, col - 1)))].length;
}

// An error as the problems list shows it, laid out as the terminal lays it
// out: its place and headline, each label in this file under its line of
// `doc` (^ the primary, - the others), a label elsewhere by its place, then
// its notes and its help.
export function describeDiagnostic(e, doc = null, path = null) {
  const place = (p) => (p.file ? `${p.file}:${p.line}:${p.column}` : '');
  const head = `${place(e) ? `${place(e)}: ` : ''}error[${e.code}]: ${e.message}`;
  const here = (e.labels ?? []).filter((l) => doc && l.file === path && l.line >= 1 && l.line <= doc.lines);
  const width = String(Math.max(1, ...here.map((l) => l.line))).length;
  const bar = `${' '.repeat(width + 1)}|`;
  const lines = [head];
  if (here.length) lines.push(bar);
  let shown = 0;
  for (const l of here) {
    const text = doc.line(l.line).text;
    if (l.line !== shown) lines.push(`${String(l.line).padStart(width)} | ${text}`);
    shown = l.line;
    const from = charsBefore(text, l.column);
    const to = l.end_line === l.line ? Math.max(from + 1, charsBefore(text, l.end_column)) : [...text].length;
    const mark = (l.primary ? '^' : '-').repeat(Math.max(1, to - from));
    lines.push(`${bar} ${' '.repeat(from)}${mark}${l.message ? ` ${l.message}` : ''}`.trimEnd());
  }
  for (const l of e.labels ?? []) if (!here.includes(l) && l.message) lines.push(`${bar} ${place(l)}: ${l.message}`);
  for (const n of e.notes ?? []) lines.push(`${' '.repeat(width + 1)}= note: ${n}`);
  if (e.help) lines.push(`${' '.repeat(width + 1)}= help: ${e.help}`);
  return lines.join('\n');
}

// Diagnostics for the errors in the file itself, each over its primary
// label's span. Errors met in an imported module stay in the list under
// the editor (`elsewhere`).
export function toDiagnostics(doc, report, path) {
  const out = [];
  for (const e of runDiagnostics(report)) {
    if (e.file !== path) continue;
    const from = offsetAt(doc, e.line, e.column);
    if (from === null) continue;
    let to = offsetAt(doc, e.end_line, e.end_column) ?? from;
    if (to <= from) to = Math.min(doc.lineAt(from).to, from + 1);  // an empty span: one character
    out.push({ from, to: Math.max(to, from), severity: 'error', source: e.code, message: describeDiagnostic(e, doc, path) });
  }
  return out.sort((a, b) => a.from - b.from);
}

// The errors with no place in the file: met in an import, or with no place at all.
export function elsewhere(report, path) {
  return runDiagnostics(report).filter((e) => e.file !== path).map(describeDiagnostic);
}
