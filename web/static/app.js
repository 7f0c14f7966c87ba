// The demo page (docs/demo.md). Presentation only: every layout answer
// (parsing, diagnostics, L(x), owners, holders, banks, conflicts, bridges,
// algebra, analyses, plans) comes from the library through layoutkit.js;
// this file draws what it returns and keeps the page state.
'use strict';

// ---------------------------------------------------------------------------
// The engine: the wasm module runs in a worker (worker.js). One request is
// in flight at a time; each belongs to a lane ('tile', 'ops', 'tv', 'plan',
// 'pick'), and a new request supersedes its lane's older one: dropped when
// still queued, the worker terminated and restarted (from the compiled
// module, a few ms) when it is the one running. A superseded request
// resolves to null; its caller draws nothing.
// ---------------------------------------------------------------------------
const engine = {
  module: null, worker: null, seq: 0, running: null, queue: [], restarts: 0,
  start() {
    this.worker = new Worker('worker.js');
    this.worker.onmessage = (e) => this.done(e.data);
    this.worker.onerror = (e) => { e.preventDefault(); this.done({seq: this.running && this.running.seq, fatal: e.message || 'error'}); };
    this.worker.postMessage({init: this.module});
  },
  restart() {
    this.worker.terminate();
    this.restarts++;
    this.start();
  },
  // calls: [[fn, ...args], ...]; stop: skip the rest when one of the
  // first `stop` calls fails.
  request(lane, calls, stop = 0) {
    return new Promise((resolve) => {
      for (const q of this.queue) if (q.lane === lane) q.resolve(null);
      this.queue = this.queue.filter((q) => q.lane !== lane);
      this.queue.push({lane, calls, stop, resolve, seq: ++this.seq});
      if (this.running && this.running.lane === lane) {
        this.running.resolve(null);
        this.running = null;
        this.restart();
      }
      this.pump();
    });
  },
  pump() {
    if (!this.running && this.queue.length) {
      this.running = this.queue.shift();
      this.worker.postMessage({seq: this.running.seq, calls: this.running.calls, stop: this.running.stop});
    }
    markBusy();
  },
  done(d) {
    const r = this.running;
    if (!r || d.seq !== r.seq) return;
    this.running = null;
    if (d.fatal) {
      // A trapped module is not reused: every reply is the reason.
      this.restart();
      const error = {message: 'the engine stopped (' + d.fatal + '); it was restarted', offset: -1, notes: [], field: 'layout'};
      r.resolve(r.calls.map(() => ({ok: false, error})));
    } else {
      window.lkEngineMs = d.ms;
      r.resolve(d.replies);
    }
    this.pump();
  },
  pending() { return this.queue.length + (this.running ? 1 : 0); },
};

// Debounced input. The body's data-busy counts what is still to come (the
// tests wait for 0). An edit after `ms` of quiet asks at once (an edit's picture is not
// delayed); one within `ms` of the last ask waits until `ms` pass without
// another (typing asks once more, for the last text).
const timers = new Map(), lastAsk = new Map();
let urlPending = false;
function later(key, fn, ms = 150) {
  const run = () => { timers.delete(key); lastAsk.set(key, performance.now()); fn(); markBusy(); };
  clearTimeout(timers.get(key));
  if (!timers.has(key) && performance.now() - (lastAsk.get(key) ?? -Infinity) >= ms) { run(); return; }
  timers.set(key, setTimeout(run, ms));
  markBusy();
}
function markBusy() {
  document.body.dataset.busy = String(timers.size + engine.pending() + paintJobs.length + (urlPending ? 1 : 0) + exporting);
}

const $ = (id) => document.getElementById(id);
// n and the noun, plural unless n is 1 (the library's counted()).
const counted = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));

// ---------------------------------------------------------------------------
// State: tabs of layouts, the view, the operation inputs; kept in the URL.
// ---------------------------------------------------------------------------
const defaults = () => ({text: '', shape: '', dtype: 'f16', swizzle: 'none', column: 0, colour: '', cell: 'none', preset: ''});
const state = {tabs: [defaults()], active: 0, view: 'tile'};
let presets = [];
let cur = {}; // the active tab's replies
let sel = {logical: new Set(), physical: new Set(), cursorL: 0, cursorP: 0, cursorS: 0};

const tab = () => state.tabs[state.active];

function saveUrl() {
  const s = {tabs: state.tabs.map(({fromUrl, ...t}) => t), active: state.active, view: state.view,
    op: [$('op').value, $('opA').value, $('opB').value], tv: [$('tv').value, $('tvshape').value], dst: $('dst').value};
  history.replaceState(null, '', '#' + encodeURIComponent(JSON.stringify(s)));
}

// The choices a URL state may name; anything else is replaced by the
// default and listed in the notice above the page.
const options = (id) => [...$(id).options].map((o) => o.value);
function loadUrl() {
  if (location.hash.length < 2) return false;
  const fixed = [];
  const pick = (what, v, allowed, dflt) => {
    if (allowed.includes(v)) return v;
    fixed.push(`${what} ${JSON.stringify(v)} is not one of ${allowed.join(', ')}: using ${dflt}`);
    return dflt;
  };
  const text = (what, v, dflt) => {
    if (typeof v === 'string') return v;
    if (v !== undefined) fixed.push(`${what} is not a text: using ${JSON.stringify(dflt)}`);
    return dflt;
  };
  let s;
  try {
    s = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch (e) {
    s = null;
  }
  if (!s || typeof s !== 'object' || !Array.isArray(s.tabs) || !s.tabs.length || s.tabs.length > 32) {
    showNotice('The URL does not hold a page state (expected {"tabs": [1 to 32 layouts], ...}); showing the first preset.');
    return false;
  }
  const d = defaults();
  state.tabs = s.tabs.map((t, k) => {
    const o = t && typeof t === 'object' ? t : {};
    const w = `tab ${k + 1}:`;
    const col = Number.isInteger(o.column) && o.column >= 0 ? o.column : (o.column === undefined ? 0 : (fixed.push(`${w} column ${JSON.stringify(o.column)} is not a whole number >= 0: using 0`), 0));
    return {text: text(`${w} layout`, o.text, ''), shape: text(`${w} shape`, o.shape, ''),
      dtype: pick(`${w} dtype`, o.dtype === undefined ? d.dtype : o.dtype, options('dtype'), d.dtype),
      swizzle: pick(`${w} swizzle`, o.swizzle === undefined ? d.swizzle : o.swizzle, options('swizzle'), d.swizzle),
      column: col, colour: text(`${w} colour`, o.colour, ''), fromUrl: true,
      cell: pick(`${w} cell`, o.cell === undefined ? d.cell : o.cell, options('cellmode'), d.cell),
      preset: text(`${w} preset`, o.preset, '')};
  });
  state.active = Number.isInteger(s.active) && s.active >= 0 && s.active < state.tabs.length ? s.active : 0;
  state.view = pick('view', s.view === undefined ? 'tile' : s.view, ['tile', 'ops', 'tv', 'plan'], 'tile');
  if (Array.isArray(s.op) && s.op.length === 3) {
    $('op').value = pick('operation', s.op[0], options('op'), 'composition');
    $('opA').value = text('A', s.op[1], $('opA').value); $('opB').value = text('B', s.op[2], $('opB').value);
  }
  if (Array.isArray(s.tv) && s.tv.length === 2) { $('tv').value = text('TV layout', s.tv[0], $('tv').value); $('tvshape').value = text('TV shape', s.tv[1], $('tvshape').value); }
  if (s.dst !== undefined) $('dst').value = text('destination', s.dst, $('dst').value);
  if (fixed.length) showNotice('Parts of the URL state were not understood:\n' + fixed.join('\n'));
  return true;
}

function showNotice(text) {
  $('notice').textContent = text;
  $('notice').hidden = !text;
}

// ---------------------------------------------------------------------------
// Drawing: a grid is a canvas (cells written as pixels, then ticks, axis
// names and labels), a highlight layer (SVG over it) and a colour legend
// below. g = {rows, cols, value(i) -> colour value or -1, label(i) -> text,
// title, xName, yName, legend: what the colour means, parts: values side
// by side in a cell (part(i, p), partLabel(i, p)), cw / ch: cell size,
// rowBase: the first row's number}. The SVG export draws the same g.
// ---------------------------------------------------------------------------
const colourMemo = new Map();
// Colour value v as 0xAABBGGRR (ImageData's byte order on little-endian
// machines): hue 137.5 v degrees (golden angle), lightness alternating.
function rgbOf(v) {
  if (v === undefined || v === null || v < 0) return 0xffeeeeee;
  let c = colourMemo.get(v);
  if (c === undefined) {
    const h = (v * 137.508) % 360, s = 0.62, l = v % 2 ? 0.72 : 0.62;
    const a = s * Math.min(l, 1 - l);
    const f = (n) => { const k = (n + h / 30) % 12; return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)))); };
    c = ((0xff << 24) | (f(4) << 16) | (f(8) << 8) | f(0)) >>> 0;
    colourMemo.set(v, c);
  }
  return c;
}
const cssOf = (c) => `rgb(${c & 255},${(c >>> 8) & 255},${(c >>> 16) & 255})`;
const cssMemo = new Map();
const colourOf = (v) => { const c = rgbOf(v); let s = cssMemo.get(c); if (s === undefined) { s = cssOf(c); cssMemo.set(c, s); } return s; };

