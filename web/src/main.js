// The playground: an editor on a napkin file, evaluated by napkin itself
// (compiled to WebAssembly, embedded in the page) on every edit.
import { EditorState, Transaction } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history as undoHistory, historyKeymap } from '@codemirror/commands';
import { setDiagnostics, lintGutter, lintKeymap } from '@codemirror/lint';
import examples from 'napkin:examples';
import { startNapkin } from './napkin_client.js';
import { napkinLanguage } from './language.js';
import { valuesField, setResults, buildDecorations, valuePlaces } from './values.js';
import { toDiagnostics, elsewhere } from './diagnostics.js';
import { renderDerivation } from './derivation.js';
import { encodeShare, decodeShare } from './share.js';
import { StatusLine, evaluationStatus, shareNotice } from './status.js';
import './playground.css';

const DEFAULT_EXAMPLE = 'exercise1_size_a_model.napkin';
const DEBOUNCE_MS = 60;

// What the tests and the benchmark read: times in ms from performance.now().
const probe = { scriptStart: performance.now(), evaluations: 0, withFormulas: 0, timings: [], marks: {} };
window.napkinPlayground = probe;
// Where the first evaluation's time goes, on a clock a frame holding the page shares (ms since the epoch).
const mark = (name) => { probe.marks[name] ??= performance.timeOrigin + performance.now(); };
probe.marks.navigationStart = performance.timeOrigin;
mark('scriptStart');

// napkin starts first: compiled and started before the editor is made.
const napkin = startNapkin(decodeBase64(document.getElementById('napkin-wasm').textContent), probe.marks);

const $ = (id) => document.getElementById(id);
const status = new StatusLine($('status'));
const problems = $('problems-list');
const derivationPanel = $('derivation');
const picker = $('examples');

let path = DEFAULT_EXAMPLE;
let openKey = null; // the value whose derivation the panel shows
let timer = null;
let lastReport = null; // the JSON of the last evaluation: where its values are written

function decodeBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

// The value written on the cursor's line, by the last evaluation's places.
function fieldOnLine(state, pos) {
  if (!lastReport) return null;
  const n = state.doc.lineAt(pos).number;
  const f = valuePlaces(lastReport, path).find((x) => x.at.line === n);
  return f ? f.key : null;
}

function explainAtCursor(v) {
  const sel = v.state.selection.main;
  const picked = v.state.sliceDoc(sel.from, sel.to).trim();
  const key = picked && !picked.includes('\n') ? picked : fieldOnLine(v.state, sel.head);
  if (key) explain(key, true);
  return true;
}

// The editor is made once the first evaluation has answered, from a state
// that already holds the file's values: the browser lays out the file and
// its values once, rather than the file first and everything again when the
// values come. Until then `opening` holds the file's text.
let view = null;
let opening = null;

const extensions = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightActiveLine(),
  drawSelection(),
  undoHistory(),
  napkinLanguage(),
  valuesField,
  lintGutter(),
  EditorView.lineWrapping,
  EditorView.contentAttributes.of({ 'aria-label': 'napkin file' }),
  keymap.of([
    // Ctrl-Enter (Cmd-Enter): the derivation of the selected expression, or else of the field on the cursor's line.
    { key: 'Mod-Enter', run: explainAtCursor },
    ...defaultKeymap, ...historyKeymap, ...lintKeymap,
  ]),
  EditorView.updateListener.of((u) => {
    if (!u.docChanged) return;
    // The reader's own edit (typing, a paste, an undo) ends a notice; a file opened by the page does not.
    if (u.transactions.some((t) => t.annotation(Transaction.userEvent) !== undefined)) status.dismiss();
    schedule();
  }),
  EditorView.domEventHandlers({
    mousedown(e) {
      const t = e.target.closest && e.target.closest('.nv-value');
      if (!t) return false;
      e.preventDefault();
      explain(t.dataset.key, false);
      return true;
    },
  }),
];

function makeEditor(state) {
  view = new EditorView({ parent: $('editor'), state });
  opening = null;
  mark('editorCreated');
}

const currentText = () => (view ? view.state.doc.toString() : opening);
probe.doc = currentText;
probe.path = () => path;
probe.evaluate = () => evaluate();

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(evaluate, DEBOUNCE_MS);
}

async function runNapkin(args, text) {
  return napkin.run(args, { [path]: text });
}

