// napkin's tokens for highlighting, one at a time from CodeMirror's
// StringStream: a comment, a string, a number and the unit written after
// it, a keyword (`words` maps each to its kind), a call, a name, an
// operator. Each pattern is matched in place on the line (a sticky regular
// expression at the stream's position) rather than on a copy of the rest
// of the line, as StringStream.match would: the first view of a file is
// tokenized before it is drawn.
const NUMBER = /\$?[0-9][0-9_]*(\.[0-9]+)?([eE][+-]?[0-9]+)?%?/y;
const WORD = /[A-Za-z_$µμ][A-Za-z0-9_]*/y;
// A compound unit after its first word: `token/s`, `FLOP/param/token`, `B^2`.
const UNIT_REST = /(\^-?[0-9]+)?([*/][A-Za-z$µμ][A-Za-z0-9_]*(\^-?[0-9]+)?)*/y;
const CALL_AHEAD = /\s*\(/y;
const OPERATOR = /->|==|!=|<=|>=|~=|≈|[-+*/^<>=·×]/y;
// A word after a number is its unit unless an expression may hold it there (`64 with`, `2 to 3`).
const NOT_UNITS = new Set(['within', 'with', 'if', 'then', 'else', 'and', 'or', 'not', 'true', 'false', 'to']);

// Advances `stream` past `re` where it matches at the stream's position.
function eat(stream, re) {
  re.lastIndex = stream.pos;
  if (!re.test(stream.string)) return false;
  stream.pos = re.lastIndex;
  return true;
}

function ahead(stream, re) {
  re.lastIndex = stream.pos;
  return re.test(stream.string);
}

export const startState = () => ({ afterNumber: false });

// The next token's kind: 'comment', 'string', 'number', 'unit', a kind from
// `words`, 'call', 'name', 'operator', or null (space, anything else).
export function token(stream, state, words) {
  if (stream.sol()) state.afterNumber = false;
  if (stream.eatSpace()) return null;
  const afterNumber = state.afterNumber;
  state.afterNumber = false;
  const c = stream.peek();
  if (c === '#') {
    stream.skipToEnd();
    return 'comment';
  }
  if (c === '"') {
    stream.next();
    let ch;
    while ((ch = stream.next()) != null) {
      if (ch === '\\') stream.next();
      else if (ch === '"') break;
    }
    return 'string';
  }
  if (eat(stream, NUMBER)) {
    state.afterNumber = true;
    return 'number';
  }
  if (eat(stream, WORD)) {
    const w = stream.current();
    const kind = words.get(w);
    if (kind) return kind;
    if (afterNumber && !NOT_UNITS.has(w)) {
      eat(stream, UNIT_REST);
      return 'unit';
    }
    return ahead(stream, CALL_AHEAD) ? 'call' : 'name';
  }
  if (eat(stream, OPERATOR)) return 'operator';
  stream.next();
  return null;
}
