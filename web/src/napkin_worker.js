// The playground's napkin in a worker of its own: the .wasm is decoded,
// compiled and started off the page's thread from the moment the page
// starts, while the editor is drawn, and an evaluation never holds up
// typing. The page's side is napkin_client.js.
//   in:  { id, args, files }            a command line and the files it reads
//   out: { ready: ms }                  once napkin has started (ms: how long that took)
//        { failed: message }            napkin could not start
//        { id, result: { code, stdout, stderr, ms } }   ms: the run's own time
//        { id, error: message }         the run could not be made (bad arguments)
import wasmBinary from 'napkin:wasm';
import { loadNapkin } from './napkin_runner.js';

const started = performance.now();
const napkin = loadNapkin(wasmBinary);
napkin.then(
  () => postMessage({ ready: performance.now() - started }),
  (e) => postMessage({ failed: e && e.message ? e.message : String(e) }),
);

onmessage = async ({ data: { id, args, files } }) => {
  let n;
  try {
    n = await napkin;
  } catch {
    return;  // reported once, as `failed`
  }
  try {
    const t0 = performance.now();
    const { code, stdout, stderr } = n.run(args, files, { readBack: false });
    postMessage({ id, result: { code, stdout, stderr, ms: performance.now() - t0 } });
  } catch (e) {
    postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
