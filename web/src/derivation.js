// The derivation panel: `napkin explain FILE NAME --format json` as a tree
// (each value: its formula, the formula with its numbers, the result, and
// the values it is made of), and `napkin explain FILE NAME --flat`, the
// whole derivation on one line.

function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function code(text) { return el('code', null, text); }

// Where a node's formula is written, from explain's `at` (file and line as
// data): `{ line }` in the file being edited, `{ text }` in another file (a
// library's), null where it has none. `source` is only shown, never read.
export function sourcePlace(n, path) {
  if (!n.at || !n.at.file || !Number.isInteger(n.at.line)) return null;
  if (n.at.file === path) return { line: n.at.line };
  return { text: n.source ?? `${n.at.file}:${n.at.line}` };
}

// What a node shows between its label and its result: its formula, then the
// formula with its numbers, each left out where it says nothing new. A
// literal (explain's `literal`: `6144`) shows only its value (`6,144`).
export function shownTerms(n) {
  const parts = [];
  if (n.formula !== undefined && n.formula !== n.display && !n.literal) parts.push(n.formula);
  if (n.substituted !== undefined && n.substituted !== n.formula && n.substituted !== n.display && !n.literal)
    parts.push(n.substituted);
  return parts;
}

// A place in the file being edited becomes a button that moves the cursor there.
function sourceLink(n, path, goto) {
  const place = sourcePlace(n, path);
  if (!place) return null;
  if (place.line === undefined) return el('span', 'dv-src dv-lib', place.text);
  const b = el('button', 'dv-src', `line ${place.line}`);
  b.type = 'button';
  b.title = `go to line ${place.line}`;
  b.addEventListener('click', () => goto(place.line));
  return b;
}

function nodeLine(n, path, goto) {
  const line = el('span', 'dv-line', el('span', 'dv-label', n.label));
  for (const p of shownTerms(n)) line.append(' = ', code(p));
  line.append(' = ', el('strong', 'dv-result', n.display ?? ''));
  if (n.repeated) line.append(' ', el('span', 'dv-repeat', '(explained above)'));
  const src = sourceLink(n, path, goto);
  if (src) line.append(' ', src);
  return line;
}

function renderNode(n, depth, path, goto) {
  const li = el('li');
  const kids = n.children ?? [];
  if (kids.length === 0 || n.repeated) {
    li.append(nodeLine(n, path, goto));
    return li;
  }
  const details = el('details');
  details.open = depth < 2;
  details.append(el('summary', null, nodeLine(n, path, goto)));
  details.append(el('ul', null, ...kids.map((k) => renderNode(k, depth + 1, path, goto))));
  li.append(details);
  return li;
}

// Fills `panel` with the derivation of `key`; `tree` is explain's JSON (null,
// or a document of `errors`, when it failed, with `error` its standard
// error), `flat` the flat line.
export function renderDerivation(panel, { key, tree, flat, error, path, goto }) {
  panel.replaceChildren();
  panel.append(el('h2', null, 'Derivation of ', code(key)));
  if (!tree || tree.errors) {
    panel.append(el('pre', 'dv-error', error || 'napkin explain failed'));
    return;
  }
  if (flat) {
    panel.append(el('h3', null, 'In one line'));
    panel.append(el('pre', 'dv-flat', flat));
  }
  panel.append(el('h3', null, 'Step by step'));
  panel.append(el('ul', 'dv-tree', renderNode(tree, 0, path, goto)));
}
