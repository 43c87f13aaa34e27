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

// `source` is `FILE:LINE`; a place in the file being edited becomes a
// button that moves the cursor there.
function sourceLink(source, path, goto) {
  if (!source) return null;
  const m = /^(.*):(\d+)$/.exec(source);
  if (m && m[1] === path) {
    const b = el('button', 'dv-src', `line ${m[2]}`);
    b.type = 'button';
    b.title = `go to line ${m[2]}`;
    b.addEventListener('click', () => goto(Number(m[2])));
    return b;
  }
  return el('span', 'dv-src dv-lib', source);
}

function nodeLine(n, path, goto) {
  const line = el('span', 'dv-line', el('span', 'dv-label', n.label));
  const parts = [];
  // An input written as a literal (`6144`) shows only its value (`6,144`).
  const literal = !(n.children ?? []).length && n.formula === n.substituted && !/[(]/.test(n.formula ?? '');
  if (n.formula !== undefined && n.formula !== n.display && !literal) parts.push(code(n.formula));
  if (n.substituted !== undefined && n.substituted !== n.formula && n.substituted !== n.display) parts.push(code(n.substituted));
  for (const p of parts) line.append(' = ', p);
  line.append(' = ', el('strong', 'dv-result', n.display ?? ''));
  if (n.repeated) line.append(' ', el('span', 'dv-repeat', '(explained above)'));
  const src = sourceLink(n.source, path, goto);
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

// Fills `panel` with the derivation of `key`; `tree` is explain's JSON (or
// null when it failed, with `error` its standard error), `flat` the flat line.
export function renderDerivation(panel, { key, tree, flat, error, path, goto }) {
  panel.replaceChildren();
  panel.append(el('h2', null, 'Derivation of ', code(key)));
  if (!tree) {
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