function cellSize(rows, cols, width) {
  return Math.max(2, Math.min(28, Math.floor((width - 50) / Math.max(cols, 1))));
}

// Canvas sides stay under 30000 px (Chromium refuses larger ones): the
// cells shrink, down to 1 px; columns beyond that are not drawn.
const kMaxSide = 30000;
function gridGeom(g, width) {
  const ox = 44, oy = 36;
  // The top margin: the x axis's name, the y axis's name, the column
  // numbers; the left margin: the row numbers. A grid narrower than its
  // axis names is widened to show them (9 px monospace: under 6 px a
  // character).
  let cw = g.cw || cellSize(g.rows, g.cols, width), ch = g.ch || cw;
  const fit = (n, o) => Math.max(1, Math.floor((kMaxSide - o - 2) / Math.max(n, 1)));
  if (g.rows * ch + oy + 2 > kMaxSide) { const k = fit(g.rows, oy); cw = Math.max(1, Math.round(cw * k / ch)); ch = k; }
  if (g.cols * cw + ox + 2 > kMaxSide) cw = fit(g.cols, ox);
  const cols = Math.min(g.cols, Math.floor((kMaxSide - ox - 2) / cw)), rows = Math.min(g.rows, Math.floor((kMaxSide - oy - 2) / ch));
  const names = 6 * (4 + Math.max(g.xName.length, g.yName.length));
  return {ox, oy, cw, ch, cols, rows, W: Math.max(ox + cols * cw + 2, names), H: oy + rows * ch + 2};
}

// Painting is incremental, in tasks of a bounded length (the page answers
// input within one of them): a grid's strips wait in paintJobs, each strip
// at most kStripCells cells, its colour values read when it is painted.
// paintVisibleNow() (called once the grids are in the page) moves the
// strips on the screen to the front and paints them for up to kPaintMs;
// the rest are painted after the next frame is on the screen, strips for
// up to kPaintMs between frames, those on the screen first. A grid
// replaced before it is finished drops its strips. body[data-busy] counts
// the strips still to paint.
const paintJobs = [];
const kPaintMs = 8;
let paintTicking = false;
const afterFrame = (fn) => requestAnimationFrame(() => setTimeout(fn));
function paintLater(job) {
  paintJobs.push(job);
  if (!paintTicking) { paintTicking = true; afterFrame(paintTick); }
  markBusy();
}
function onScreen(cv) {
  const vh = window.innerHeight, vw = window.innerWidth;
  const r = cv.getBoundingClientRect(), panel = cv.closest('.panel, figure');
  const p = panel ? panel.getBoundingClientRect() : {top: 0, bottom: vh, left: 0, right: vw};
  return r.bottom > Math.max(0, p.top) && r.top < Math.min(vh, p.bottom) && r.right > Math.max(0, p.left) && r.left < Math.min(vw, p.right);
}
// Strips on the screen first (their order kept), then the others; the
// number on the screen.
function visibleFirst() {
  const live = paintJobs.filter((j) => j.cv.isConnected), shown = live.filter((j) => onScreen(j.cv));
  paintJobs.splice(0, paintJobs.length, ...shown, ...live.filter((j) => !shown.includes(j)));
  return shown.length;
}
// Paints strips for up to ms; then, once no strip on the screen is left,
// runs the whenVisiblePainted callbacks.
const visibleWaiters = [];
function paintFor(ms) {
  let shown = visibleFirst();
  const t0 = performance.now();
  while (paintJobs.length && performance.now() - t0 < ms) {
    paintJobs.shift().paint();
    --shown;
  }
  if (shown <= 0) for (const fn of visibleWaiters.splice(0)) fn();
}
// fn() once the strips now on the screen are painted.
function whenVisiblePainted(fn) {
  visibleWaiters.push(fn);
  if (!paintJobs.some((j) => j.cv.isConnected && onScreen(j.cv))) for (const f of visibleWaiters.splice(0)) f();
}
function paintVisibleNow() {
  paintFor(kPaintMs);
  if (paintJobs.length && !paintTicking) { paintTicking = true; afterFrame(paintTick); }
  markBusy();
}
function paintTick() {
  paintFor(kPaintMs);
  paintTicking = paintJobs.length > 0;
  if (paintTicking) afterFrame(paintTick);
  markBusy();
}

// The colour values of rows [r0, r1) of g (val[(i - r0 cols) parts + p]),
// adding the first 4097 distinct values (with their colours) to `seen`;
// returns the values and the number of cells with a value.
function colourValues(g, r0, r1, parts, seen) {
  const base = r0 * g.cols, n = (r1 - r0) * g.cols, val = new Int32Array(n * parts);
  let painted = 0;
  for (let k = 0; k < n; ++k) {
    let any = false;
    for (let p = 0; p < parts; ++p) {
      const v = parts > 1 ? g.part(base + k, p) : g.value(base + k);
      val[k * parts + p] = v;
      if (v >= 0) { any = true; if (seen.size <= 4096 && !seen.has(v)) seen.set(v, rgbOf(v)); }
    }
    if (any) ++painted;
  }
  return {val, painted};
}

// An ImageData of w x h pixels, reused while the strips of one size are
// painted (putImageData copies it): a 128x128 tile's strips would
// otherwise allocate tens of MB per edit for the collector.
const imageCache = new Map();
function imageData(ctx, w, h) {
  const key = w + 'x' + h;
  let img = imageCache.get(key);
  if (!img) {
    if (imageCache.size >= 8) imageCache.clear();
    img = ctx.createImageData(w, h);
    imageCache.set(key, img);
  }
  return img;
}

// A canvas strip of rows [r0, r1) of grid g (geometry geo; the grid's
// painting state grp: the legend's values, the painted cells, the strips
// left), the first with the top margin: {cv, paint()}; paint() reads the
// strip's colour values, fills the cells as pixels (a row of cells filled once, then copied down its pixel
// rows; a white line between cells of 6 px and more), then writes the
// axis names (first strip), row numbers and labels where they fit.
function gridStrip(g, geo, grp, r0, r1, dpr, reuse = null) {
  const {ox, oy, cw, ch} = geo, parts = g.parts || 1;
  const top = r0 ? 0 : oy, h = top + (r1 - r0) * ch + (r1 === geo.rows ? 2 : 0);
  const cv = reuse || document.createElement('canvas');
  if (!reuse) {
    cv.width = geo.W * dpr; cv.height = h * dpr;
    cv.style.width = geo.W + 'px'; cv.style.height = h + 'px';
  }
  const IW = geo.cols * cw * dpr, pw = (cw * dpr) / parts, gx = pw >= 6 ? 1 : 0, gy = ch * dpr >= 6 ? 1 : 0;
  const pixels = (ctx, val) => {
    const img = imageData(ctx, IW, (r1 - r0) * ch * dpr), px = new Uint32Array(img.data.buffer);
    px.fill(0xffffffff);
    for (let r = r0; r < r1; ++r) {
      const y0 = (r - r0) * ch * dpr, y1 = y0 + ch * dpr - gy;
      for (let c = 0; c < geo.cols; ++c) {
        const i = (r - r0) * g.cols + c;
        for (let p = 0; p < parts; ++p) {
          const x0 = Math.round(c * cw * dpr + p * pw), x1 = Math.round(c * cw * dpr + (p + 1) * pw) - gx;
          px.fill(rgbOf(val[i * parts + p]), y0 * IW + x0, y0 * IW + x1);
        }
      }
      for (let y = y0 + 1; y < y1; ++y) px.copyWithin(y * IW, y0 * IW, (y0 + 1) * IW);
    }
    ctx.putImageData(img, ox * dpr, top * dpr);
  };
  const draw = () => {
    const ctx = cv.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (reuse) ctx.clearRect(0, 0, cv.width, cv.height);
    const {val, painted} = colourValues(g, r0, r1, parts, grp.seen);
    grp.painted += painted;
    if (IW > 0) pixels(ctx, val);
    ctx.scale(dpr, dpr);
    ctx.fillStyle = '#1b1b1b';
    ctx.font = '9px ui-monospace, monospace';
    const yOf = (r) => top + (r - r0) * ch + ch / 2 + 3, stepR = ch >= 12 ? 1 : Math.ceil(12 / ch), stepC = Math.ceil(24 / cw);
    if (!r0) {
      ctx.fillText(`x → ${g.xName}`, 2, 9);
      ctx.fillText(`y ↓ ${g.yName}`, 2, 20);
      for (let c = 0; c < geo.cols; c += stepC) ctx.fillText(String(c), ox + c * cw, 32);
    }
    for (let r = Math.ceil(r0 / stepR) * stepR; r < r1; r += stepR) ctx.fillText(String(r + (g.rowBase || 0)), 2, yOf(r));
    const lw = cw / parts;
    if (!g.label || lw < 10 || ch < 14 || geo.rows * g.cols * parts > 8192) return;
    for (let r = r0; r < r1; ++r) {
      for (let c = 0; c < geo.cols; ++c) {
        for (let p = 0; p < parts; ++p) {
          const t = String(parts > 1 ? g.partLabel(r * g.cols + c, p) : g.label(r * g.cols + c));
          if (t === '') continue;
          // Sized to leave 3 px between neighbouring labels (a 9 px
          // monospace character is about 0.62 x 9 px wide).
          ctx.font = `${Math.min(9, (lw - 3) / Math.max(2, t.length * 0.62)).toFixed(1)}px ui-monospace, monospace`;
          ctx.fillText(t, ox + c * cw + p * lw + 1, yOf(r));
        }
      }
    }
  };
  const paint = () => { draw(); if (--grp.left === 0) grp.done(); };
  return {cv, paint};
}

