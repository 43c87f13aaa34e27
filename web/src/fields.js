// Where each value of `napkin run --format json` is written in the file:
// its qualified name (`parameters.d_head`, or `max_context` for a top-level
// `let`) and the place of the name that defines it. napkin's JSON carries no
// places for values, so the page finds them with this scan of the
// statements (docs/language.md, Statements): a record opens with `KIND NAME
// [extends BASE] {` or `KIND NAME = EXPR with {`, and inside its braces a
// field starts a line (or follows `,` or `;`) as `NAME =` or `NAME:`.
// Braces, parentheses and brackets inside a formula hold no fields of the
// record, so they are skipped.

const RECORD_KINDS = new Set(['model', 'hardware', 'scenario', 'record']);
const OTHER_STATEMENTS = new Set(['import', 'fn', 'unit', 'check', 'sweep', 'solve']);

function* tokens(text) {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '\n') { yield { t: 'nl', from: i, to: i + 1 }; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '#') { while (i < n && text[i] !== '\n') i++; continue; }
    if (c === '"') {
      const from = i++;
      while (i < n && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i = Math.min(n, i + 1);
      yield { t: 'str', from, to: i };
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const from = i;
      while (i < n && /[A-Za-z0-9_]/.test(text[i])) i++;
      yield { t: 'id', v: text.slice(from, i), from, to: i };
      continue;
    }
    if (c === '=' && text[i + 1] === '=') { yield { t: 'op', v: '==', from: i, to: i + 2 }; i += 2; continue; }
    yield { t: 'op', v: c, from: i, to: i + 1 };
    i++;
  }
}

// Returns { fields: [{ key, from, to }], records: [{ name, from, end }] }:
// a field's `from`/`to` are the offsets of its name; a record's `from` is
// where its statement starts and `end` where its last token ends, which is
// where the page lists the values it shows that the file does not write
// (a record type's headline fields, those a `with` moved).
export function scanFields(text) {
  const fields = [];
  const records = [];
  const toks = [...tokens(text)];
  const stack = []; // each open bracket: { record: NAME } for a record's body, {} for anything else
  let startOfItem = true; // the next token may begin a statement or a field
  let pendingRecord = null; // after `KIND NAME`: the statement's first `{` opens its body
  let open = null; // the record whose statement is being read
  let lastEnd = 0; // where the last token read ends
  const closeStatement = () => {
    if (open) { open.end = lastEnd; records.push(open); open = null; }
    pendingRecord = null;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    const next = toks[k + 1];
    const top = stack[stack.length - 1];
    if (tok.t === 'nl') {
      if (!top || top.record) startOfItem = true;
      continue;
    }
    const item = startOfItem;
    startOfItem = false;
    if (tok.t === 'op' && '{(['.includes(tok.v)) {
      if (tok.v === '{' && pendingRecord && !top) {
        stack.push({ record: pendingRecord });
        pendingRecord = null;
        startOfItem = true;
      } else {
        stack.push({});
      }
    } else if (tok.t === 'op' && '})]'.includes(tok.v)) {
      stack.pop();
    } else if (tok.t === 'op' && (tok.v === ',' || tok.v === ';') && top && top.record) {
      startOfItem = true;
    } else if (item && tok.t === 'id' && !top) {
      const assigns = next && next.t === 'op' && next.v === '=';
      if (RECORD_KINDS.has(tok.v) && next && next.t === 'id') {
        closeStatement();
        pendingRecord = next.v;
        open = { name: next.v, from: tok.from, end: next.to };
        k++;
        lastEnd = next.to;
        continue;
      }
      if (tok.v === 'let' && next && next.t === 'id') {
        closeStatement();
        fields.push({ key: next.v, from: next.from, to: next.to });
        k++;
        lastEnd = next.to;
        continue;
      }
      if (OTHER_STATEMENTS.has(tok.v) || assigns) closeStatement();
      if (assigns) fields.push({ key: tok.v, from: tok.from, to: tok.to });
      // Anything else continues the statement above (`  with {` on a line of its own).
    } else if (item && tok.t === 'id' && top.record && next && next.t === 'op' && (next.v === '=' || next.v === ':')) {
      fields.push({ key: `${top.record}.${tok.v}`, from: tok.from, to: tok.to });
    }
    lastEnd = tok.to;
  }
  closeStatement();
  return { fields, records };
}