// brief: 'lines' (each value's display, formula and numbers; its derivation
// tree comes from `explain` when it is opened), or 'values' for a file just
// opened: its values on screen sooner, the formulas in their tooltips with
// the run that follows at once.
async function evaluate(brief = 'lines') {
  const text = currentText();
  clearTimeout(timer);
  const t0 = performance.now();
  mark('firstAsked');
  const r = await runNapkin(['run', path, '--format', 'json', brief === 'values' ? '--brief=values' : '--brief'], text);
  mark('firstAnswered');
  let report = null;
  try { report = JSON.parse(r.stdout); } catch { report = null; }
  if (currentText() !== text) return; // edited meanwhile: the next evaluation comes
  const state = view ? view.state : EditorState.create({ doc: text, extensions });
  mark('stateMade');
  lastReport = report;
  const effects = [setResults.of(buildDecorations(state.doc, report ?? { values: {}, checks: [] }, path))];
  const diagnostics = toDiagnostics(state.doc, report, path);
  const update = [setDiagnostics(state, diagnostics), { effects }];
  if (view) view.dispatch(...update);
  else {
    const withValues = state.update(...update).state;
    mark('valuesPlaced');
    makeEditor(withValues);
  }
  showProblems(report, r, diagnostics);
  const t2 = performance.now();
  probe.evaluations++;
  probe.timings.push({ run: r.ms, total: t2 - t0, brief });
  mark('firstDrawn');
  if (brief === 'lines') {
    probe.withFormulas++;
    mark('formulasDrawn');
  }
  showStatus(report, r, r.ms);
  if (openKey) explain(openKey, false);
  // The formulas once the values are painted: the run goes in a task after
  // the frame that shows them (requestAnimationFrame runs as it starts), or
  // after 50 ms where no frame comes (a hidden tab, a frame out of sight).
  // An earlier task would hold that frame back by a whole run.
  if (brief === 'values') {
    let asked = false;
    const later = () => {
      if (asked) return;
      asked = true;
      timer = setTimeout(() => { mark('firstPainted'); evaluate(); }, 0);
    };
    requestAnimationFrame(later);
    setTimeout(later, 50);
  }
}

function showStatus(report, r, ms) {
  status.show(evaluationStatus(report, r, ms));
}

function gotoLine(n, select = null) {
  const line = view.state.doc.line(Math.min(Math.max(1, n), view.state.doc.lines));
  view.dispatch({ selection: select ?? { anchor: line.from }, scrollIntoView: true });
  view.focus();
}

function showProblems(report, r, diagnostics) {
  problems.replaceChildren();
  const shown = new Set();
  for (const d of diagnostics) {
    const li = document.createElement('li');
    const line = view.state.doc.lineAt(d.from);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `line ${line.number}, column ${d.from - line.from + 1}`;
    b.addEventListener('click', () => gotoLine(line.number, { anchor: d.from, head: d.to }));
    const pre = document.createElement('pre');
    pre.textContent = d.message;
    shown.add(d.message);
    li.append(b, pre);
    problems.append(li);
  }
  // Errors elsewhere (an import), and napkin's output when it wrote no report.
  for (const text of elsewhere(report, path)) {
    if (shown.has(text)) continue;
    const li = document.createElement('li');
    const pre = document.createElement('pre');
    pre.textContent = text;
    li.append(pre);
    problems.append(li);
  }
  if (!report && problems.children.length === 0) {
    const li = document.createElement('li');
    const pre = document.createElement('pre');
    pre.textContent = r.stderr || `napkin exited with status ${r.code} and no report`;
    li.append(pre);
    problems.append(li);
  }
  $('problems').hidden = problems.children.length === 0;
}

async function explain(key, focus) {
  openKey = key;
  const text = currentText();
  const tree = await runNapkin(['explain', path, key, '--format', 'json'], text);
  const flat = await runNapkin(['explain', path, key, '--flat'], text);
  let parsed = null;
  try { parsed = JSON.parse(tree.stdout); } catch { parsed = null; }
  renderDerivation(derivationPanel, {
    key, tree: parsed, flat: flat.code === 0 ? flat.stdout.trimEnd() : null,
    error: tree.stderr, path, goto: (n) => gotoLine(n),
  });
  if (focus) derivationPanel.focus();
}

function closeDerivation() {
  openKey = null;
  derivationPanel.replaceChildren($('derivation-help').content.cloneNode(true));
}

function open(name, text) {
  path = name;
  picker.value = Object.hasOwn(examples, name) ? name : '';
  closeDerivation();
  if (!view) opening = text;
  else if (view.state.doc.toString() !== text)
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
  return evaluate('values');
}

for (const name of Object.keys(examples)) {
  const o = document.createElement('option');
  o.value = name;
  o.textContent = name.replace(/\.napkin$/, '');
  picker.append(o);
}
picker.addEventListener('change', () => {
  if (!picker.value) return;
  status.dismiss();
  history.replaceState(null, '', location.pathname + location.search);
  open(picker.value, examples[picker.value]);
});

$('share').addEventListener('click', async () => {
  const hash = await encodeShare(path, currentText());
  history.replaceState(null, '', hash);
  const url = $('share-url');
  url.value = location.href;
  $('share-box').hidden = false;
  url.focus();
  url.select();
  try { await navigator.clipboard.writeText(location.href); $('share-note').textContent = 'Copied. The link holds the whole file.'; } catch { $('share-note').textContent = 'The link holds the whole file: copy it from the box.'; }
});

derivationPanel.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') { closeDerivation(); view?.focus(); }
});

async function openFromLocation() {
  status.dismiss();
  try {
    const shared = await decodeShare(location.hash);
    if (shared) return open(shared.name, shared.text);
  } catch (e) {
    status.warn(shareNotice(e));
  }
  return open(DEFAULT_EXAMPLE, examples[DEFAULT_EXAMPLE]);
}
window.addEventListener('hashchange', () => { if (location.hash.includes('z=')) openFromLocation(); });

async function start() {
  status.show('loading napkin…');
  closeDerivation();
  napkin.ready.then((ms) => {
    probe.loadMs = ms;
  }, () => {});
  await openFromLocation();
}
probe.ready = start().catch((e) => {
  if (!view) makeEditor(EditorState.create({ doc: opening ?? '', extensions }));
  status.show(`napkin could not start: ${e.message}`);
  throw e;
});