// Paints g into a new element: div.grid (the geometry in its dataset) of
// canvas strips and an svg.hl over them, then div.legend (its values
// written when the last strip is painted; data-painted then too). A strip
// is at most kStripPx high (a narrow grid's up to kStripArea pixels) and
// kStripCells cells (its painting a few ms), and painted once: a canvas is copied whole to the screen each time it changes, so
// one tall canvas painted in chunks would be copied once per chunk. The
// strips wait in paintJobs. A grid drawn over one of the same geometry
// (`old`, e.g. an edit that keeps the shape) keeps its element and
// canvases and repaints them: no new backing stores, no new layout.
const kStripPx = 256, kStripArea = 1 << 18, kStripCells = 1 << 14;
function gridElement(g, width, old = null) {
  const geo = gridGeom(g, width), parts = g.parts || 1;
  const dpr = (window.devicePixelRatio || 1) > 1 ? 2 : 1;
  const perStrip = Math.max(1, Math.min(Math.floor(Math.max(kStripPx, kStripArea / geo.W) / geo.ch), Math.floor(kStripCells / (Math.max(1, g.cols) * parts))));
  const sig = [geo.W, geo.H, geo.cw, geo.ch, geo.rows, geo.cols, g.rows, g.cols, perStrip, dpr].join();
  const reuse = old && old.lkSig === sig;
  const wrap = reuse ? old : document.createElement('div');
  const box = reuse ? wrap.querySelector('.grid') : document.createElement('div');
  const canvases = reuse ? [...box.querySelectorAll('canvas')] : [];
  if (reuse) paintJobs.splice(0, paintJobs.length, ...paintJobs.filter((j) => !canvases.includes(j.cv)));
  box.className = 'grid';
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', `${g.title || ''}: ${g.rows} x ${g.cols} cells; y: ${g.yName}, x: ${g.xName}; colour: ${g.legend}`);
  const grp = {seen: new Map(), painted: 0, left: Math.ceil(Math.max(1, geo.rows) / perStrip), done: () => {
    box.dataset.painted = grp.painted;
    wrap.querySelector('.legend').replaceWith(legendElement(g, grp.seen));
  }};
  for (let r0 = 0, k = 0; r0 < Math.max(1, geo.rows); r0 += perStrip, ++k) {
    const s = gridStrip(g, geo, grp, r0, Math.min(geo.rows, r0 + perStrip), dpr, reuse ? canvases[k] : null);
    if (!reuse) box.append(s.cv);
    paintLater(s);
  }
  Object.assign(box.dataset, {cs: geo.cw, cw: geo.cw, ch: geo.ch, ox: geo.ox, oy: geo.oy, rows: g.rows, cols: g.cols,
    drawnRows: geo.rows, drawnCols: geo.cols, parts, painted: '', xAxis: g.xName, yAxis: g.yName});
  if (reuse) {
    box.querySelector('svg.hl').replaceChildren();
    wrap.querySelector('.legend').replaceWith(legendElement(g, null));
  } else {
    const hl = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    hl.setAttribute('class', 'hl');
    hl.setAttribute('width', geo.W); hl.setAttribute('height', geo.H);
    box.append(hl);
    wrap.append(box, legendElement(g, null));
    if (geo.rows < g.rows || geo.cols < g.cols) {
      const note = document.createElement('p');
      note.className = 'hint';
      note.textContent = `${geo.rows} of ${g.rows} rows and ${geo.cols} of ${g.cols} columns drawn (a canvas side is at most ${kMaxSide} px)`;
      wrap.append(note);
    }
  }
  wrap.lkGrid = {g, width};
  wrap.lkSig = sig;
  return wrap;
}

// The legend: what the colour means, a swatch per value (the first 16 in
// increasing order), the count, and grey for cells without a value;
// seen null: the name only (the grid is being painted).
function legendElement(g, seen) {
  const el = document.createElement('div');
  el.className = 'legend';
  if (!seen) { el.dataset.name = g.legend; el.innerHTML = `<b>colour: ${esc(g.legend)}</b> …`; return el; }
  const vals = [...seen.keys()].sort((a, b) => a - b);
  const shown = vals.slice(0, 16);
  el.dataset.name = g.legend;
  el.dataset.values = vals.length > 4096 ? 'more than 4096' : String(vals.length);
  el.innerHTML = `<b>colour: ${esc(g.legend)}</b> ` + shown.map((v) => `<span class="sw" style="background:${cssOf(seen.get(v))}"></span>${v}`).join(' ') +
    (vals.length > shown.length ? ` … ${vals.length > 4096 ? 'more than 4096' : vals.length} values (hues repeat)` : '') +
    ' <span class="sw" style="background:#eeeeee"></span>none';
  return el;
}

function drawGrid(panel, g, width) {
  const old = panel.firstElementChild;
  const el = gridElement(g, width, old && old.lkSig ? old : null);
  if (el !== old || panel.childNodes.length !== 1) panel.replaceChildren(el);
}

// The grid of a panel: its element and geometry.
function gridOf(panel) {
  const cv = panel.querySelector('.grid');
  if (!cv) return null;
  const d = cv.dataset;
  return {cv, hl: panel.querySelector('svg.hl'), cw: +d.cw, ch: +d.ch, ox: +d.ox, oy: +d.oy, rows: +d.rows, cols: +d.cols};
}

function highlight(panel, cells, colour, cursor) {
  const q = gridOf(panel);
  if (!q) return;
  const {cw, ch, ox, oy, cols} = q;
  let d = '';
  for (const i of cells) {
    const r = (i / cols) | 0, c = i - r * cols;
    d += `M${ox + c * cw} ${oy + r * ch}h${cw}v${ch}h${-cw}z`;
  }
  let s = d ? `<path fill="none" stroke="${colour}" stroke-width="2" d="${d}"/>` : '';
  if (cursor !== undefined && cursor >= 0) {
    const r = (cursor / cols) | 0, c = cursor - r * cols;
    s += `<rect x="${ox + c * cw}" y="${oy + r * ch}" width="${cw}" height="${ch}" fill="none" stroke="#2a7de1" stroke-dasharray="2" stroke-width="2"/>`;
  }
  q.hl.innerHTML = s;
}

function cellAt(panel, ev) {
  const q = gridOf(panel);
  if (!q) return -1;
  const b = q.cv.getBoundingClientRect();
  const c = Math.floor((ev.clientX - b.left - q.ox) / q.cw), r = Math.floor((ev.clientY - b.top - q.oy) / q.ch);
  if (c < 0 || r < 0 || c >= q.cols || r >= q.rows) return -1;
  return r * q.cols + c;
}

// A task boundary: resolves from a message (no timer clamping), so the
// page handles input between the chunks of a long job.
const yieldTask = () => new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); });

