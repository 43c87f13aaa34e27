// napkin for the page: the .wasm compiled and started on the page's own
// thread before the editor is made, and run there, behind the
// promise-returning surface the page uses. (Measured in Chromium,
// bench/README.md: a worker of its own started 100 to 250 ms after it was
// asked for, longer than napkin's first evaluation takes; compiling with
// WebAssembly.compile in the background while the editor is made finished
// later than compiling at once.)
//   const napkin = startNapkin(wasmBytes, marks);  // marks.napkinReady: when it has started
//   await napkin.ready;                         // ms it took to compile and instantiate napkin
//   const r = await napkin.run(args, files);    // { code, stdout, stderr, ms }
import { loadNapkin } from './napkin_runner.js';

export function startNapkin(wasmBytes, marks = {}) {
  const clock = () => performance.timeOrigin + performance.now();
  const t0 = performance.now();
  // loadNapkin compiles and instantiates the module before it returns; its
  // promise settles once the page's script has run to its end.
  const loaded = loadNapkin(wasmBytes);
  marks.napkinReady = clock();
  const ms = performance.now() - t0;
  return {
    ready: loaded.then(() => ms),
    async run(args, files) {
      const napkin = await loaded;
      marks.firstRunStarted ??= clock();
      const t = performance.now();
      const { code, stdout, stderr } = napkin.run(args, files, { readBack: false });
      return { code, stdout, stderr, ms: performance.now() - t };
    },
  };
}
