// The demo's engine thread (docs/demo.md): the wasm module runs here, so a
// long library call never blocks the page. The page posts
//   {init: WebAssembly.Module}                 once, the compiled module
//   {seq, calls: [[fn, ...args], ...], stop}   one batch per request (stop:
//                                              skip the rest when one of the
//                                              first `stop` calls fails)
// and gets back {seq, replies: [object, ...], ms: [[fn, wasm ms, JSON ms],
// ...]} (each reply the bindings' JSON, parsed here), or {seq, fatal: text} when the module trapped; the
// page then starts a fresh worker (a trapped module is not reused). The
// page supersedes a request by terminating this worker: nothing here
// cancels.
'use strict';
importScripts('layoutkit.js');

let ready = null;
let mod = null;

// Arrays of the big replies travel as typed arrays (transferred, not
// copied): the tile map's coordinates, the banks' per-element slots and
// their words' element lists.
// The banks reply's view (the bank view record, api/Describe.h) as flat
// arrays for drawing: word w's elements at cellItems[cellStart[w] ..
// cellStart[w + 1]), and each element's bank and line (of its first byte:
// words come in address order).
function bankArrays(r) {
  const v = r.view, cellStart = [0], cellItems = [], bank = [], line = [];
  v.lines.forEach((words, l) => words.forEach((elements, b) => {
    for (const e of elements) {
      cellItems.push(e);
      if (bank[e] === undefined) { bank[e] = b; line[e] = v.first_line + l; }
    }
    cellStart.push(cellItems.length);
  }));
  Object.assign(r, {cellStart, cellItems, bank, line});
}

function transferables(r) {
  const out = [];
  for (const k of ['coords', 'bank', 'line', 'cellStart', 'cellItems']) {
    if (Array.isArray(r[k])) {
      r[k] = Int32Array.from(r[k]);
      out.push(r[k].buffer);
    }
  }
  return out;
}

// JSON.parse rounds integers beyond 2^53, and the engine's counts are
// exact int64s (an element of S[4:1] + R[2^62:1@warpid] has 2^62 owners).
// exactInts(text): the text with every such integer outside a string
// written as a string of its digits, which the page shows as it is (and
// subtracts with BigInt). Replies without 16 digits in a row pass as they
// are.
function exactInts(text) {
  if (!/\d{16}/.test(text)) return text;
  let out = '', last = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '"') {
      for (++i; text[i] !== '"'; ++i) if (text[i] === '\\') ++i;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && '0123456789.eE+-'.includes(text[j])) ++j;
      const tok = text.slice(i, j);
      if (/^-?\d+$/.test(tok) && !Number.isSafeInteger(Number(tok))) {
        out += text.slice(last, i) + '"' + tok + '"';
        last = j;
      }
      i = j - 1;
    }
  }
  return out + text.slice(last);
}

self.onmessage = async (e) => {
  const d = e.data;
  if (d.init) {
    ready = createLayoutKit({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(d.init, imports).then((inst) => done(inst));
        return {};
      },
    }).then((m) => { mod = m; });
    return;
  }
  await ready;
  const replies = [], moved = [], ms = [];
  try {
    for (const [fn, ...args] of d.calls) {
      const t0 = performance.now();
      const json = mod[fn](...args);
      const t1 = performance.now();
      const r = JSON.parse(exactInts(json));
      if (fn === 'banks' && r.ok) bankArrays(r);
      ms.push([fn, +(t1 - t0).toFixed(1), +(performance.now() - t1).toFixed(1)]);
      moved.push(...transferables(r));
      replies.push(r);
      if (!r.ok && replies.length <= (d.stop || 0)) break; // the rest would repeat the error
    }
    while (replies.length < d.calls.length) replies.push({ok: false, skipped: true});
  } catch (err) {
    self.postMessage({seq: d.seq, fatal: String(err && err.message || err)});
    return;
  }
  self.postMessage({seq: d.seq, replies, ms}, moved);
};