// The SVG export of a drawn grid as text parts (for a Blob): per chunk of
// rows a group of paths, one per colour; the same ticks, axis names,
// labels and legend. Made in chunks of up to kPaintMs, yielding between
// them (a 256x1024 grid is over 400 ms of work).
async function gridSvg(g, width) {
  const {ox, oy, cw, ch, rows, cols, W} = gridGeom(g, width);
  const parts = g.parts || 1, pw = cw / parts, seen = new Map();
  const H = oy + rows * ch + 20, out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="monospace" font-size="9">`,
    `<title>${esc(g.title || '')}</title>`);
  let t0 = performance.now();
  for (let r0 = 0; r0 < rows; r0 += 8) {
    const paths = new Map();
    for (let r = r0; r < Math.min(rows, r0 + 8); ++r) {
      for (let c = 0; c < cols; ++c) {
        const i = r * g.cols + c;
        for (let p = 0; p < parts; ++p) {
          const v = parts > 1 ? g.part(i, p) : g.value(i);
          if (v >= 0 && seen.size < 16) seen.set(v, colourOf(v));
          const key = colourOf(v), d = `M${ox + c * cw + p * pw} ${oy + r * ch}h${pw}v${ch}h${-pw}z`;
          const q = paths.get(key);
          if (q) q.push(d); else paths.set(key, [d]);
        }
      }
    }
    // Flat strings (joined arrays, not concatenations): a Blob of ropes
    // flattens them all at once.
    const grp = ['<g>'];
    for (const [k, ds] of paths) grp.push(`<path fill="${k}" stroke="#fff" stroke-width="${cw > 6 ? 0.5 : 0}" d="`, ds.join(''), '"/>');
    grp.push('</g>');
    out.push(grp.join(''));
    if (performance.now() - t0 > kPaintMs) { await yieldTask(); t0 = performance.now(); }
  }
  let s = `<text x="2" y="9">x → ${esc(g.xName)}</text><text x="2" y="20">y ↓ ${esc(g.yName)}</text>`;
  const stepR = ch >= 12 ? 1 : Math.ceil(12 / ch), stepC = Math.ceil(24 / cw);
  for (let r = 0; r < rows; r += stepR) s += `<text x="2" y="${oy + r * ch + ch / 2 + 3}">${r + (g.rowBase || 0)}</text>`;
  for (let c = 0; c < cols; c += stepC) s += `<text x="${ox + c * cw}" y="32">${c}</text>`;
  let x = ox, legend = `<text x="${x}" y="${H - 6}">colour: ${esc(g.legend)}</text>`;
  x += 12 + 6 * (8 + g.legend.length);
  for (const [v, col] of [...seen].sort((a, b) => a[0] - b[0])) { legend += `<rect x="${x}" y="${H - 14}" width="9" height="9" fill="${col}"/><text x="${x + 11}" y="${H - 6}">${v}</text>`; x += 16 + 6 * String(v).length; }
  out.push(s + legend + '</svg>');
  return out;
}

// ---------------------------------------------------------------------------
// Diagnostics: the message, the offending line and a caret under the column.
// ---------------------------------------------------------------------------
// texts: the text of each field ("layout", "shape", "b", ...); names: the
// field's label on the page where it is not its key (the conversion view's
// "b" is the Destination). The field is named even without a column.
// A diagnostic's offset and length count the UTF-8 bytes the engine read;
// the caret counts the page's characters (UTF-16 units of a JS string).
function jsIndex(text, bytes) {
  return new TextDecoder().decode(new TextEncoder().encode(text).subarray(0, bytes)).length;
}
function showDiag(el, r, texts, names = {}) {
  if (!r) { el.textContent = ''; return; }
  const err = r.error, field = r.field;
  let s = 'error: ' + err.message;
  const text = texts[field], name = names[field] || field;
  const at = err.offset !== null && text !== undefined ? jsIndex(text, err.offset) : -1;
  if (at >= 0) {
    const lineStart = text.slice(0, at).lastIndexOf('\n') + 1;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    const col = at - lineStart, carets = jsIndex(text, err.offset + err.length) - at;
    s += ` (in the ${name}, column ${col + 1})\n` + text.slice(lineStart, lineEnd) + '\n' + ' '.repeat(col) + '^'.repeat(Math.max(1, carets));
  } else if (names[field]) {
    s += ` (in the ${name})`;
  }
  for (const n of err.notes || []) s += '\nnote: ' + n;
  el.textContent = s;
  el.dataset.offset = at;
  el.dataset.field = field;
}

// ---------------------------------------------------------------------------
// The tile view
// ---------------------------------------------------------------------------
function point(f, r) { // physical coordinate r of element f, one value per axis
  const m = cur.map, A = m.axes.length, base = (f * m.replicas + r) * A;
  return m.coords.slice(base, base + A);
}

function axisValueText(names, vals) {
  return names.map((n, k) => `${n}=${vals[k]}`).join(' ');
}

function unflatten(shape, f) {
  const c = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; --d) { c[d] = f % shape[d]; f = Math.floor(f / shape[d]); }
  return c;
}

// The colour value of element f in the chosen mode: a function made once
// per drawing (the hot loop of a redraw).
function colourFn() {
  const m = cur.map, mode = tab().colour, A = m.axes.length, R = m.replicas, c = m.coords;
  if (mode === 'bank') {
    const b = cur.banks && cur.banks.ok ? cur.banks.bank : null;
    return (f) => b ? b[f] : -1;
  }
  if (mode === 'thread') return (f) => m.threads[f]; // the engine's thread number
  const a = m.axes.indexOf(mode);
  return a >= 0 ? (f) => c[f * R * A + a] : (f) => f;
}

function cellLabel(f) {
  const m = cur.map;
  switch (tab().cell) {
    case 'owner': {
      const p = point(f, 0);
      return m.axes.filter((_, k) => m.ownerAxes[k]).map((n) => p[m.axes.indexOf(n)]).join(',') + (m.replicas > 1 ? '+' : '');
    }
    case 'offset': { const a = m.axes.indexOf('m'); return a >= 0 ? point(f, 0)[a] : ''; }
    case 'index': return f;
    case 'coord': return unflatten(m.shape, f).join(',');
    default: return '';
  }
}

// The physical panel: x = the first axis (owner axes first), y = the second;
// a layout on one axis wraps it in rows.
function physicalGrid() {
  const m = cur.map, A = m.axes.length;
  const order = m.axes.map((_, k) => k).sort((a, b) => (m.ownerAxes[b] - m.ownerAxes[a]) || (a - b));
  const ext = new Array(A).fill(1);
  for (let i = 0; i < m.coords.length; ++i) ext[i % A] = Math.max(ext[i % A], m.coords[i] + 1);
  let xa = order[0], ya = A > 1 ? order[1] : -1;
  let cols = ext[xa], rows = ya >= 0 ? ext[ya] : 1, wrap = 0;
  if (ya < 0 && cols > 64) { wrap = 64; rows = Math.ceil(cols / 64); cols = 64; }
  const cellOf = (p) => wrap ? p[xa] : (ya >= 0 ? p[ya] * cols + p[xa] : p[xa]);
  // The cell of point r of element f, read straight from the coordinates.
  const c = m.coords, R = m.replicas;
  const cellAtPoint = (f, r) => {
    const b = (f * R + r) * A;
    return wrap || ya < 0 ? c[b + xa] : c[b + ya] * cols + c[b + xa];
  };
  return {xa, ya, rows, cols, cellOf, cellAtPoint, wrap};
}

// The names of the logical panel's axes: the last dimension across, the
// others (row-major) down.
function logicalAxes(shape) {
  const r = shape.length;
  if (r <= 1) return {xName: 'dim 0 (index)', yName: '-'};
  return {xName: `dim ${r - 1} (extent ${shape[r - 1]})`, yName: r === 2 ? `dim 0 (extent ${shape[0]})` : `dims 0..${r - 2} row-major`};
}

function drawTile(width) {
  const m = cur.map;
  const rows = m.shape.length >= 2 ? m.size / m.shape[m.shape.length - 1] : 1;
  const cols = m.shape.length >= 1 ? m.shape[m.shape.length - 1] : 1;
  const colourValue = colourFn();
  const legend = tab().colour === 'thread' ? `thread = ${m.threadFormula}` : tab().colour;
  drawGrid($('logical'), {rows, cols, value: colourValue, label: cellLabel, title: m.text, legend, ...logicalAxes(m.shape)}, width);
  const pg = physicalGrid();
  cur.pg = pg;
  const n = pg.rows * pg.cols;
  if (n > (1 << 18)) {
    $('physical').textContent = `${n} physical cells: too many to draw`;
  } else {
    const first = new Int32Array(n).fill(-1);
    for (let f = m.size - 1; f >= 0; --f)
      for (let r = 0; r < m.replicas; ++r) first[pg.cellAtPoint(f, r)] = f;
    cur.physFirst = first;
    const xName = m.axes[pg.xa] + (pg.wrap ? ` mod ${pg.wrap}` : '');
    const yName = pg.ya >= 0 ? m.axes[pg.ya] : pg.wrap ? `${m.axes[pg.xa]} / ${pg.wrap}` : '-';
    drawGrid($('physical'), {rows: pg.rows, cols: pg.cols, title: `physical: x ${xName}, y ${yName}`, xName, yName,
      legend: `${legend} of the first element held`, value: (i) => first[i] < 0 ? -1 : colourValue(first[i]), label: null}, width);
  }
  sel = {logical: new Set(), physical: new Set(), cursorL: 0, cursorP: 0, cursorS: 0, cursorB: 0};
  // A selection's owners and derivation belong to the layout they came from.
  $('info').textContent = '';
  $('steps').textContent = '';
  $('steps').dataset.steps = '';
}

