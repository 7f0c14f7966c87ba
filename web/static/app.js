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
      r.resolve(d.replies);
    }
    this.pump();
  },
  pending() { return this.queue.length + (this.running ? 1 : 0); },
};

// Debounced input: an edit waits `ms` for the next one before it asks the
// engine. The body's data-busy counts what is still to come (the tests
// wait for 0).
const timers = new Map();
function later(key, fn, ms = 150) {
  clearTimeout(timers.get(key));
  timers.set(key, setTimeout(() => { timers.delete(key); fn(); markBusy(); }, ms));
  markBusy();
}
function markBusy() {
  document.body.dataset.busy = String(timers.size + engine.pending());
}

const $ = (id) => document.getElementById(id);
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
  const s = {tabs: state.tabs, active: state.active, view: state.view,
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
      column: col, colour: text(`${w} colour`, o.colour, ''),
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
// Drawing: a grid is one SVG path per colour (fast for 128x128 and more),
// labels only when the cells are large enough, highlights on their own layer.
// ---------------------------------------------------------------------------
const colourMemo = new Map();
function colourOf(v) {
  if (v === undefined || v === null || v < 0) return '#eeeeee';
  let c = colourMemo.get(v);
  if (c === undefined) {
    const h = (v * 137.508) % 360;
    c = `hsl(${h.toFixed(1)},62%,${v % 2 ? 72 : 62}%)`;
    colourMemo.set(v, c);
  }
  return c;
}

function cellSize(rows, cols, width) {
  return Math.max(2, Math.min(28, Math.floor((width - 40) / Math.max(cols, 1))));
}

// g = {rows, cols, value(i) -> colour index or -1, label(i) -> text, title}
function gridSvg(g, width) {
  const cs = g.cs || cellSize(g.rows, g.cols, width);
  const ox = 28, oy = 14;
  const W = ox + g.cols * cs + 2, H = oy + g.rows * cs + 2;
  const paths = new Map();
  const n = g.rows * g.cols;
  for (let i = 0; i < n; ++i) {
    const v = g.value(i);
    const r = (i / g.cols) | 0, c = i - r * g.cols;
    const key = colourOf(v);
    const d = `M${ox + c * cs} ${oy + r * cs}h${cs}v${cs}h${-cs}z`;
    const p = paths.get(key);
    if (p) p.push(d); else paths.set(key, [d]);
  }
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" data-cs="${cs}" data-rows="${g.rows}" data-cols="${g.cols}">`;
  s += `<title>${esc(g.title || '')}</title>`;
  for (const [k, ds] of paths) s += `<path fill="${k}" stroke="#fff" stroke-width="${cs > 6 ? 0.5 : 0}" d="${ds.join('')}"/>`;
  const step = cs >= 14 ? 1 : Math.ceil(14 / cs);
  for (let r = 0; r < g.rows; r += step) s += `<text x="2" y="${oy + r * cs + cs / 2 + 3}">${r}</text>`;
  for (let c = 0; c < g.cols; c += step * 2) s += `<text x="${ox + c * cs}" y="10">${c}</text>`;
  if (g.label && cs >= 18 && n <= 4096) {
    for (let i = 0; i < n; ++i) {
      const t = g.label(i);
      if (t === '') continue;
      const r = (i / g.cols) | 0, c = i - r * g.cols;
      s += `<text x="${ox + c * cs + 1}" y="${oy + r * cs + cs / 2 + 3}" style="font-size:${Math.min(9, cs / Math.max(2, String(t).length * 0.62))}px">${esc(t)}</text>`;
    }
  }
  s += '<g class="hl"></g></svg>';
  return s;
}

function highlight(panel, cells, colour, cursor) {
  const svg = panel.querySelector('svg');
  if (!svg) return;
  const cs = +svg.dataset.cs, cols = +svg.dataset.cols;
  let d = '';
  for (const i of cells) {
    const r = (i / cols) | 0, c = i - r * cols;
    d += `M${28 + c * cs} ${14 + r * cs}h${cs}v${cs}h${-cs}z`;
  }
  let s = d ? `<path fill="none" stroke="${colour}" stroke-width="2" d="${d}"/>` : '';
  if (cursor !== undefined && cursor >= 0) {
    const r = (cursor / cols) | 0, c = cursor - r * cols;
    s += `<rect x="${28 + c * cs}" y="${14 + r * cs}" width="${cs}" height="${cs}" fill="none" stroke="#2a7de1" stroke-dasharray="2" stroke-width="2"/>`;
  }
  svg.querySelector('.hl').innerHTML = s;
}

function cellAt(panel, ev) {
  const svg = panel.querySelector('svg');
  if (!svg) return -1;
  const b = svg.getBoundingClientRect();
  const cs = +svg.dataset.cs, cols = +svg.dataset.cols, rows = +svg.dataset.rows;
  const c = Math.floor((ev.clientX - b.left - 28) / cs), r = Math.floor((ev.clientY - b.top - 14) / cs);
  if (c < 0 || r < 0 || c >= cols || r >= rows) return -1;
  return r * cols + c;
}

// ---------------------------------------------------------------------------
// Diagnostics: the message, the offending line and a caret under the column.
// ---------------------------------------------------------------------------
function showDiag(el, err, texts) {
  if (!err) { el.textContent = ''; return; }
  let s = 'error: ' + err.message;
  const text = texts[err.field];
  if (err.offset >= 0 && text !== undefined) {
    const before = text.slice(0, err.offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    let lineEnd = text.indexOf('\n', err.offset);
    if (lineEnd < 0) lineEnd = text.length;
    const col = err.offset - lineStart;
    s += ` (in the ${err.field}, column ${col + 1})\n` + text.slice(lineStart, lineEnd) + '\n' + ' '.repeat(col) + '^'.repeat(Math.max(1, err.length));
  }
  for (const n of err.notes || []) s += '\nnote: ' + n;
  el.textContent = s;
  el.dataset.offset = err.offset;
  el.dataset.field = err.field;
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
  if (mode === 'thread') { // laneid + 32 warpid, or a block- / warpgroup-wide index
    const at = (name) => m.axes.indexOf(name);
    const l = at('laneid'), w = at('warpid'), t = at('tid'), g = at('tid_in_wg');
    const v = (f, a) => (a >= 0 ? c[f * R * A + a] : 0);
    return (f) => v(f, l) + 32 * v(f, w) + v(f, t) + v(f, g);
  }
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

function drawTile(width) {
  const m = cur.map;
  const rows = m.shape.length >= 2 ? m.size / m.shape[m.shape.length - 1] : 1;
  const cols = m.shape.length >= 1 ? m.shape[m.shape.length - 1] : 1;
  const colourValue = colourFn();
  $('logical').innerHTML = gridSvg({rows, cols, value: colourValue, label: cellLabel, title: m.text}, width);
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
    const title = `x: ${m.axes[pg.xa]}` + (pg.ya >= 0 ? `, y: ${m.axes[pg.ya]}` : pg.wrap ? ` (rows of ${pg.wrap})` : '');
    $('physical').innerHTML = gridSvg({rows: pg.rows, cols: pg.cols, title,
      value: (i) => first[i] < 0 ? -1 : colourValue(first[i]), label: (i) => ''}, width);
  }
  sel = {logical: new Set(), physical: new Set(), cursorL: 0, cursorP: 0, cursorS: 0};
}

function drawBanks(width) {
  const b = cur.banks;
  if (!b.ok) { $('banks').textContent = b.error.message; $('conflicts').textContent = ''; return; }
  const shape = cur.map.shape;
  const read = b.column ? new Set(b.column.elements) : new Set();
  const hl = [];
  $('banks').innerHTML = gridSvg({rows: b.lineCount, cols: 32, cs: Math.max(6, Math.min(28, Math.floor((width - 40) / 32))),
    title: `${b.layout} as ${tab().dtype}: rows are bank lines, columns banks`,
    value: (i) => { const c = b.cells[i]; if (!c.length) return -1; if (c.some((e) => read.has(e))) hl.push(i); return unflatten(shape, c[0]).pop(); },
    label: (i) => { const c = b.cells[i]; return c.length ? unflatten(shape, c[0]).join(',') : ''; }}, width);
  highlight($('banks'), hl, '#d00000');
  const c = b.column;
  $('conflicts').textContent = c ? `column ${c.column} read by ${c.lanes} lanes: ${c.ways}-way` + (c.conflictFree ? ' (conflict-free)' : ' bank conflict') : (b.columnError || '');
  $('conflicts').dataset.ways = c ? c.ways : '';
}

// Warp 0's access: its lanes are laneid, or tid / tid_in_wg 0..31 (the
// library's rule, hw/Analysis.h); the other warps are left out.
function drawAccess(a) {
  const el = $('access');
  const blockWide = cur.map.axes.find((x) => x === 'tid' || x === 'tid_in_wg');
  el.textContent = a.ok
    ? `warp 0: ${blockWide ? `${blockWide} 0..31 as lanes 0..31 (other warps left out)` : 'lanes laneid 0..31'}\n` +
      `memory: ${a.memory}\nvector: ${a.vectorBytes} B per lane per access (${a.vectorBytes > 1 ? 'vectorized' : 'scalar'})\n` +
      `shared: ${a.instructions} instructions, ${a.wavefronts} wavefronts (minimum ${a.minimumWavefronts})\n${a.sharedExplain}\n` +
      `global: ${a.sectors} sectors, ${a.lines} lines (${a.coalesced ? 'coalesced' : `not coalesced: at best ${a.minimumSectors} sectors`})\n${a.globalExplain}`
    : 'no warp access to analyse (a lane axis, laneid or tid, and the register axis m): ' + a.error.message;
  el.dataset.result = a.ok ? JSON.stringify({vectorBytes: a.vectorBytes, instructions: a.instructions, wavefronts: a.wavefronts,
    minimum: a.minimumWavefronts, sectors: a.sectors, lines: a.lines, minimumSectors: a.minimumSectors, coalesced: a.coalesced}) : '';
}

function colourOptions() {
  const m = cur.map, sel = $('colour');
  const opts = [...m.axes];
  if (m.axes.includes('laneid') && m.axes.includes('warpid')) opts.unshift('thread');
  opts.push('bank');
  if (!opts.includes(tab().colour)) tab().colour = opts.find((o, k) => o === 'thread' || m.ownerAxes[m.axes.indexOf(o)]) || opts[0];
  sel.innerHTML = opts.map((o) => `<option ${o === tab().colour ? 'selected' : ''}>${o}</option>`).join('');
}

// The tile view's pictures: greyed while a newer edit is computed or
// after an error (they show the last layout read), with the reason.
function setStale(stale, why) {
  $('view-tile').classList.toggle('stale', stale);
  $('status').textContent = why;
  $('status').dataset.state = stale ? (why.startsWith('computing') ? 'computing' : 'stale') : 'current';
}

async function update() {
  const t = tab();
  const texts = {layout: t.text, shape: t.shape};
  setStale(true, 'computing…');
  const t0 = performance.now();
  const r = await engine.request('tile', [['parse', t.text, t.shape], ['tileMap', t.text, t.shape],
    ['banks', t.text, t.shape, t.dtype, t.swizzle, +t.column || 0], ['access', t.text, t.shape, t.dtype, t.swizzle]], 2);
  if (!r) return; // superseded by a newer edit
  const tEngine = performance.now();
  const [p, m, banks, access] = r;
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
    showDiag($('diag'), failed.error, texts);
    $('diag').className = 'diag';
    setStale(!!cur.map, cur.map ? 'stale: the pictures show the last layout that was read' : '');
    saveUrl();
    return;
  }
  $('diag').textContent = 'ok';
  $('diag').className = 'diag okmsg';
  cur.map = m;
  cur.banks = banks;
  colourOptions();
  const width = Math.max(320, $('views').clientWidth);
  drawTile(width);
  drawBanks(width);
  drawAccess(access);
  setStale(false, '');
  window.lkLaps = {engine: +(tEngine - t0).toFixed(1), draw: +(performance.now() - tEngine).toFixed(1)};
  window.lkRedrawMs = performance.now() - t0;
  saveUrl();
}

// ---------------------------------------------------------------------------
// Selection: an element's owners, a physical cell's holdings.
// ---------------------------------------------------------------------------
async function selectElement(f) {
  const t = tab(), m = cur.map;
  const r = await engine.request('pick', [['owners', t.text, t.shape, f]]);
  if (!r || m !== cur.map) return;
  const o = r[0];
  if (!o.ok) { $('info').textContent = o.error.message; return; }
  const phys = new Set();
  for (let r = 0; r < m.replicas; ++r) phys.add(cur.pg.cellOf(point(f, r)));
  const fmt = (obj) => Object.entries(obj).map(([k, v]) => `${k}=${v}`).join(' ');
  $('info').textContent = `(${o.coord.join(',')}) has ${o.owners.length} owner${o.owners.length === 1 ? '' : 's'}:\n` +
    o.owners.map((w) => '  ' + (fmt(w.owner) || '(no thread axis)') + (Object.keys(w.at).length ? ' holds it at ' + fmt(w.at) : '')).join('\n');
  $('info').dataset.owners = JSON.stringify(o.owners);
  $('info').dataset.coord = JSON.stringify(o.coord);
  sel.cursorL = f;
  highlight($('logical'), [f], '#000', f);
  highlight($('physical'), phys, '#000');
}

async function selectPhysical(i) {
  const m = cur.map, pg = cur.pg;
  let where;
  if (pg.wrap) where = `${m.axes[pg.xa]}=${i}`;
  else if (pg.ya >= 0) where = `${m.axes[pg.xa]}=${i % pg.cols},${m.axes[pg.ya]}=${(i / pg.cols) | 0}`;
  else where = `${m.axes[pg.xa]}=${i}`;
  const r = await engine.request('pick', [['holds', tab().text, tab().shape, where]]);
  if (!r || m !== cur.map) return;
  const h = r[0];
  sel.cursorP = i;
  if (!h.ok) { $('info').textContent = h.error.message; return; }
  $('info').textContent = `${where} holds ${h.elements.length} element${h.elements.length === 1 ? '' : 's'}:` +
    h.elements.slice(0, 256).map((f) => ' (' + unflatten(m.shape, f).join(',') + ')').join('') + (h.elements.length > 256 ? ' ...' : '');
  $('info').dataset.holds = JSON.stringify(h.elements);
  highlight($('logical'), h.elements, '#000');
  highlight($('physical'), [i], '#000', i);
}

function keyNav(panel, ev, cursorKey, onEnter, hover = (i) => showHover(panel === $('logical') ? i : -1)) {
  const svg = panel.querySelector('svg');
  if (!svg) return;
  const cols = +svg.dataset.cols, n = cols * +svg.dataset.rows;
  const d = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols}[ev.key];
  if (d !== undefined) {
    sel[cursorKey] = Math.min(n - 1, Math.max(0, sel[cursorKey] + d));
    highlight(panel, [], '#000', sel[cursorKey]);
    hover(sel[cursorKey]);
    ev.preventDefault();
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    onEnter(sel[cursorKey]);
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
function tableFigure(t, caption, width) {
  if (t.error || t.rows === undefined) return `<figure><figcaption>${esc(caption)}: ${esc(t.text)}${t.error ? ' (' + esc(t.error) + ')' : ''}</figcaption></figure>`;
  return `<figure><figcaption>${esc(caption)}: ${esc(t.text)}</figcaption>` +
    gridSvg({rows: t.rows, cols: t.cols, value: (i) => t.cells[i], label: (i) => t.cells[i], title: t.text}, width) + '</figure>';
}

async function updateOps() {
  const q = await engine.request('ops', [['algebra', $('op').value, $('opA').value, $('opB').value]]);
  if (!q) return;
  const r = q[0];
  if (!r.ok) {
    showDiag($('opdiag'), r.error, {layout: $('opA').value, b: $('opB').value});
    $('opout').innerHTML = '';
  } else {
    $('opdiag').textContent = '';
    const w = Math.max(240, $('views').clientWidth / 3);
    $('opout').innerHTML = tableFigure(r.a, 'A', w) + tableFigure(r.b, 'B', w) + tableFigure(r.result, $('op').value, w);
  }
  saveUrl();
}

async function updateTv() {
  const q = await engine.request('tv', [['tv', $('tv').value, $('tvshape').value]]);
  if (!q) return;
  const t = q[0];
  if (!t.ok) { showDiag($('tvdiag'), t.error, {layout: $('tv').value, shape: $('tvshape').value}); $('tvout').innerHTML = ''; saveUrl(); return; }
  $('tvdiag').textContent = '';
  // The library places thread t, value v at logical (r, c) of index
  // r + rows * c (CuTe's colex codomain); cells no pair reaches are -1.
  const rows = t.tileRows, cols = t.tileCols, thread = t.thread, value = t.value;
  const w = Math.max(300, $('views').clientWidth / 2);
  $('tvout').innerHTML = tableFigure(t, '(thread, value) -> index', w) +
    `<figure><figcaption>logical ${rows}x${cols}: thread (colour) and value</figcaption>` +
    gridSvg({rows, cols, value: (i) => thread[i], label: (i) => thread[i] < 0 ? '' : `T${thread[i]}V${value[i]}`, title: 'TV'}, w) + '</figure>';
  saveUrl();
}

let planRounds = [], round = 0;
async function updatePlan() {
  const t = tab();
  const q = await engine.request('plan', [['plan', t.text, $('dst').value, t.shape, t.dtype]]);
  if (!q) return;
  const r = q[0];
  planRounds = [];
  round = 0;
  if (!r.ok) {
    showDiag($('plandiag'), r.error, {layout: t.text, b: $('dst').value, shape: t.shape});
    $('planout').textContent = '';
  } else {
    $('plandiag').textContent = '';
    const c = r.cost;
    $('planout').textContent = `strategy: ${r.strategy}\ncost: ${c.instructions} instructions (${c.registerMoves} register moves, ${c.selects} selects, ${c.shuffles} shuffles), ` +
      `${c.wavefronts} wavefronts, ${c.barriers} barriers, ${c.smemBytes} B of shared memory, ${c.cycles} estimated cycles` +
      (r.store ? `\nstore: ${r.store}, load: ${r.load}` : '') + (r.memoryCute ? `\nshared memory (cute): ${r.memoryCute}` : '') +
      (r.memoryTile ? `\nshared memory (tile): ${r.memoryTile}` : '') + `\nsource: ${r.src}\ndestination: ${r.dst}`;
    $('planout').dataset.strategy = r.strategy;
    planRounds = r.rounds;
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
    $('stagingcap').textContent = !r || !r.ok ? '' : r.stagingError ? 'staging buffer not drawn: ' + r.stagingError : (r.smem ? '' : 'no shared memory in this plan');
    $('staging').innerHTML = '';
    return;
  }
  const sh = staging.shape, cols = sh.length ? sh[sh.length - 1] : 1, rows = staging.banks.length / cols;
  const sm = r.smem;
  $('stagingcap').textContent = `${staging.layout} (${staging.dtypeBits}-bit elements, ${sm.accessBytes} B accesses): ` +
    `${r.cost.wavefronts} wavefronts (store ${sm.storeWavefronts}, at best ${sm.storeLowerBound}; load ${sm.loadWavefronts}, at best ${sm.loadLowerBound})`;
  const w = Math.max(320, $('views').clientWidth);
  $('staging').innerHTML = gridSvg({rows, cols, value: (i) => staging.banks[i], label: (i) => staging.banks[i],
    title: `staging buffer ${staging.layout}: logical tile coloured by bank`}, w);
}

function stagingHover(i) {
  if (!staging || i < 0 || i >= staging.banks.length) { $('staginghover').textContent = ''; return; }
  $('staginghover').textContent = `(${unflatten(staging.shape, i).join(',')}) bank ${staging.banks[i]}`;
}

function drawRound() {
  if (!planRounds.length) { $('roundlabel').textContent = ' no shuffle rounds '; $('rounds').innerHTML = ''; return; }
  const r = planRounds[round];
  $('roundlabel').textContent = ` round ${round + 1} of ${planRounds.length}${r.laneLocal ? ' (lane-local)' : ''} `;
  let s = '<table><tr><th>lane</th><th>reads lane</th><th>sends registers</th><th>receives into</th></tr>';
  r.srcLane.forEach((src, l) => { s += `<tr><td>${l}</td><td>${src}</td><td>${r.send[l].join(',')}</td><td>${r.recv[l].join(',')}</td></tr>`; });
  $('rounds').innerHTML = s + '</table>';
}

// ---------------------------------------------------------------------------
// Tabs, controls, start-up
// ---------------------------------------------------------------------------
function drawTabs() {
  $('tabs').innerHTML = state.tabs.map((t, k) => `<button role="tab" data-tab="${k}" aria-selected="${k === state.active}">${esc(t.preset || 'layout ' + (k + 1))}</button>`).join('') +
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
  Object.assign(tab(), {text: p.text, shape: '(' + p.shape.join(',') + ')', preset: p.name, colour: ''});
  if (p.tv) {
    $('tv').value = p.tv;
    $('tvshape').value = '(' + p.tvShape.join(',') + ')';
  }
  loadTab();
}

function showView(v) {
  state.view = v;
  for (const b of document.querySelectorAll('.viewtabs button')) b.setAttribute('aria-selected', String(b.dataset.view === v));
  for (const el of document.querySelectorAll('.view')) el.hidden = el.id !== 'view-' + v;
  if (v === 'ops') updateOps();
  if (v === 'tv') updateTv();
  if (v === 'plan') updatePlan();
  saveUrl();
}

function exportSvg() {
  const svg = (state.view === 'plan' ? $('staging') : $('logical')).querySelector('svg');
  if (!svg) return;
  const blob = new Blob([svg.outerHTML], {type: 'image/svg+xml'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = (tab().preset || 'layout') + (state.view === 'plan' ? '-staging' : '') + '.svg';
  a.click();
}

function wire() {
  // An edit of the text or the shape makes the tab a custom layout: the
  // preset menu and the tab's name say so at once; the engine is asked
  // after the debounce, the old pictures greyed meanwhile.
  const field = (id, key, conv = (x) => x) => $(id).addEventListener('input', () => {
    tab()[key] = conv($(id).value);
    if (key !== 'column' && tab().preset) { tab().preset = ''; $('preset').value = ''; drawTabs(); }
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
  for (const id of ['op', 'opA', 'opB']) $(id).addEventListener('input', () => later('ops', updateOps));
  for (const id of ['tv', 'tvshape']) $(id).addEventListener('input', () => later('tv', updateTv));
  $('planbtn').addEventListener('click', updatePlan);
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
  window.lkEngine = engine;
  presets = (await window.lk('presets')).presets;
  $('preset').innerHTML = '<option value="">(custom)</option>' + presets.map((p) => `<option value="${esc(p.name)}" title="${esc(p.summary)}">${esc(p.group)}: ${esc(p.name)}</option>`).join('');
  wire();
  if (loadUrl()) loadTab();
  else applyPreset(presets[0].name);
  showView(state.view);
  document.body.dataset.ready = '1';
}
start();
