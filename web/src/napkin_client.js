// The page's side of napkin_worker.js: starts the worker from its bundled
// source (a page opened from disk may start a worker from a blob, not from
// a file) and turns its messages into promises.
//   const napkin = startNapkin(source);
//   await napkin.ready;                         // ms napkin took to start
//   const r = await napkin.run(args, files);    // { code, stdout, stderr, ms }
export function startNapkin(source) {
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  const pending = new Map();
  let next = 0;
  let settle;
  const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  const failAll = (message) => {
    settle.reject(new Error(message));
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  worker.onmessage = ({ data }) => {
    if ('ready' in data) return settle.resolve(data.ready);
    if ('failed' in data) return failAll(data.failed);
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if ('error' in data) p.reject(new Error(data.error));
    else p.resolve(data.result);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failAll(e.message || 'the worker stopped');
  };
  return {
    ready,
    run(args, files) {
      return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, args, files });
      });
    },
  };
}