// The line x bank grid: a cell is one 4-byte word, split into the
// 32 / dtype-bits elements it holds (f16: 2, f8: 4), side by side in
// address order; each coloured by its element's column (the last
// coordinate). The column read is outlined in red.
function drawBanks(width) {
  const b = cur.banks;
  if (!b.ok) { $('banks').textContent = b.error.message; $('conflicts').textContent = ''; $('bankhover').textContent = ''; return; }
  const shape = cur.map.shape;
  const v = b.view, c = b.conflicts;
  const read = new Set(c ? c.elements.flat() : []);
  const parts = v.dtype_bits < 32 ? 32 / v.dtype_bits : 1;
  const hl = [], start = b.cellStart, items = b.cellItems, words = start.length - 1;
  for (let i = 0; i < words; ++i) for (let a = start[i]; a < start[i + 1]; ++a) if (read.has(items[a])) { hl.push(i); break; }
  cur.bankRead = hl;
  const lastExtent = shape.length ? shape[shape.length - 1] : 1, last = (e) => e % lastExtent; // row-major: the last coordinate
  // Element p of word i, or -1 (the word holds fewer).
  const at = (i, p) => (start[i] + p < start[i + 1] ? items[start[i] + p] : -1);
  drawGrid($('banks'), {rows: v.line_count, cols: 32, rowBase: v.first_line, cw: Math.max(6, Math.min(28 * parts, Math.floor((width - 50) / 32))),
    title: `${v.layout} as ${tab().dtype}: rows are bank lines, columns banks`, xName: 'bank (4-byte word)', yName: 'line (128 B)',
    legend: `the element's last coordinate (${parts} element${parts > 1 ? 's' : ''} per word, side by side)`, parts,
    value: (i) => { const e = at(i, 0); return e < 0 ? -1 : last(e); },
    label: (i) => { const e = at(i, 0); return e < 0 ? '' : unflatten(shape, e).join(','); },
    part: (i, p) => { const e = at(i, p); return e < 0 ? -1 : last(e); },
    partLabel: (i, p) => { const e = at(i, p); return e < 0 ? '' : last(e); }}, width);
  highlight($('banks'), hl, '#d00000');
  $('conflicts').textContent = c ? `column ${c.read.column} read by ${c.read.lanes} lanes: ${c.ways}-way` + (c.conflict_free ? ' (conflict-free)' : ' bank conflict') : (b.conflicts_error || '');
  $('conflicts').dataset.ways = c ? c.ways : '';
  $('bankhover').textContent = '';
}

// The elements of bank word i (line firstLine + i / 32, bank i mod 32).
function bankWord(b, i) {
  return b.cellItems.subarray(b.cellStart[i], b.cellStart[i + 1]);
}

// The word under the cursor: its line, bank and elements.
function bankHover(i) {
  const b = cur.banks;
  if (!b || !b.ok || i < 0 || i >= b.cellStart.length - 1) { $('bankhover').textContent = ''; return; }
  const c = [...bankWord(b, i)];
  $('bankhover').textContent = `line ${b.view.first_line + ((i / 32) | 0)}, bank ${i % 32}: ` +
    (c.length ? c.map((e) => '(' + unflatten(cur.map.shape, e).join(',') + ')').join(' ') : 'empty');
  $('bankhover').dataset.elements = JSON.stringify(c);
}

// Warp 0's access: its lanes are laneid, or tid / tid_in_wg 0..31 (the
// library's rule, hw/Analysis.h); the other warps are left out.
function drawAccess(reply) {
  const el = $('access');
  const blockWide = cur.map.axes.find((x) => x === 'tid' || x === 'tid_in_wg');
  const a = reply.ok ? reply.result : null, sh = a && a.shared_memory, gl = a && a.global_memory;
  el.textContent = a
    ? `warp 0: ${blockWide ? `${blockWide} 0..31 as lanes 0..31 (other warps left out)` : 'lanes laneid 0..31'}\n` +
      `memory: ${a.memory}\nvector: ${a.vector_bytes} B per lane per access (${a.vector_bytes > 1 ? 'vectorized' : 'scalar'})\n` +
      `shared: ${counted(a.instructions, "instruction")}, ${counted(sh.total, "wavefront")} (minimum ${sh.minimum})\n${sh.explanation}\n` +
      `global: ${gl.sectors} sectors, ${gl.lines} lines (${gl.coalesced ? 'coalesced' : `not coalesced: at best ${gl.minimum_sectors} sectors`})\n${gl.explanation}`
    : 'no warp access to analyse (a lane axis, laneid or tid, and the register axis m): ' + reply.error.message;
  el.dataset.result = a ? JSON.stringify(a) : '';
}

function colourOptions() {
  const m = cur.map, sel = $('colour');
  const opts = [...m.axes];
  if (m.threadFormula) opts.unshift('thread');
  opts.push('bank');
  const asked = tab().colour;
  if (!opts.includes(asked)) tab().colour = opts.find((o, k) => o === 'thread' || m.ownerAxes[m.axes.indexOf(o)]) || opts[0];
  // A colour named by the URL and not one of the layout's is reported
  // (an edit that drops the axis chosen falls back quietly).
  if (tab().fromUrl) {
    delete tab().fromUrl;
    if (asked && asked !== tab().colour)
      showNotice(($('notice').hidden ? 'Parts of the URL state were not understood:' : $('notice').textContent) +
        `\ntab ${state.active + 1}: colour ${JSON.stringify(asked)} is not one of ${opts.join(', ')}: using ${tab().colour}`);
  }
  sel.innerHTML = opts.map((o) => `<option ${o === tab().colour ? 'selected' : ''}>${o}</option>`).join('');
}

// The tile view's pictures: greyed after an error (they show the last
// layout read), and while a newer edit is computed for over 100 ms (a
// quick answer replaces them without a grey flash); the line above them
// says which at once.
let greyTimer = 0;
function setStale(stale, why) {
  clearTimeout(greyTimer);
  const computing = stale && why.startsWith('computing');
  if (computing) greyTimer = setTimeout(() => $('view-tile').classList.add('stale'), 100);
  else $('view-tile').classList.toggle('stale', stale);
  $('status').textContent = why;
  $('status').dataset.state = stale ? (computing ? 'computing' : 'stale') : 'current';
}

// The tile view in two steps: the layout's picture (parse, tileMap; and
// the banks when the tile is coloured by bank), then the analyses below it
// (the bank grid, the access analysis), so the picture of an edit does
// not wait for them. Both are asked at once (the engine runs them in
// order); a newer edit supersedes both. Until the analyses arrive, their
// panels carry the class 'pending' (greyed after 100 ms).
async function update() {
  const t = tab();
  const texts = {layout: t.text, shape: t.shape};
  setStale(true, 'computing…');
  const t0 = performance.now();
  const byBank = t.colour === 'bank';
  const bankCall = ['banks', t.text, t.shape, t.dtype, t.swizzle, +t.column || 0];
  const picture = engine.request('tile', [['parse', t.text, t.shape], ['tileMap', t.text, t.shape], ...(byBank ? [bankCall] : [])], 2);
  const analyses = engine.request('analyses', [...(byBank ? [] : [bankCall]), ['access', t.text, t.shape, t.dtype, t.swizzle]]);
  const r = await picture;
  if (!r) return; // superseded by a newer edit
  const tEngine = performance.now(), calls = window.lkEngineMs;
  const [p, m] = r;
  if (!showParsed(p, m, texts)) return;
  cur.map = m;
  if (byBank) cur.banks = r[2];
  colourOptions();
  const width = Math.max(320, $('views').clientWidth);
  const lap = (a, b = performance.now()) => +(b - a).toFixed(1);
  drawTile(width);
  paintVisibleNow();
  for (const id of ['banks', 'access']) $(id).classList.add('pending');
  setStale(false, '');
  // Where a redraw's time goes (the browser test prints these): the
  // engine's round trip with each call's time, the picture's drawing;
  // then the analyses' round trip and drawing.
  const laps = {calls, engine: lap(t0, tEngine), draw: lap(tEngine)};
  window.lkLaps = laps;
  // replaceState takes ~10 ms: after the picture is on the screen.
  urlPending = true;
  afterFrame(() => { urlPending = false; saveUrl(); markBusy(); });
  whenVisiblePainted(() => document.dispatchEvent(new Event('lk-drawn')));
  // Load to interactive: navigation start to the first painted picture
  // (after the next frame), the inputs wired since start().
  if (window.lkInteractiveMs === undefined) {
    window.lkInteractiveMs = null;
    afterFrame(() => { window.lkInteractiveMs = performance.now(); });
  }
  const a = await analyses;
  if (!a || cur.map !== m) return; // superseded, or a newer picture is up
  const tAnalyses = performance.now();
  const [banks, access] = byBank ? [r[2], a[0]] : a;
  cur.banks = banks;
  drawBanks(width);
  paintVisibleNow();
  drawAccess(access);
  for (const id of ['banks', 'access']) $(id).classList.remove('pending');
  Object.assign(laps, {analysisCalls: window.lkEngineMs, analyses: lap(tEngine, tAnalyses), analysesDraw: lap(tAnalyses)});
  whenVisiblePainted(() => document.dispatchEvent(new Event('lk-analysed')));
}

