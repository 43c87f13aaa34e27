// Runs in headless Chromium on a page that holds a roofline SVG inline:
// reads the axes from the picture's own tick labels, draws the SVG into a
// canvas, and checks the roof's pixels sit where the GPU's figures put them
// (window.roofExpect: [intensity in FLOP/B, TFLOP/s] pairs on the roof, and
// pairs that must stay clear, and the ridge's ring). The verdict goes into the page's title.
(async () => {
  const svg = document.querySelector('svg');
  const labels = [...svg.querySelectorAll('text')].filter(t => /^[0-9][0-9,.]*$/.test(t.textContent));
  const value = t => Number(t.textContent.replace(/,/g, ''));
  // x labels are centred under the axis, y labels right-aligned beside it.
  const xs = labels.filter(t => t.getAttribute('text-anchor') === 'middle' && !t.getAttribute('font-weight'));
  const ys = labels.filter(t => t.getAttribute('text-anchor') === 'end');
  // A label's middle is its tick's place (its y attribute is the baseline).
  const middle = (t, coord) => { const b = t.getBBox(); return coord === 'x' ? b.x + b.width / 2 : b.y + b.height / 2; };
  const axis = (ticks, coord) => {
    const a = ticks[0], b = ticks[ticks.length - 1];
    const ca = middle(a, coord), cb = middle(b, coord);
    const la = Math.log10(value(a)), lb = Math.log10(value(b));
    return v => ca + (Math.log10(v) - la) * (cb - ca) / (lb - la);
  };
  const xOf = axis(xs, 'x'), yOf = axis(ys, 'y');
  const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
  const img = new Image();
  const blob = new Blob([new XMLSerializer().serializeToString(svg)], {type: 'image/svg+xml'});
  img.src = URL.createObjectURL(blob);
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = w; canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const lum = (x, y) => { const p = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data; return (p[0] + p[1] + p[2]) / 3; };
  const darkest = (x, y) => { let m = 255; for (let d = -2; d <= 2; d++) m = Math.min(m, lum(x, y + d)); return m; };
  const fails = [];
  for (const [i, perf] of window.roofExpect.on) {
    const x = xOf(i), y = yOf(perf), m = darkest(x, y);
    if (m > 100) fails.push(`no roof at ${i} FLOP/B, ${perf} TFLOP/s (pixel ${x.toFixed(1)},${y.toFixed(1)}: luminance ${m})`);
  }
  // The ridge is marked by a ring of radius 5 drawn around its point.
  for (const [i, perf] of window.roofExpect.ring || []) {
    const x = xOf(i), y = yOf(perf) - 5, m = darkest(x, y);
    if (m > 100) fails.push(`no ring at the ridge, ${i} FLOP/B, ${perf} TFLOP/s (luminance ${m})`);
  }
  for (const [i, perf] of window.roofExpect.off) {
    const x = xOf(i), y = yOf(perf), m = darkest(x, y);
    if (m < 200) fails.push(`a line at ${i} FLOP/B, ${perf} TFLOP/s where the roof must not be (luminance ${m})`);
  }
  document.title = fails.length ? 'FAIL ' + fails.join('; ') : `ok ${window.roofExpect.on.length + (window.roofExpect.ring || []).length + window.roofExpect.off.length} pixels`;
})().catch(e => { document.title = 'FAIL ' + e; });
