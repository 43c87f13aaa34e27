// napkin's errors as editor diagnostics. JSON gives each error's code,
// message, file, line and column (from 1, the column in bytes of UTF-8, as
// the terminal's file:line:col); standard error gives the same errors as
// the terminal prints them, with the source line, the caret and the help,
// which is the text the editor shows.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The UTF-16 offset in `text` of byte column `col` (from 1).
function utf16Column(text, col) {
  const bytes = encoder.encode(text);
  return decoder.decode(bytes.subarray(0, Math.max(0, Math.min(bytes.length, col - 1)))).length;
}

// Splits standard error into one block per diagnostic, keyed `LINE:COL:CODE`.
export function diagnosticBlocks(stderr, path) {
  const blocks = new Map();
  let key = null;
  const header = /^(.*?):(\d+):(\d+): (?:error|warning)\[(E\d+)\]/;
  for (const line of stderr.split('\n')) {
    const m = header.exec(line);
    if (m) {
      key = m[1] === path ? `${m[2]}:${m[3]}:${m[4]}` : `${m[1]}:${m[2]}:${m[3]}:${m[4]}`;
      blocks.set(key, [line]);
    } else if (key && line !== '') {
      blocks.get(key).push(line);
    }
  }
  return new Map([...blocks].map(([k, v]) => [k, v.join('\n')]));
}

// Diagnostics for the errors in the file itself: those of the JSON report
// and those only standard error has (a failing check, error[E0500]).
// Errors met in an imported module stay in the list under the editor.
export function toDiagnostics(doc, errors, stderr, path) {
  const blocks = diagnosticBlocks(stderr, path);
  const places = new Map();
  for (const e of errors) {
    if (e.file === path) places.set(`${e.line}:${e.column}:${e.code}`, { line: e.line, column: e.column, code: e.code, message: e.message });
  }
  for (const key of blocks.keys()) {
    const m = /^(\d+):(\d+):(E\d+)$/.exec(key);
    if (m && !places.has(key)) places.set(key, { line: Number(m[1]), column: Number(m[2]), code: m[3] });
  }
  const out = [];
  for (const [key, e] of places) {
    if (!e.line || e.line > doc.lines) continue;
    const line = doc.line(e.line);
    const from = line.from + Math.min(line.length, utf16Column(line.text, e.column || 1));
    // The span: the word or number at the column, else one character.
    const rest = line.text.slice(from - line.from);
    const word = /^[A-Za-z0-9_.$%µ]+/.exec(rest);
    const to = Math.min(line.to, from + (word ? word[0].length : 1));
    const message = blocks.get(key) ?? `${path}:${e.line}:${e.column}: error[${e.code}]: ${e.message}`;
    out.push({ from, to: Math.max(to, from), severity: 'error', source: e.code, message });
  }
  return out.sort((a, b) => a.from - b.from);
}