// The reply of parse and tileMap: the forms and the diagnostic; false
// (the pictures marked stale) when either failed.
function showParsed(p, m, texts) {
  $('layout').setAttribute('aria-invalid', String(!p.ok));
  const failed = !p.ok ? p : !m.ok ? m : null;
  if (p.ok) {
    $('forms').innerHTML = `read as ${esc(p.syntax)} (${p.model})<br>` + ['cute', 'tile', 'linear'].map((k) => {
      const f = p.forms[k];
      return f.ok ? `<div><b>${k}</b>: ${esc(f.text)}</div>` : `<div class="refused"><b>${k}</b>: no exact form: ${esc(f.reason)}</div>`;
    }).join('');
  } else {
    $('forms').textContent = '';
  }
  if (failed) {
    showDiag($('diag'), failed, texts);
    $('diag').className = 'diag';
    setStale(!!cur.map, cur.map ? 'stale: the pictures show the last layout that was read' : '');
    saveUrl();
    return false;
  }
  $('diag').textContent = 'ok';
  $('diag').className = 'diag okmsg';
  return true;
}

// ---------------------------------------------------------------------------
// Selection: an element's owners, a physical cell's holdings.
// ---------------------------------------------------------------------------
// A clicked element: its owners (api::owners) and the derivation of L(x)
// (api::evaluationSteps), written as `layoutkit tile eval --steps` writes
// it.
async function selectElement(f) {
  const t = tab(), m = cur.map;
  const r = await engine.request('pick', [['owners', t.text, t.shape, f], ['steps', t.text, t.shape, f]], 1);
  if (!r || m !== cur.map) return;
  const [ow, st] = r;
  if (!ow.ok) { $('info').textContent = ow.error.message; $('steps').textContent = ''; return; }
  const o = ow.result;
  const phys = new Set();
  for (let r = 0; r < m.replicas; ++r) phys.add(cur.pg.cellOf(point(f, r)));
  const fmt = (obj) => Object.entries(obj).map(([k, v]) => `${k}=${v}`).join(' ');
  $('info').textContent = `(${o.coord.join(',')}) has ${o.total} owner${o.total === 1 ? '' : 's'}:\n` +
    o.owners.map((w) => '  ' + (fmt(w.owner) || '(no thread axis)') + (Object.keys(w.at).length ? ' holds it at ' + fmt(w.at) : '')).join('\n') +
    (o.total > o.owners.length ? `\n... ${BigInt(o.total) - BigInt(o.owners.length)} more` : '');
  $('info').dataset.owners = JSON.stringify(o.owners);
  $('info').dataset.coord = JSON.stringify(o.coord);
  drawSteps(st, m, f);
  sel.cursorL = f;
  highlight($('logical'), [f], '#000', f);
  highlight($('physical'), phys, '#000');
}

// One step of the derivation in the CLI's words (tools/cli,
// `tile eval --steps`).
function stepText(s) {
  const iter = `${s.extent}:${s.stride}@${s.axis}`;
  switch (s.kind) {
    case 'shard': return `shard iter ${s.iter} (${iter}): c = ${s.component}, ${s.axis} += ${s.added}`;
    case 'offset': return `offset: ${s.axis} += ${s.added}`;
    case 'replica': return `replica iter ${s.iter} (${iter}): one point per r in [0,${s.extent}), ${s.axis} += ${s.stride}*r`;
    case 'swizzle': return `swizzle ${s.swizzle}: m ${s.from} -> ${s.to}`;
  }
  return JSON.stringify(s);
}

// The derivation of element f (reply st of steps), then its points.
function drawSteps(st, m, f) {
  const el = $('steps');
  if (!st.ok) { el.textContent = st.skipped ? '' : 'no derivation: ' + st.error.message; el.dataset.steps = ''; return; }
  const e = st.result;
  const pts = [];
  for (let r = 0; r < Math.min(m.replicas, 8); ++r) pts.push(axisValueText(m.axes, point(f, r)));
  const shapeText = `(${m.shape.join(',')})${tab().shape.trim() ? '' : ', the layout\'s own'}`;
  el.textContent = `L(x) for (${e.coord.join(',')}) of shape ${shapeText}, x = ${e.x} in ${e.layout}:\n` + e.steps.map(stepText).join('\n') +
    '\nL(x):\n' + pts.join('\n') + (m.replicas > 8 ? `\n... ${m.replicas} points in all` : '');
  el.dataset.steps = JSON.stringify(e.steps);
  el.dataset.x = e.x;
}

async function selectPhysical(i) {
  const m = cur.map, pg = cur.pg;
  let where;
  if (pg.wrap) where = `${m.axes[pg.xa]}=${i}`;
  else if (pg.ya >= 0) where = `${m.axes[pg.xa]}=${i % pg.cols},${m.axes[pg.ya]}=${(i / pg.cols) | 0}`;
  else where = `${m.axes[pg.xa]}=${i}`;
  const r = await engine.request('pick', [['holds', tab().text, tab().shape, where]]);
  if (!r || m !== cur.map) return;
  const hr = r[0];
  sel.cursorP = i;
  if (!hr.ok) { $('info').textContent = hr.error.message; return; }
  const h = hr.result;
  $('info').textContent = !h.elements.length ? `${where} holds no element` : `${where} holds ${h.total} element${h.total === 1 ? '' : 's'}:` +
    h.elements.slice(0, 256).map((f) => ' (' + unflatten(m.shape, f).join(',') + ')').join('') + (h.elements.length > 256 ? ' ...' : '');
  $('info').dataset.holds = JSON.stringify(h.elements);
  highlight($('logical'), h.elements, '#000');
  highlight($('physical'), [i], '#000', i);
}

// Arrow keys move the panel's cursor (kept inside the grid), Enter or
// Space selects the cell under it.
function keyNav(panel, ev, cursorKey, onEnter, hover = (i) => showHover(panel === $('logical') ? i : -1)) {
  const q = gridOf(panel);
  if (!q) return;
  const cols = q.cols, n = cols * q.rows;
  const d = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols}[ev.key];
  if (d !== undefined) {
    sel[cursorKey] = Math.min(n - 1, Math.max(0, (sel[cursorKey] || 0) + d));
    const keep = panel === $('banks') ? cur.bankRead || [] : [];
    highlight(panel, keep, '#d00000', sel[cursorKey]);
    hover(sel[cursorKey]);
    ev.preventDefault();
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    onEnter(sel[cursorKey] || 0);
    ev.preventDefault();
  }
}

function showHover(f) {
  const m = cur.map;
  if (!m || f < 0 || f >= m.size) { $('hover').textContent = ''; return; }
  const pts = [];
  for (let r = 0; r < m.replicas; ++r) pts.push(axisValueText(m.axes, point(f, r)));
  $('hover').textContent = `(${unflatten(m.shape, f).join(',')}) index ${f} -> ` + pts.join(' | ');
}

// ---------------------------------------------------------------------------
// The other views
// ---------------------------------------------------------------------------
// A figure: the caption, then the grid g (none: the caption only).
function figure(caption, g, width) {
  const f = document.createElement('figure');
  const c = document.createElement('figcaption');
  c.textContent = caption;
  f.append(c);
  if (g) f.append(gridElement(g, width));
  return f;
}

// A cute layout's offsets: row i is mode 0's coordinate i, column j mode
// 1's (a rank-1 layout is one row; a rank r > 2 one has modes 1..r-1
// grouped across, as the library's table says in t.grouping).
function tableFigure(t, caption, width, names = {yName: 'mode 0', xName: 'mode 1'}) {
  if (t.error || t.rows === undefined) return figure(`${caption}: ${t.text}${t.error ? ' (' + t.error + ')' : ''}`, null);
  const axes = t.grouping ? {yName: 'mode 0', xName: t.grouping} : t.rows === 1 ? {yName: '-', xName: 'mode 0'} : names;
  return figure(`${caption}: ${t.text}${t.grouping ? ` (drawn with ${t.grouping})` : ''}`, {rows: t.rows, cols: t.cols,
    value: (i) => t.cells[i], label: (i) => t.cells[i], title: t.text, legend: 'the offset', ...axes}, width);
}

// The operations of the menu (cuteOps): name -> {b: B's kind, bOptional,
// doc}. B's label names its kind.
const opInfo = new Map();
function labelB() {
  const o = opInfo.get($('op').value);
  $('opBname').textContent = o ? `B (${o.b}${o.bOptional ? ', optional: empty leaves it out' : ''})` : 'B';
  $('opB').title = o ? o.doc : '';
}

// A B of the operation's kind for an operation chosen when the B in the
// field does not read as its kind: empty where B may be left out, else a
// 2x2 row-major layout (a layout is a tiler too).
const defaultB = (o) => (o.bOptional || o.b === 'int tuple' || o.b === 'integer' ? '' : '(2,2):(2,1)');

// opChanged: the operation was just chosen; a B the library does not read
// as its kind (an error in field "b") is then replaced by defaultB and the
// operation asked again, the line above saying so (`note`).
async function updateOps(opChanged = false, note = '') {
  labelB();
  $('opnote').textContent = note;
  const q = await engine.request('ops', [['algebra', $('op').value, $('opA').value, $('opB').value]]);
  if (!q) return;
  const r = q[0], o = opInfo.get($('op').value);
  if (!r.ok && opChanged && r.field === 'b' && o && $('opB').value !== defaultB(o)) {
    const was = $('opB').value;
    $('opB').value = defaultB(o);
    return updateOps(true, `B "${was}" does not read as ${o.b === 'integer' ? 'an' : 'a'} ${o.b}; B is now ${defaultB(o) ? `"${defaultB(o)}"` : 'empty (left out)'}`);
  }
  if (!r.ok) {
    showDiag($('opdiag'), r, {layout: $('opA').value, b: $('opB').value}, {layout: 'A', b: 'B'});
    $('opout').replaceChildren();
  } else {
    $('opdiag').textContent = '';
    const w = Math.max(240, $('views').clientWidth / 3);
    $('opout').replaceChildren(tableFigure(r.a, 'A', w), tableFigure(r.b, 'B', w), tableFigure(r.result, $('op').value, w));
    paintVisibleNow();
  }
  saveUrl();
}

async function updateTv() {
  const q = await engine.request('tv', [['tv', $('tv').value, $('tvshape').value]]);
  if (!q) return;
  const t = q[0];
  if (!t.ok) { showDiag($('tvdiag'), t, {layout: $('tv').value, shape: $('tvshape').value}, {layout: 'TV layout', shape: 'Shape'}); $('tvout').replaceChildren(); saveUrl(); return; }
  $('tvdiag').textContent = '';
  // The library places thread t, value v at logical (r, c) of index
  // r + rows * c (CuTe's colex codomain); cells no pair reaches are -1.
  const rows = t.tileRows, cols = t.tileCols, thread = t.thread, value = t.value;
  const w = Math.max(300, $('views').clientWidth / 2);
  $('tvout').replaceChildren(tableFigure(t, '(thread, value) -> index', w, {yName: 'thread (mode 0)', xName: 'value (mode 1)'}),
    figure(`logical ${rows}x${cols}: thread (colour) and value`, {rows, cols, value: (i) => thread[i], label: (i) => thread[i] < 0 ? '' : `T${thread[i]}V${value[i]}`,
      title: 'TV', legend: 'the thread', yName: `row r (extent ${rows})`, xName: `column c (extent ${cols}; index r + ${rows} c)`}, w));
  paintVisibleNow();
  saveUrl();
}

// The plan's pictures while a new plan is asked (a Destination edit):
// greyed after 100 ms (class 'pending') until it arrives.
function setPlanStale() {
  for (const id of ['planout', 'staging', 'rounds']) $(id).classList.add('pending');
}

let planRounds = [], round = 0;
async function updatePlan() {
  const t = tab();
  const q = await engine.request('plan', [['plan', t.text, $('dst').value, t.shape, t.dtype, '']]);
  if (!q) return;
  const r = q[0];
  for (const id of ['planout', 'staging', 'rounds']) $(id).classList.remove('pending');
  planRounds = [];
  round = 0;
  if (!r.ok) {
    showDiag($('plandiag'), r, {layout: t.text, b: $('dst').value, shape: t.shape},
      {layout: 'source layout, the tile view\'s Layout', b: 'Destination', shape: 'Logical shape', plan: 'plan from the source layout to the Destination'});
    $('planout').textContent = '';
  } else {
    // The plan record (api/DescribePlan.h), as `layoutkit plan --json`.
    $('plandiag').textContent = '';
    const p = r.plan, c = p.cost, sm = p.shared_memory;
    $('planout').textContent = `strategy: ${p.strategy}\ncost: ${c.instructions} instructions (${c.register_moves} register moves, ${c.selects} selects, ${c.shuffles} shuffles), ` +
      `${counted(c.wavefronts, "wavefront")}, ${counted(c.barriers, "barrier")}, ${c.smem_bytes} B of shared memory, ${c.cycles.toFixed(3)} estimated cycles` +
      (sm ? `\nstore: ${sm.store_instruction}, load: ${sm.load_instruction}` : '') + (sm && sm.memory_layout_cute ? `\nshared memory (cute): ${sm.memory_layout_cute}` : '') +
      (sm && sm.memory_layout_tile ? `\nshared memory (tile): ${sm.memory_layout_tile}` : '') + `\nsource: ${p.src}\ndestination: ${p.dst}`;
    $('planout').dataset.strategy = p.strategy;
    planRounds = p.shuffle ? p.shuffle.rounds : [];
  }
  drawStaging(r.ok ? r : null);
  drawRound();
  saveUrl();
}

// The staging buffer of a plan through shared memory: the logical tile,
// each cell coloured by the bank of its address under the plan's memory
// layout (banks from the library), so a swizzle shows as a permuted
// pattern.
let staging = null;
function drawStaging(r) {
  staging = r && r.staging ? r.staging : null;
  sel.cursorS = 0;
  $('staginghover').textContent = '';
  if (!staging) {
    $('stagingcap').textContent = !r || !r.ok ? '' : r.staging_error ? 'staging buffer not drawn: ' + r.staging_error : (r.plan.shared_memory ? '' : 'no shared memory in this plan');
    $('staging').replaceChildren();
    return;
  }
  const sh = staging.shape, cols = sh.length ? sh[sh.length - 1] : 1, rows = staging.banks.length / cols;
  const sm = r.plan.shared_memory;
  $('stagingcap').textContent = `${staging.layout} (${staging.dtype_bits}-bit elements, ${sm.access_bytes} B accesses): ` +
    `${counted(r.plan.cost.wavefronts, "wavefront")} (store ${sm.store.wavefronts}, at best ${sm.store.lower_bound}; load ${sm.load.wavefronts}, at best ${sm.load.lower_bound})`;
  const w = Math.max(320, $('views').clientWidth);
  drawGrid($('staging'), {rows, cols, value: (i) => staging.banks[i], label: (i) => staging.banks[i], legend: 'the bank of the element\'s address',
    title: `staging buffer ${staging.layout}: logical tile coloured by bank`, ...logicalAxes(sh)}, w);
  paintVisibleNow();
}

function stagingHover(i) {
  if (!staging || i < 0 || i >= staging.banks.length) { $('staginghover').textContent = ''; return; }
  $('staginghover').textContent = `(${unflatten(staging.shape, i).join(',')}) bank ${staging.banks[i]}`;
}

function drawRound() {
  if (!planRounds.length) { $('roundlabel').textContent = ' no shuffle rounds '; $('rounds').innerHTML = ''; return; }
  const r = planRounds[round];
  $('roundlabel').textContent = ` round ${round + 1} of ${planRounds.length}${r.lane_local ? ' (lane-local)' : ''} `;
  let s = '<table><tr><th>lane</th><th>reads lane</th><th>sends registers</th><th>receives into</th></tr>';
  r.src_lane.forEach((src, l) => { s += `<tr><td>${l}</td><td>${src}</td><td>${r.send_registers[l].join(',')}</td><td>${r.dst_registers[l].join(',')}</td></tr>`; });
  $('rounds').innerHTML = s + '</table>';
}

// ---------------------------------------------------------------------------
// Tabs, controls, start-up
// ---------------------------------------------------------------------------
function drawTabs() {
  $('tabs').innerHTML = state.tabs.map((t, k) => `<button role="tab" data-tab="${k}" aria-selected="${k === state.active}" tabindex="${k === state.active ? 0 : -1}">${esc(t.preset || 'layout ' + (k + 1))}</button>`).join('') +
    '<button data-tab="new" aria-label="New tab">+</button>';
}

function loadTab() {
  const t = tab();
  $('layout').value = t.text; $('shape').value = t.shape; $('dtype').value = t.dtype; $('swizzle').value = t.swizzle;
  $('column').value = t.column; $('cellmode').value = t.cell; $('preset').value = t.preset;
  drawTabs();
  update();
}

function applyPreset(name) {
  const p = presets.find((q) => q.name === name);
  if (!p) return;
  Object.assign(tab(), {text: p.layout, shape: '(' + p.shape.join(',') + ')', preset: p.name, colour: ''});
  if (p.tv) {
    $('tv').value = p.tv;
    $('tvshape').value = '(' + p.tvShape.join(',') + ')';
  }
  loadTab();
}

function showView(v) {
  state.view = v;
  for (const b of document.querySelectorAll('.viewtabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.view === v));
    b.tabIndex = b.dataset.view === v ? 0 : -1; // roving tabindex: Tab enters the list at the selected tab
  }
  for (const el of document.querySelectorAll('.view')) el.hidden = el.id !== 'view-' + v;
  if (v === 'ops') updateOps();
  if (v === 'tv') updateTv();
  if (v === 'plan') updatePlan();
  saveUrl();
}

// The SVG text parts of a panel's grid (as drawn: cells, ticks, axis
// names, labels, legend), or [] when it has none.
async function panelSvg(panel) {
  const w = panel.firstElementChild;
  return w && w.lkGrid ? gridSvg(w.lkGrid.g, w.lkGrid.width) : [];
}

// The button is disabled while the SVG is made (body[data-busy] counts it).
let exporting = 0;
async function exportSvg() {
  ++exporting; $('export').disabled = true; markBusy();
  const svg = await panelSvg(state.view === 'plan' ? $('staging') : $('logical'));
  --exporting; $('export').disabled = exporting > 0; markBusy();
  if (!svg.length) return;
  const blob = new Blob(svg, {type: 'image/svg+xml'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = (tab().preset || 'layout') + (state.view === 'plan' ? '-staging' : '') + '.svg';
  a.click();
}

// The ARIA tabs pattern on a tab list: Left / Right move to the previous /
// next tab (wrapping), Home / End to the first / last, and activate it.
function tabKeys(list, selector, activate) {
  list.addEventListener('keydown', (e) => {
    const tabs = [...list.querySelectorAll(selector)];
    const k = tabs.indexOf(document.activeElement);
    if (k < 0) return;
    const to = {ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: tabs.length - 1}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const t = tabs[(to + tabs.length) % tabs.length];
    t.focus();
    activate(t);
  });
}

// Whether tab t's text and shape are its preset's up to white space.
function samePreset(t) {
  const p = presets.find((q) => q.name === t.preset), bare = (x) => x.replace(/\s+/g, '');
  return !!p && bare(t.text) === bare(p.layout) && bare(t.shape) === bare('(' + p.shape.join(',') + ')');
}

function wire() {
  // An edit of the text or the shape makes the tab a custom layout: the
  // preset menu and the tab's name say so at once; the engine is asked
  // after the debounce, the old pictures greyed meanwhile.
  const field = (id, key, conv = (x) => x) => $(id).addEventListener('input', () => {
    tab()[key] = conv($(id).value);
    if (key !== 'column' && tab().preset && !samePreset(tab())) { tab().preset = ''; $('preset').value = ''; drawTabs(); }
    setStale(true, 'computing…');
    later('tile', update);
  });
  field('layout', 'text'); field('shape', 'shape'); field('column', 'column', Number);
  for (const [id, key] of [['dtype', 'dtype'], ['swizzle', 'swizzle'], ['colour', 'colour'], ['cellmode', 'cell']])
    $(id).addEventListener('change', () => { tab()[key] = $(id).value; update(); });
  $('preset').addEventListener('change', () => applyPreset($('preset').value));
  $('logical').addEventListener('mousemove', (e) => showHover(cellAt($('logical'), e)));
  $('logical').addEventListener('click', (e) => { const f = cellAt($('logical'), e); if (f >= 0) selectElement(f); });
  $('physical').addEventListener('click', (e) => { const i = cellAt($('physical'), e); if (i >= 0) selectPhysical(i); });
  $('logical').addEventListener('keydown', (e) => keyNav($('logical'), e, 'cursorL', selectElement));
  $('physical').addEventListener('keydown', (e) => keyNav($('physical'), e, 'cursorP', selectPhysical));
  $('staging').addEventListener('mousemove', (e) => stagingHover(cellAt($('staging'), e)));
  $('staging').addEventListener('keydown', (e) => keyNav($('staging'), e, 'cursorS', stagingHover, stagingHover));
  $('tabs').addEventListener('click', (e) => {
    const k = e.target.dataset.tab;
    if (k === undefined) return;
    if (k === 'new') { state.tabs.push(Object.assign({}, tab(), {preset: ''})); state.active = state.tabs.length - 1; }
    else state.active = +k;
    loadTab();
  });
  for (const b of document.querySelectorAll('.viewtabs button')) b.addEventListener('click', () => showView(b.dataset.view));
  tabKeys(document.querySelector('.viewtabs'), '[role="tab"]', (b) => showView(b.dataset.view));
  tabKeys($('tabs'), '[role="tab"]', (b) => { state.active = +b.dataset.tab; loadTab(); $('tabs').querySelector(`[data-tab="${state.active}"]`).focus(); });
  $('banks').addEventListener('mousemove', (e) => bankHover(cellAt($('banks'), e)));
  $('banks').addEventListener('keydown', (e) => keyNav($('banks'), e, 'cursorB', bankHover, bankHover));
  for (const id of ['opA', 'opB']) $(id).addEventListener('input', () => later('ops', updateOps));
  $('op').addEventListener('change', () => updateOps(true));
  for (const id of ['tv', 'tvshape']) $(id).addEventListener('input', () => later('tv', updateTv));
  $('planbtn').addEventListener('click', updatePlan);
  $('dst').addEventListener('input', () => { $('plandiag').textContent = ''; setPlanStale(); later('plan', updatePlan); });
  $('prev').addEventListener('click', () => { if (round > 0) --round; drawRound(); });
  $('next').addEventListener('click', () => { if (round + 1 < planRounds.length) ++round; drawRound(); });
  $('share').addEventListener('click', () => { saveUrl(); navigator.clipboard && navigator.clipboard.writeText(location.href).catch(() => {}); });
  $('export').addEventListener('click', exportSvg);
}

async function start() {
  markBusy();
  const bytes = await (await fetch('layoutkit.wasm')).arrayBuffer();
  engine.module = await WebAssembly.compile(bytes);
  engine.start();
  let direct = 0; // each test call its own lane: none supersedes another
  window.lk = async (fn, ...args) => (await engine.request('direct' + direct++, [[fn, ...args]]))[0];
  window.lkCurrent = () => cur;
  window.lkStaging = () => staging;
  window.lkBankCells = () => cur.banks.cellStart ? [...Array(cur.banks.cellStart.length - 1).keys()].map((i) => [...bankWord(cur.banks, i)]) : null;
  window.lkPanelSvg = async (id) => (await panelSvg($(id))).join('');
  window.lkEngine = engine;
  presets = (await window.lk('presets')).presets;
  // The operations view lists the library's registry of cute operations.
  const ops = (await window.lk('cuteOps')).ops;
  for (const o of ops) opInfo.set(o.name, o);
  $('op').innerHTML = ops.map((o) => `<option title="${esc(o.doc)} (B: ${esc(o.b)})">${esc(o.name)}</option>`).join('');
  $('op').value = 'composition';
  $('preset').innerHTML = '<option value="">(custom)</option>' + presets.map((p) => `<option value="${esc(p.name)}" title="${esc(p.summary)}">${esc(p.group)}: ${esc(p.name)}</option>`).join('');
  wire();
  if (loadUrl()) loadTab();
  else applyPreset(presets[0].name);
  showView(state.view);
  document.body.dataset.ready = '1';
}
start();
