// End-to-end test of the browser demo (docs/demo.md) in headless Chromium.
//
//   node tests/web/demo.test.js DEMO_DIR LAYOUTKIT SHOTS_DIR
//
// DEMO_DIR is build-wasm/web (scripts/build-wasm.sh), LAYOUTKIT the native
// CLI. The page is served by `layoutkit demo` itself. The expected answers
// come from the CLI (`layoutkit tile owners / banks / conflicts`, `plan`, the
// diagnostic's column) for the same layout, and from the worked bank example
// of docs/design.md §6.3 ((8,64) f16 column read: 8 rows on bank 0
// unswizzled, eight distinct banks with the 128B swizzle). Exit 77: skipped
// (no wasm build, no Chromium or no playwright-core), with the reason on
// stdout.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const {spawn, execFileSync} = require('child_process');

const [demoDir, cli, shots] = process.argv.slice(2);
const chromiumPath = process.env.LK_CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  console.log('skipped: ' + why);
  process.exit(77);
}
if (!demoDir || !cli || !shots) {
  console.error('usage: demo.test.js DEMO_DIR LAYOUTKIT SHOTS_DIR');
  process.exit(2);
}
if (!fs.existsSync(path.join(demoDir, 'layoutkit.wasm')))
  skip(`no wasm build in ${demoDir} (bash scripts/build-wasm.sh)`);
if (!fs.existsSync(chromiumPath)) skip(`no Chromium at ${chromiumPath}`);
let chromium;
try {
  ({chromium} = require('playwright-core'));
} catch (e) {
  skip('playwright-core is not installed (npm ci)');
}

const started = Date.now();
let failures = 0, passed = 0;
function check(cond, what) {
  if (cond) {
    passed++;
    console.log('ok   ' + what);
  } else {
    failures++;
    console.log('FAIL ' + what);
  }
}

// The CLI's JSON result, or its error text (exit 1).
function lk(...args) {
  try {
    return {ok: true, result: JSON.parse(execFileSync(cli, [...args, '--json'], {encoding: 'utf8'})).result};
  } catch (e) {
    return {ok: false, text: (e.stdout || '') + (e.stderr || '')};
  }
}

// A raw request to the demo server: its status code.
function rawStatus(port, request) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request));
    let data = '';
    s.on('data', (d) => (data += d));
    s.on('close', () => resolve(+(data.split(' ')[1] || 0)));
    s.on('error', () => resolve(0));
  });
}

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(cli, ['demo', '--dir', demoDir], {stdio: ['ignore', 'pipe', 'pipe']});
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({proc: p, url: m[0], port: +m[1]});
    });
    p.on('exit', (code) => reject(new Error('layoutkit demo exited ' + code + ': ' + out)));
  });
}

const sortedOwners = (list) => list.map((o) => JSON.stringify([Object.entries(o.owner).sort(), Object.entries(o.at).sort()])).sort();

async function waitReady(page) {
  await page.waitForSelector('body[data-ready="1"]', {timeout: 60000});
  await settle(page);
}

// The page answers asynchronously (a worker, debounced input): wait until
// nothing is pending (body[data-busy="0"]).
async function settle(page) {
  await page.waitForFunction(() => document.body.dataset.busy === '0', null, {timeout: 60000});
}
// The page coordinates of the centre of cell i of a panel's grid (its
// geometry is in div.grid's dataset: margins ox, oy; cell cw x ch).
async function cellCentre(page, panel, i) {
  return page.evaluate(([panel, i]) => {
    const g = document.querySelector(panel + ' .grid');
    g.scrollIntoView();
    const b = g.getBoundingClientRect(), d = g.dataset, cols = +d.cols;
    const r = Math.floor(i / cols), c = i % cols;
    return {x: b.left + +d.ox + c * +d.cw + +d.cw / 2, y: b.top + +d.oy + r * +d.ch + +d.ch / 2};
  }, [panel, i]);
}

async function fill(page, sel, v) { await page.fill(sel, v); await settle(page); }
async function select(page, sel, v) { await page.selectOption(sel, v); await settle(page); }
async function click(page, sel) { await page.click(sel); await settle(page); }

// The derivation the page shows for the selected element f (#steps)
// against the CLI's `tile eval TILE SHAPE X --steps` of the tile form and
// index the page names.
async function checkSteps(page, text, shape, f, what) {
  const shown = await page.evaluate(() => ({steps: document.getElementById('steps').dataset.steps, x: document.getElementById('steps').dataset.x,
    text: document.getElementById('steps').textContent}));
  const tile = (shown.text.match(/, x = \d+ in (.*):\n/) || [])[1];
  const want = lk('tile', 'eval', tile || text, shape, String(shown.x), '--steps');
  let cliText = '';
  try { cliText = execFileSync(cli, ['tile', 'eval', tile || text, shape, String(shown.x), '--steps'], {encoding: 'utf8'}); } catch (e) { cliText = String(e); }
  const pageLines = shown.text.split('\n').slice(1).join('\n'), cliLines = cliText.trimEnd().split('\n').slice(1).join('\n');
  check(want.ok && shown.steps === JSON.stringify(want.result.steps) && pageLines === cliLines,
    `${what}: the derivation of element ${f} (x = ${shown.x}) is 'layoutkit tile eval --steps' (${want.ok ? want.result.steps.length : '?'} steps)` +
    (pageLines === cliLines ? '' : `\n  page: ${JSON.stringify(pageLines)}\n  cli:  ${JSON.stringify(cliLines)}`));
  return shown;
}

// Replaces the block between the figures markers of docs/demo.md with the
// measured figures (LK_DEMO_DOC=docs/demo.md): the document quotes the
// build, never a hand-typed number.
function writeDocFigures(doc, f) {
  const begin = '<!-- figures: written by tests/web/demo.test.js (LK_DEMO_DOC) -->', end = '<!-- end of figures -->';
  const text = fs.readFileSync(doc, 'utf8');
  const a = text.indexOf(begin), b = text.indexOf(end);
  if (a < 0 || b < a) { console.log(`FAIL ${doc} has no figures markers`); failures++; return; }
  const lines = [begin, '',
    `| what | measured |`, '|---|---|',
    `| \`layoutkit.wasm\` | ${f.wasmBytes} B |`, `| \`layoutkit.js\` | ${f.jsBytes} B |`,
    `| page load to interactive | ${f.loadToInteractiveMs} ms |`,
    ...f.edits.map((e) => `| edit to painted frame, 128x128 ${e.name} \`${e.text}\` | median ${e.medianMs} ms (engine ${e.medianLapsMs.engine} ms, drawing ${e.medianLapsMs.drawing} ms); the bank grid and access analysis at ${e.analysesMedianMs} ms |`),
    `| longest main-thread task (Chromium \`longtask\` entries) while 512x512 and 256x1024 tiles are drawn | ${f.longTasks.tiles} (load ${f.longTasks.load}) |`,
    `| longest main-thread task during Export SVG of the 256x1024 tile (${f.longTasks.svgBytes} B) | ${f.longTasks.exportSvg} |`,
    `| the whole browser test | ${f.testSeconds} s, ${f.checks.passed} checks passed, ${f.checks.failed} failed |`,
    '', `The 50 ms target was ${f.targetMs === 50 ? 'asserted' : `not asserted (load above 0.75 per core; held to ${f.targetMs} ms)`} in this run. ` +
    `${f.browser}, ${f.machine.cores} cores, load average ${f.machine.loadavgBefore} before the edits and ${f.machine.loadavgAfter} after ` +
    `(\`/proc/loadavg\`: 1, 5 and 15 minutes); the samples and each engine call's time are in \`build-wasm/screenshots/figures.json\`.`, '', end];
  fs.writeFileSync(doc, text.slice(0, a) + lines.join('\n') + text.slice(b + end.length));
}

async function main() {
  fs.mkdirSync(shots, {recursive: true});
  const server = await startServer();
  console.log('serving at ' + server.url);
  // The server: GET only, no way out of the directory.
  check((await rawStatus(server.port, 'GET /index.html HTTP/1.0\r\n\r\n')) === 200, 'server: GET /index.html is 200');
  check((await rawStatus(server.port, 'POST / HTTP/1.0\r\n\r\n')) === 405, 'server: POST is 405');
  check((await rawStatus(server.port, 'GET /../CMakeLists.txt HTTP/1.0\r\n\r\n')) === 400, 'server: /../ is refused (400)');
  check((await rawStatus(server.port, 'GET /nope.txt HTTP/1.0\r\n\r\n')) === 404, 'server: a missing file is 404');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lk-demo-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: {width: 1280, height: 800},
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const errors = [];
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await waitReady(page);
  check(errors.length === 0, 'loads without console errors' + (errors.length ? ': ' + errors.join(' | ') : ''));
  // Load to interactive: navigation start to the first painted picture
  // (the page's performance.now() then; the engine compiled, the inputs
  // wired).
  await page.waitForFunction(() => typeof window.lkInteractiveMs === 'number', null, {timeout: 60000});
  const interactiveMs = await page.evaluate(() => window.lkInteractiveMs);
  console.log(`page load to interactive: ${interactiveMs.toFixed(0)} ms`);
  // The module's size (docs/demo.md): at most 1 MB.
  const wasmBytes = fs.statSync(path.join(demoDir, 'layoutkit.wasm')).size, jsBytes = fs.statSync(path.join(demoDir, 'layoutkit.js')).size;
  check(wasmBytes <= 1000000, `layoutkit.wasm is ${wasmBytes} B (at most 1 MB)`);

  // Every preset: it draws, screenshots, and a clicked element's owners are
  // the CLI's.
  const presets = await page.evaluate(async () => (await window.lk('presets')).presets);
  check(presets.length >= 12, `${presets.length} presets listed`);
  // The ones the page calls tile presets are the CLI's, the same record.
  const tilePresets = presets.filter((p) => p.group === 'tile preset');
  const cliPresets = tilePresets.map((p) => lk('tile', 'presets', p.name));
  check(tilePresets.length > 0 && cliPresets.every((c, k) => c.ok && c.result.layout === tilePresets[k].layout),
    `the page's ${tilePresets.length} tile presets are 'layoutkit tile presets' NAME`);
  for (const p of presets) {
    await select(page, '#preset', p.name);
    const diag = await page.textContent('#diag');
    check(diag === 'ok', `preset ${p.name}: reads and draws (${diag.split('\n')[0]})`);
    await page.screenshot({path: path.join(shots, p.name + '.png')});
    const shape = '(' + p.shape.join(',') + ')';
    const cols = p.shape[p.shape.length - 1];
    const size = p.shape.reduce((a, b) => a * b, 1);
    // A cell in the second row (or the first when there is one), clicked with the mouse.
    const f = Math.min(size - 1, (size > cols ? cols : 0) + Math.min(3, cols - 1));
    const box = await cellCentre(page, '#logical', f);
    await page.mouse.click(box.x, box.y);
    await settle(page);
    const shown = JSON.parse(await page.getAttribute('#info', 'data-owners'));
    const want = lk('tile', 'owners', p.layout, shape, String(f));
    check(want.ok && JSON.stringify(sortedOwners(shown)) === JSON.stringify(sortedOwners(want.result.owners)),
      `preset ${p.name}: owners of element ${f} match 'layoutkit tile owners' (${shown.length} owners)`);
    // The clicked element's derivation is `layoutkit tile eval --steps`
    // of the same layout and element: the steps (JSON) and the printed
    // lines after the first (the steps, "L(x):" and the points).
    await checkSteps(page, p.layout, shape, f, `preset ${p.name}`);
    if (p.name === 'tensor_core_8x16') {
      // docs/design.md §6.1: element (0,0) lives on warps {5, 9}.
      const o = await page.evaluate(async () => window.lk('owners', document.getElementById('layout').value, document.getElementById('shape').value, 0));
      check(JSON.stringify(o.result.owners.map((x) => x.owner.warpid).sort((a, b) => a - b)) === '[5,9]', 'tensor_core_8x16: (0,0) on warps 5 and 9 (design.md §6.1)');
    }
  }

  // Clicking a physical thread lists what it holds, as `layoutkit tile holds`.
  await select(page, '#preset', 'mma_m8n8_fragment');
  const held = await cellCentre(page, '#physical', 5);
  await page.mouse.click(held.x, held.y);
  await settle(page);
  const holds = JSON.parse(await page.getAttribute('#info', 'data-holds'));
  const infoText = await page.textContent('#info');
  const where = infoText.split(' holds')[0];
  const cliHolds = lk('tile', 'holds', 'S[(8,4,2):(4@laneid,1@laneid,1)]', '(8,8)', where.replace(' ', ','));
  const flat = cliHolds.ok ? cliHolds.result.elements : null;
  check(cliHolds.ok && JSON.stringify(holds) === JSON.stringify(flat), `physical ${where}: holds ${JSON.stringify(holds)} as 'layoutkit tile holds'`);

  // Editing: a valid text draws, an invalid one puts the caret where the CLI does.
  await select(page, '#preset', '');
  await fill(page, '#shape', '(8,8)');
  await fill(page, '#layout', 'S[(8,4,2):(4@laneid,1@laneid,1)]');
  check((await page.textContent('#diag')) === 'ok', 'edit: a valid tile layout draws');
  await fill(page, '#layout', 'S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:4@warpid');
  const bad = lk('tile', 'owners', 'S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:4@warpid', '(8,8)', '0');
  const cliColumn = +((bad.text || '').match(/at column (\d+)/) || [0, -1])[1];
  const offset = +(await page.getAttribute('#diag', 'data-offset'));
  const diagText = await page.textContent('#diag');
  const caretLine = diagText.split('\n')[2] || '';
  check(!bad.ok && offset + 1 === cliColumn && caretLine.indexOf('^') === offset,
    `edit: the diagnostic's caret is at column ${offset + 1} (CLI: ${cliColumn})`);
  // The engine counts UTF-8 bytes, the page characters: 'é' is 2 bytes and
  // '€' 3, so bytes [5, 8) of 'é€ab xyz' are the characters [2, 5), 'ab '.
  const wide = await page.evaluate(() => {
    const el = document.createElement('pre');
    showDiag(el, {field: 'layout', error: {message: 'm', offset: 5, length: 3, notes: []}}, {layout: 'é€ab xyz'});
    return el.textContent.split('\n');
  });
  check(wide[0].endsWith('column 3)') && wide[2] === '  ^^^',
    `edit: a caret after non-ASCII text counts characters (${JSON.stringify(wide)})`);
  // The worker keeps integers beyond 2^53 exact (as digit strings), also
  // next to a string holding such digits: 2^62 + 1 and -(2^53 + 1).
  const exact = await page.evaluate(async () => {
    const src = await (await fetch('worker.js')).text();
    const exactInts = new Function(src.match(/function exactInts[\s\S]*?\n}\n/)[0] + 'return exactInts;')();
    return JSON.parse(exactInts('{"m":"[1,4611686018427387905]","total":4611686018427387905,"n":[-9007199254740993,7,0.5]}'));
  });
  check(exact.total === '4611686018427387905' && exact.n[0] === '-9007199254740993' && exact.n[1] === 7 &&
    exact.m === '[1,4611686018427387905]', `worker: integers beyond 2^53 stay exact (${JSON.stringify(exact)})`);
  // CuTe's (8,8):(8,1) maps coordinate (i,j) to 8i + j; over its modes
  // (no shape given) the tile's element (i,j) is that coordinate, so the
  // tile form keeps the strides: S[(8,8):(8,1)].
  await fill(page, '#layout', '(8,8):(8,1)');
  check((await page.textContent('#diag')) === 'ok' && (await page.textContent('#forms')).includes('S[(8,8):(8,1)]'),
    'edit: a CuTe layout is accepted and shown as a tile layout');
  await fill(page, '#layout', 'S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]');
  check((await page.textContent('#forms')).includes('no exact form'), 'edit: a replica has no cute form, and the reason is shown');

  // Banks and conflicts against the CLI and docs/design.md §6.3.
  await select(page, '#preset', 'smem_row_major_8x64');
  const specWays = {f16: {none: 8, '128B': 1}};
  for (const dtype of ['f16', 'f32']) {
    for (const sw of ['none', '32B', '64B', '128B']) {
      await select(page, '#dtype', dtype);
      await select(page, '#swizzle', sw);
      const ways = +(await page.getAttribute('#conflicts', 'data-ways'));
      const args = ['S[(8,64):(64,1)]', '(8,64)', '--dtype', dtype].concat(sw === 'none' ? [] : ['--swizzle', sw]);
      const c = lk('tile', 'conflicts', ...args, '--column', '0');
      const b = lk('tile', 'banks', ...args);
      const drawn = await page.evaluate(() => window.lkBankCells());
      const cliCells = b.ok ? b.result.lines.flat() : null;
      check(c.ok && ways === c.result.ways && JSON.stringify(drawn) === JSON.stringify(cliCells),
        `banks ${dtype} ${sw}: ${ways}-way column read and the line x bank grid match the CLI`);
      if (specWays[dtype] && specWays[dtype][sw] !== undefined)
        check(ways === specWays[dtype][sw], `banks ${dtype} ${sw}: ${specWays[dtype][sw]}-way as docs/design.md §6.3 derives`);
      if (dtype === 'f16' && (sw === 'none' || sw === '128B'))
        await page.screenshot({path: path.join(shots, `banks-f16-${sw}.png`)});
    }
  }
  await select(page, '#dtype', 'f16');
  await select(page, '#swizzle', 'none');

  // Access analysis of a block-wide tid layout: warp 0 is threads 0..31
  // (hw/Analysis.h). Row i goes to thread 16 i, so warp 0 is rows 0 and 1
  // on lanes 0 and 16; the numbers equal `layoutkit hw analyse` of the same
  // layout against the row-major tile the page uses, and the header's
  // worked example (f32: 16 B vectors, 8 wavefronts, 8 sectors, 4 lines).
  await select(page, '#preset', '');
  await select(page, '#dtype', 'f32');
  await fill(page, '#shape', '(8,16)');
  await fill(page, '#layout', 'S[(8,16):(16@tid,1@m)]');
  const shownAccess = JSON.parse((await page.getAttribute('#access', 'data-result')) || 'null');
  const accessShared = lk('hw', 'analyse', 'S[(8,16):(16@tid,1@m)]', 'S[(8,16):(16,1)]', '--dtype', 'f32');
  // The page shows the access record; the CLI's is the same but for the
  // memory layout's text (the page builds the row-major tile itself).
  const sameRecord = (a, b) => JSON.stringify({...a, memory: null}) === JSON.stringify({...b, memory: null});
  check(shownAccess && accessShared.ok && sameRecord(shownAccess, accessShared.result),
  `access of a tid layout: ${JSON.stringify(shownAccess).slice(0, 200)} as 'layoutkit hw analyse'`);
  const sh = shownAccess && shownAccess.shared_memory, gl = shownAccess && shownAccess.global_memory;
  check(shownAccess && shownAccess.vector_bytes === 16 && sh.total === 8 && gl.sectors === 8 && gl.lines === 4,
    'access of a tid layout: 16 B, 8 wavefronts, 8 sectors in 4 lines (derived by hand)');
  await page.evaluate(() => document.getElementById('access').scrollIntoView());
  await page.screenshot({path: path.join(shots, 'access-tid.png')});
  await fill(page, '#layout', 'S[(8,16):(1@laneid,16@tid)]');
  check((await page.textContent('#access')).includes('names both laneid and tid'), 'access: laneid and tid together are refused with the reason');
  await select(page, '#dtype', 'f16');

  // A conversion through a swizzled staging buffer: the drawn grid is the
  // logical tile, each cell the bank `layoutkit tile banks` gives the
  // plan's memory layout (docs/cli.md's blocked transpose: Swizzle(M=4,
  // B=2,S=2) o S[(2,8,4,2,2):(64,1,16,128,8)]), written as tile layouts:
  // blocked([1,4],[8,4],[2,1], order [1,0]) puts (i, j) on warp i/8, lane
  // 4(i mod 8) + j/4, register j mod 4; blocked([4,1],[4,8],[1,2], order
  // [0,1]) on warp j/8, lane i/4 + 4(j mod 8), register i mod 4.
  {
    const src = 'S[(2,8,4,4):(1@warpid,4@laneid,1@laneid,1@m)]';
    const dst = 'S[(4,4,2,8):(1@laneid,1@m,1@warpid,4@laneid)]';
    await fill(page, '#shape', '(16,16)');
    await fill(page, '#layout', src);
    await click(page, 'button[data-view="plan"]');
    await fill(page, '#dst', dst);
    await click(page, '#planbtn');
    const want = lk('plan', src, dst, '--shape', '(16,16)', '--dtype', 'f16');
    const st = await page.evaluate(() => window.lkStaging());
    // The cells painted (div.grid's count) and in the SVG export.
    const cells = await page.evaluate(() => {
      const g = document.querySelector('#staging .grid');
      return g ? +g.dataset.painted : -1;
    });
    const exported = ((await page.evaluate(() => window.lkPanelSvg('staging'))).match(/\dz/g) || []).length; // a cell's path ends 'h-Nz'
    const stagingAxes = await page.evaluate(() => { const g = document.querySelector('#staging .grid'); return g && [g.dataset.xAxis, g.dataset.yAxis, g.parentElement.querySelector('.legend').dataset.name]; });
    check(JSON.stringify(stagingAxes) === JSON.stringify(['dim 1 (extent 16)', 'dim 0 (extent 16)', 'the bank of the element\'s address']),
      `staging buffer: axes and legend ${JSON.stringify(stagingAxes)}`);
    check(want.ok && st && st.layout === want.result.shared_memory.memory_layout_tile && cells === 256 && exported === 256,
      `staging buffer: ${cells} cells drawn (${exported} in the SVG export) for ${st && st.layout} (plan: ${want.ok && want.result.shared_memory.memory_layout_tile})`);
    const banks = st ? lk('tile', 'banks', st.layout, '(16,16)', '--dtype', 'f16') : {ok: false};
    const cliBank = new Map();
    if (banks.ok) banks.result.lines.forEach((line) => line.forEach((cell, b) => cell.forEach((e) => cliBank.set(e, b))));
    const probe = [0, 1, 17, 34, 100, 255];
    check(banks.ok && st && probe.every((f) => st.banks[f] === cliBank.get(f)),
      `staging buffer: banks of cells ${probe.join(',')} are ${st && probe.map((f) => st.banks[f]).join(',')} as 'layoutkit tile banks'`);
    // Hover and keyboard name the cell's bank.
    const at = await cellCentre(page, '#staging', 2 * 16 + 1);
    await page.mouse.move(at.x, at.y);
    const hover = await page.textContent('#staginghover');
    await page.focus('#staging');
    await page.keyboard.press('ArrowRight');
    const key = await page.textContent('#staginghover');
    check(st && hover === `(2,1) bank ${st.banks[33]}` && key === `(0,1) bank ${st.banks[1]}`,
      `staging buffer: hover "${hover}" and the keyboard cursor "${key}" name the bank`);
    check((await page.textContent('#stagingcap')).includes(`${want.ok && want.result.cost.wavefronts} wavefronts`),
      'staging buffer: the caption names the plan\'s wavefronts');
    await page.screenshot({path: path.join(shots, 'conversion-staging.png'), fullPage: true});
    await click(page, 'button[data-view="tile"]');
  }

  // The conversion view says which layout is at fault and plans again
  // when the Destination is edited (no click). The first preset's offset
  // 5@warpid has no linear form: the source is refused.
  {
    await select(page, '#preset', '');
    await fill(page, '#shape', '(8,16)');
    await fill(page, '#layout', 'S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid');
    await click(page, 'button[data-view="plan"]');
    await fill(page, '#dst', 'S[(2,8,4,2):(1,4@laneid,1@laneid,2)]');
    const srcDiag = await page.textContent('#plandiag');
    const cliSrc = lk('plan', 'S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid', 'S[(2,8,4,2):(1,4@laneid,1@laneid,2)]',
      '--shape', '(8,16)', '--dtype', 'f16');
    check(!cliSrc.ok && cliSrc.text.includes('argument SRC') && srcDiag.includes('not representable') && srcDiag.includes('(in the source layout, the tile view\'s Layout)'),
      `conversion: a refused source is named: ${srcDiag.split('\n')[0]}`);
    await click(page, 'button[data-view="tile"]');
    await fill(page, '#shape', '(16,8)');
    await fill(page, '#layout', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]');
    await click(page, 'button[data-view="plan"]');
    await fill(page, '#dst', 'S[(2,8,4,2):(1,4@laneid,1@laneid,2)');
    const dstDiag = await page.textContent('#plandiag');
    // The text lacks its closing ']': the caret goes after its last character.
    check(dstDiag.includes('(in the Destination, column 36)') && !dstDiag.includes('the b'),
      `conversion: a Destination edit plans again; its error names the field: ${dstDiag.split('\n')[0]}`);
    await fill(page, '#dst', '((4,8),(2,2)):((32,1),(16,8))');
    const want = lk('plan', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]', '((4,8),(2,2)):((32,1),(16,8))', '--shape', '(16,8)', '--dtype', 'f16');
    check(want.ok && (await page.textContent('#plandiag')) === '' && (await page.getAttribute('#planout', 'data-strategy')) === want.result.strategy,
      `conversion: the corrected Destination is planned without a click (${want.ok && want.result.strategy})`);
    await click(page, 'button[data-view="tile"]');
  }

  // A conversion plan, as `layoutkit plan`.
  await select(page, '#preset', '');
  await fill(page, '#shape', '(16,8)');
  await fill(page, '#layout', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]');
  await click(page, 'button[data-view="plan"]');
  for (const dst of ['((4,8),(2,2)):((32,1),(16,8))', 'S[(2,8,4,2):(1,4@laneid,1@laneid,2)]']) {
    await fill(page, '#dst', dst);
    await click(page, '#planbtn');
    const strategy = await page.getAttribute('#planout', 'data-strategy');
    const want = lk('plan', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]', dst, '--shape', '(16,8)', '--dtype', 'f16');
    check(want.ok && strategy === want.result.strategy, `plan to ${dst}: ${strategy} as 'layoutkit plan'`);
  }
  // A warp shuffle (the lane bits of the rows and columns exchanged): the
  // page steps through the plan record's rounds, one table row per lane,
  // and prints the record's cost.
  {
    const dst = 'S[(2,8,4,2):(2,1@laneid,8@laneid,1)]';
    await fill(page, '#dst', dst);
    await click(page, '#planbtn');
    const want = lk('plan', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]', dst, '--shape', '(16,8)', '--dtype', 'f16');
    const rounds = want.ok && want.result.shuffle ? want.result.shuffle.rounds : [];
    const label = await page.textContent('#roundlabel');
    const rows = await page.$$eval('#rounds tr', (r) => r.map((x) => [...x.cells].map((c) => c.textContent)));
    const r0 = rounds[0];
    check(rounds.length === 2 && label.includes(`round 1 of ${rounds.length}`) && rows.length === 33 &&
      rows[4].join('|') === `3|${r0.src_lane[3]}|${r0.send_registers[3].join(',')}|${r0.dst_registers[3].join(',')}` &&
      (await page.textContent('#planout')).includes(`${want.result.cost.shuffles} shuffles`),
    `plan rounds: "${label.trim()}", ${rows.length - 1} lanes, lane 3 ${JSON.stringify(rows[4])} as the plan record`);
  }
  await page.screenshot({path: path.join(shots, 'conversion.png')});

  // The operations and TV views draw.
  await click(page, 'button[data-view="ops"]');
  await select(page, '#op', 'logical_divide');
  await fill(page, '#opB', '2:1');
  check((await page.$$('#opout .grid')).length === 3, 'operations: inputs and result drawn side by side');
  await page.screenshot({path: path.join(shots, 'operations.png')});
  await click(page, 'button[data-view="tv"]');
  check((await page.$$('#tvout .grid')).length === 2, 'TV view: the TV table and the logical tile drawn');
  await page.screenshot({path: path.join(shots, 'tv.png')});

  // The shared URL restores the tabs and the view.
  await click(page, 'button[data-view="tile"]');
  await fill(page, '#layout', 'S[(2,8,4,2):(1,4@laneid,1@laneid,2)]');
  const url = await page.evaluate(() => location.href);
  const page2 = await ctx.newPage();
  page2.on('pageerror', (e) => errors.push(String(e)));
  await page2.goto(url);
  await waitReady(page2);
  const reloaded = [await page2.inputValue('#layout'), await page2.inputValue('#shape'), await page2.textContent('#diag')];
  check(JSON.stringify(reloaded) === JSON.stringify(['S[(2,8,4,2):(1,4@laneid,1@laneid,2)]', '(16,8)', 'ok']),
    `a shared URL reloads the same layout and shape (${reloaded.join(', ')})`);
  await page2.close();

  // Phone width.
  await page.setViewportSize({width: 390, height: 800});
  const overflow = await page.evaluate(() => [document.documentElement.scrollWidth,
    [...document.querySelectorAll('body *')].filter((e) => {
      const r = e.getBoundingClientRect();
      if (r.right <= 400 || r.width === 0) return false;
      for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return false;
      return true;
    }).slice(0, 3).map((e) => e.tagName + '#' + e.id + '.' + (e.getAttribute('class') || '')).join(' ')]);
  check(overflow[0] <= 400, `phone width: the page fits 390 px (scroll width ${overflow[0]}${overflow[1] ? ', wide: ' + overflow[1] : ''})`);
  await page.screenshot({path: path.join(shots, 'phone.png')});
  await page.setViewportSize({width: 1280, height: 800});

  // --- Issue 34, deliverable 4: speed. Edit to painted frame: from the
  // input event (a listener in the page) to the first frame after the
  // page's 'lk-drawn' event (sent once the picture's strips on the screen
  // are painted), the layout's picture (a task queued from that
  // frame's requestAnimationFrame runs once it is painted); also to the
  // frame after 'lk-analysed', the bank grid and access analysis below
  // the picture (reported, not asserted). Three 128x128 layouts:
  // a warp layout (warp w holds rows 32w..32w+31 in its registers), a
  // lane/register layout (warp, lane and register split the rows and
  // columns) and a column-major memory layout (one axis m, (i,j) at
  // i + 128j). Each edit alternates the text with a blank after the ':'
  // (the same layout, a new text), 200 ms apart (an edit after a quiet
  // spell asks the engine at once).
  const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const cores = os.cpus().length;
  const figures = {machine: {cores, loadavgBefore: loadavg()}, wasmBytes: wasmBytes, jsBytes: jsBytes, loadToInteractiveMs: +interactiveMs.toFixed(1), edits: []};
  await fill(page, '#shape', '(128,128)');
  const editLayouts = [['warp layout', 'S[(4,32,128):(1@warpid,128@m,1@m)]'], ['lane/register layout', 'S[(4,32,128):(1@warpid,1@laneid,1@m)]'],
    ['column-major memory layout', 'S[(128,128):(1,128)]']];
  for (const [name, text] of editLayouts) {
    const ms = [], all = [], laps = [];
    for (let k = 0; k < 10; ++k) {
      await page.waitForTimeout(200);
      await page.evaluate(() => {
        window.lkT0 = null; window.lkFrame = null; window.lkFrameAll = null;
        const frame = (key) => () => requestAnimationFrame(() => setTimeout(() => { window[key] = performance.now() - window.lkT0; }));
        document.getElementById('layout').addEventListener('input', () => { window.lkT0 = performance.now(); }, {once: true, capture: true});
        document.addEventListener('lk-drawn', frame('lkFrame'), {once: true});
        document.addEventListener('lk-analysed', frame('lkFrameAll'), {once: true});
      });
      await fill(page, '#layout', k % 2 ? text : text.replace(':', ': '));
      await page.waitForFunction(() => window.lkFrame !== null && window.lkFrameAll !== null, null, {timeout: 60000});
      ms.push(await page.evaluate(() => window.lkFrame));
      all.push(await page.evaluate(() => window.lkFrameAll));
      laps.push(await page.evaluate(() => window.lkLaps));
    }
    const median = (v) => { const s = [...v].sort((a, b) => a - b); return +((s[4] + s[5]) / 2).toFixed(1); };
    const mid = (key) => median(laps.map((l) => l[key]));
    const row = {name, text, medianMs: median(ms), samplesMs: ms.map((x) => +x.toFixed(1)), analysesMedianMs: median(all),
      medianLapsMs: {engine: mid('engine'), drawing: mid('draw'), analyses: mid('analyses'), analysesDrawing: mid('analysesDraw')},
      calls: laps[laps.length - 1].calls, analysisCalls: laps[laps.length - 1].analysisCalls};
    figures.edits.push(row);
    console.log(`edit to painted frame, ${name} ${text}: median ${row.medianMs} ms (${row.samplesMs.join(', ')}); ` +
      `laps (median): engine ${row.medianLapsMs.engine} ms, drawing ${row.medianLapsMs.drawing} ms; ` +
      `the bank grid and access analysis painted at ${row.analysesMedianMs} ms; load ${loadavg()} on ${cores} cores`);
  }
  figures.machine.loadavgAfter = loadavg();
  // The 50 ms target holds on a machine with a core to spare; a loaded one
  // (1-minute load above 0.75 per core) is measured and reported, and held
  // to 250 ms (the page took 100-590 ms before it painted incrementally).
  const load1 = +figures.machine.loadavgAfter.split(' ')[0];
  const target = load1 / cores <= 0.75 ? 50 : 250;
  figures.targetMs = target;
  figures.browser = await page.evaluate(() => (navigator.userAgent.match(/(?:Headless)?Chrome\/[\d.]+/) || ['Chromium'])[0]);
  for (const row of figures.edits)
    check(row.medianMs < target, `edit to painted frame of a 128x128 ${row.name}: median ${row.medianMs} ms < ${target} ms` +
      (target === 50 ? '' : ` (load ${load1} on ${cores} cores: the 50 ms target is reported, not asserted)`));
  check(interactiveMs < 1000, `page load to interactive (first picture painted, inputs wired): ${interactiveMs.toFixed(0)} ms < 1000 ms`);
  await page.screenshot({path: path.join(shots, 'tile-128x128.png')});

  // --- The engine runs in a worker; bounds; supersession (issue 34 item 1).
  check(await page.evaluate(() => typeof window.createLayoutKit === 'undefined' && typeof window.lkEngine.worker === 'object'),
    'engine: the wasm module is not on the page thread (a Worker runs it)');
  await page.evaluate(() => {
    window.lkLong = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.lkLong.push(e.duration); }).observe({entryTypes: ['longtask']});
  });
  await fill(page, '#shape', '(512,512)');
  // 2^18 elements x 4096 replicas: refused before any work (api::checkWork).
  await fill(page, '#layout', 'S[(512,512):(512,1)] + R[4096:1@warpid]');
  const bigDiag = await page.textContent('#diag');
  check(bigDiag.includes('elements x') && bigDiag.includes('exceed the limit'), `engine: a 512x512 x 4096-replica layout is refused: ${bigDiag.split('\n')[0]}`);
  check((await page.getAttribute('#status', 'data-state')) === 'stale' && (await page.evaluate(() => document.getElementById('view-tile').classList.contains('stale'))),
    'engine: after an error the old pictures are marked stale');
  // Typing into a 128x128 tile: each keystroke supersedes the last; the
  // page shows "computing" meanwhile and ends on the last text.
  await fill(page, '#shape', '(128,128)');
  await fill(page, '#layout', '');
  await page.type('#layout', 'S[(4,32,128):(1@warpid,1@laneid,1)]', {delay: 20});
  const midState = await page.getAttribute('#status', 'data-state');
  await settle(page);
  const lastMap = await page.evaluate(() => window.lkCurrent().map.text);
  check(midState === 'computing' && (await page.textContent('#diag')) === 'ok' && lastMap === 'S[(4,32,128):(1@warpid,1@laneid,1)]',
    `engine: typing shows "${midState}" and ends on the last text (${lastMap})`);
  const longest = await page.evaluate(() => Math.max(0, ...window.lkLong));
  check(longest < 100, `engine: the longest main-thread task while typing and refusing is ${longest.toFixed(0)} ms (< 100)`);
  // A superseded running request restarts the worker; the page still answers.
  await page.evaluate(() => { document.getElementById('layout').value = 'S[(128,128):(1@m,128@m)]'; document.getElementById('layout').dispatchEvent(new Event('input')); });
  await page.waitForTimeout(170);
  await fill(page, '#layout', 'S[(4,32,128):(1@warpid,1@laneid,2)]');
  check((await page.textContent('#diag')) === 'ok', 'engine: an edit during a computation draws the newer layout');
  // Big accepted layouts and the SVG export paint in chunks (issue 34,
  // deliverable 1: input is never blocked over 100 ms): the longest
  // main-thread task (Chromium's 'longtask' entries, those over 50 ms)
  // while 512x512 and 256x1024 tiles are drawn and the 256x1024 tile is
  // exported. Asserted under 100 ms on a machine with a core to spare
  // (1-minute load at most 0.75 per core), reported otherwise.
  {
    await page.evaluate(() => { window.lkLong = []; });
    const big = [['(512,512)', 'S[(512,512):(512,1)]'], ['(512,512)', 'S[(512,512):(1,512)]'], ['(256,1024)', 'S[(256,1024):(1024,1)]']];
    const perLayout = [];
    for (const [shape, text] of big) {
      await fill(page, '#shape', shape);
      await fill(page, '#layout', text);
      perLayout.push(`${shape} ${text}: ${(await page.textContent('#diag')) === 'ok' ? 'drawn' : 'refused'}, ` +
        `${await page.evaluate(() => document.querySelectorAll('#logical canvas').length)} strips`);
    }
    const tileLong = await page.evaluate(() => Math.max(0, ...window.lkLong));
    await page.evaluate(() => { window.lkLong = []; });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    await settle(page);
    const svgFile = await download.path();
    const svgHead = svgFile ? fs.readFileSync(svgFile, 'utf8').slice(0, 200) : '';
    const svgBytes = svgFile ? fs.statSync(svgFile).size : 0;
    const exportLong = await page.evaluate(() => Math.max(0, ...window.lkLong));
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0], perCore = +load / os.cpus().length;
    const longTarget = perCore <= 0.75 ? 100 : Infinity;
    // Entries are tasks of 50 ms and more: none is written "none >= 50 ms".
    const ms = (t) => (t ? `${t.toFixed(0)} ms` : 'none >= 50 ms');
    console.log(`big tiles: ${perLayout.join('; ')}; longest task ${ms(tileLong)}; Export SVG of the 256x1024 tile ` +
      `(${svgBytes} B): longest task ${ms(exportLong)}; load ${load} on ${os.cpus().length} cores`);
    figures.longTasks = {tiles: ms(tileLong), exportSvg: ms(exportLong), svgBytes, load};
    check(perLayout.every((l) => l.includes('drawn')) && tileLong < longTarget,
      `big tiles (512x512 twice, 256x1024): the longest main-thread task: ${ms(tileLong)}` +
      (longTarget === 100 ? ' (< 100)' : ` (load ${load}: reported, not asserted)`));
    check(svgHead.startsWith('<svg') && svgHead.includes('S[(256,1024):(1024,1)]') && exportLong < longTarget,
      `Export SVG of the 256x1024 tile: ${download.suggestedFilename()}, ${svgBytes} B; the longest task: ${ms(exportLong)}` +
      (longTarget === 100 ? ' (< 100)' : ` (load ${load}: reported, not asserted)`));
    await fill(page, '#shape', '(128,128)');
    await fill(page, '#layout', 'S[(4,32,128):(1@warpid,1@laneid,2)]');
  }
  // TV view: a shape too big is refused by the library; one too small too.
  await click(page, 'button[data-view="tv"]');
  await fill(page, '#tv', '((4,8),(2,2)):((32,1),(16,8))');
  await fill(page, '#tvshape', '(100000,100000)');
  const tvBig = await page.textContent('#tvdiag');
  check(tvBig.includes('100000 rows x 100000 columns = 10000000000 cells; the view draws at most 65536 cells'),
    `TV view: (100000,100000) refused in terms of its rows and columns: ${tvBig.split('\n')[0]}`);
  // (4,8),(2,2) with strides (32,1),(16,8) reaches index 3*32+7+16+8 = 127:
  // a (16,4) tile of 64 elements is too small.
  await fill(page, '#tvshape', '(16,4)');
  const tvSmall = await page.textContent('#tvdiag');
  check(tvSmall.includes('outside the shape\'s 64 elements'), `TV view: a too-small shape is refused: ${tvSmall.split('\n')[0]}`);
  await fill(page, '#tvshape', '(16,8)');
  check((await page.textContent('#tvdiag')) === '' && (await page.$$('#tvout .grid')).length === 2, 'TV view: (16,8) draws');
  await click(page, 'button[data-view="tile"]');

  // --- Item 2: CuTe text in CuTe's orientation. (4,8):(8,1) maps (r,c)
  // to 8r + c (hand derivation), so row 0 reads 0..7 as `layoutkit show`.
  await fill(page, '#shape', '(4,8)');
  await fill(page, '#layout', '(4,8):(8,1)');
  const cuteOffsets = await page.evaluate(() => { const m = window.lkCurrent().map; return [...m.coords]; });
  const wantOffsets = [...Array(32).keys()].map((f) => 8 * Math.floor(f / 8) + (f % 8));
  check(JSON.stringify(cuteOffsets) === JSON.stringify(wantOffsets), `cute orientation: (4,8):(8,1) row 0 reads ${cuteOffsets.slice(0, 8).join(' ')}`);
  await fill(page, '#layout', '(4,8):(1,4)');
  const colMajor = await page.evaluate(() => [...window.lkCurrent().map.coords].slice(0, 8));
  check(JSON.stringify(colMajor) === '[0,4,8,12,16,20,24,28]', `cute orientation: (4,8):(1,4) row 0 reads ${colMajor.join(' ')} (r + 4c)`);
  // A shape the layout does not admit is the shape field's fault, whatever
  // the grammar (a rank-1 cute layout over (8,4) of 32 elements, 64 here;
  // a nested shape), and the forms panel reads over the same shape.
  const shapeFaults = await page.evaluate(async () => [
    await window.lk('tileMap', '64:1', '(8,4)'), await window.lk('tileMap', '64:1', '((2,4),8)'),
    await window.lk('parse', '64:1', '((2,4),8)'), await window.lk('parse', '64:1', '(8,8)')]);
  check(!shapeFaults[0].ok && shapeFaults[0].field === 'shape' && shapeFaults[0].error.message.includes('not admitted') &&
    !shapeFaults[1].ok && shapeFaults[1].field === 'shape' && shapeFaults[1].error.message.includes('flat tuple') &&
    shapeFaults[2].ok && !shapeFaults[2].forms.tile.ok && shapeFaults[2].forms.tile.reason.includes('flat tuple') &&
    shapeFaults[3].ok && shapeFaults[3].forms.tile.text === 'S[(8,8):(1,8)]',
  `tile view: shape faults are the shape's, and the forms panel reads over the shape (${JSON.stringify(shapeFaults.map((r) => r.field || r.forms))})`);
  const cuteOwner = await page.evaluate(async () => window.lk('owners', '(4,8):(8,1)', '(4,8)', 9));
  check(cuteOwner.ok && cuteOwner.result.owners[0].at.m === 9, 'cute orientation: element (1,1) is at offset 9');
  // A TTGIR type gives the shape when the shape field is blank, as in the CLI.
  const typed = 'tensor<8x8xf16, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>';
  const typedOwner = await page.evaluate(async (t) => window.lk('owners', t, '', 9), typed);
  check(typedOwner.ok && JSON.stringify(typedOwner.result.shape) === '[8,8]' && JSON.stringify(typedOwner.result.coord) === '[1,1]',
    `TTGIR type: element 9 of a blank shape is (1,1) of the type's 8x8 (${JSON.stringify(typedOwner.ok && typedOwner.result.coord)})`);

  // --- Item 3: the coalesced verdict. Lane i holds row i of a row-major
  // (32,32) f32 tile: 16 B vectors, 8 instructions of 32 lanes at 128 B
  // apart: 32 sectors each (256) where 32 x 16 B fit 16 (128): not
  // coalesced. The CLI's sectors agree.
  await select(page, '#dtype', 'f32');
  await fill(page, '#shape', '(32,32)');
  await fill(page, '#layout', 'S[(32,32):(1@laneid,1@m)]');
  const acc = JSON.parse((await page.getAttribute('#access', 'data-result')) || 'null');
  const accCli = lk('hw', 'analyse', 'S[(32,32):(1@laneid,1@m)]', 'S[(32,32):(32,1)]', '--dtype', 'f32', '--global');
  const g1 = acc && acc.global_memory;
  check(acc && accCli.ok && g1.sectors === accCli.result.global_memory.sectors && g1.sectors === 256 && g1.minimum_sectors === 128 && !g1.coalesced &&
    (await page.textContent('#access')).includes('not coalesced: at best 128 sectors'), `access: 256 sectors, at best 128: not coalesced`);
  // Lane i holds column i: each register a 128 B row of 32 lanes: 4
  // sectors, the minimum: coalesced.
  await fill(page, '#layout', 'S[(32,32):(1@m,1@laneid)]');
  const acc2 = JSON.parse((await page.getAttribute('#access', 'data-result')) || 'null');
  const g2 = acc2 && acc2.global_memory;
  check(acc2 && g2.sectors === 128 && g2.minimum_sectors === 128 && g2.coalesced && (await page.textContent('#access')).includes('(coalesced)'),
    'access: 32 instructions x 4 sectors, the minimum: coalesced');
  await select(page, '#dtype', 'f16');

  // --- Item 4: an edit renames the tab and the preset menu.
  await select(page, '#preset', 'mma_m8n8_fragment');
  check((await page.textContent('#tabs button[aria-selected="true"]')) === 'mma_m8n8_fragment', 'preset: the tab is named after the preset');
  // White space alone does not make the layout another one.
  const presetText = await page.inputValue('#layout');
  await fill(page, '#layout', ' ' + presetText.replace(':', ': ') + ' ');
  check((await page.inputValue('#preset')) === 'mma_m8n8_fragment' && (await page.textContent('#tabs button[aria-selected="true"]')) === 'mma_m8n8_fragment',
    'preset: an edit of white space only keeps the preset\'s name');
  await fill(page, '#layout', 'S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]');
  check((await page.inputValue('#preset')) === '' && (await page.textContent('#tabs button[aria-selected="true"]')).startsWith('layout '),
    'preset: after an edit the menu reads (custom) and the tab is renamed');

  // --- Item 5: Triton layouts as TTGIR text and as parameters, through
  // the engine's reader; the plan's strategy is the CLI's.
  await fill(page, '#shape', '(16,8)');
  await fill(page, '#layout', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]');
  await click(page, 'button[data-view="plan"]');
  for (const dst of ['#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>',
    '{"kind":"blocked","sizePerThread":[1,2],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]}']) {
    await fill(page, '#dst', dst);
    await click(page, '#planbtn');
    const want = lk('plan', 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]', dst, '--shape', '(16,8)', '--dtype', 'f16');
    const diag = await page.textContent('#plandiag');
    check(want.ok && diag === '' && (await page.getAttribute('#planout', 'data-strategy')) === want.result.strategy,
      `Triton destination ${dst.slice(0, 14)}...: planned as 'layoutkit plan' (${diag.split('\n')[0] || want.result.strategy})`);
  }
  await click(page, 'button[data-view="tile"]');
  await fill(page, '#layout', '{"kind":"blocked","sizePerThread":[1,2],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]}');
  check((await page.textContent('#diag')) === 'ok' && (await page.textContent('#forms')).includes('linear'), 'Triton parameters in the layout field are read');
  await fill(page, '#layout', '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>');
  check((await page.textContent('#diag')) === 'ok', 'TTGIR text in the layout field is read');

  // Choosing an operation whose B kind the B in the field does not read
  // as puts a B of that kind (empty where B may be left out) and says so;
  // B's label names the kind; a diagnostic names the field "B".
  await click(page, 'button[data-view="ops"]');
  await fill(page, '#opA', '(4,4):(4,1)');
  await select(page, '#op', 'composition');
  await fill(page, '#opB', '(2,2):(2,1)');
  await select(page, '#op', 'coalesce');
  const coal = lk('coalesce', '(4,4):(4,1)');
  const coalState = [await page.inputValue('#opB'), await page.textContent('#opdiag'), await page.textContent('#opBname'), await page.textContent('#opnote')];
  check(coal.ok && coalState[0] === '' && coalState[1] === '' && coalState[2] === 'B (int tuple, optional: empty leaves it out)' &&
    coalState[3].includes('"(2,2):(2,1)"') && (await page.textContent('#opout')).includes(`coalesce: ${coal.result.layout}`),
  `operations: coalesce after composition empties B and answers ${coal.ok && coal.result.layout} as the CLI (${JSON.stringify(coalState)})`);
  await select(page, '#op', 'composition');
  const compState = [await page.inputValue('#opB'), await page.textContent('#opdiag'), await page.textContent('#opBname')];
  check(JSON.stringify(compState) === JSON.stringify(['(2,2):(2,1)', '', 'B (tiler)']) && (await page.$$('#opout .grid')).length === 3,
    `operations: composition after coalesce puts a tiler B back (${JSON.stringify(compState)})`);
  await select(page, '#op', 'logical_divide');
  check((await page.inputValue('#opB')) === '(2,2):(2,1)' && (await page.textContent('#opnote')) === '', 'operations: a B that fits the new operation is kept');
  await fill(page, '#opB', '(2,2):');
  const bDiag = await page.textContent('#opdiag');
  check(bDiag.includes('(in the B, column') && !bDiag.includes('the b,'), `operations: a bad B is named as labelled: ${bDiag.split('\n')[0]}`);

  // --- Item 7: complement with an integer cotarget, as the CLI. A covers
  // 0..15, so its complement in 32 is 2:16.
  await click(page, 'button[data-view="ops"]');
  await fill(page, '#opA', '(4,4):(4,1)');
  await select(page, '#op', 'complement');
  await fill(page, '#opB', '32');
  const comp = lk('complement', '(4,4):(4,1)', '32');
  const compShown = await page.textContent('#opout');
  check(comp.ok && comp.result.layout === '2:16' && (await page.textContent('#opdiag')) === '' && compShown.includes('complement: 2:16'),
    `operations: complement with B = 32 gives ${comp.ok && comp.result.layout} as the CLI`);
  // The menu is the library's registry (api/CuteOps.h): every operation of
  // a layout A and one B whose answer is a layout, the CLI's subcommands of
  // the same names. flat_divide was not in the page's own list before.
  const menu = await page.$$eval('#op option', (os) => os.map((o) => o.textContent));
  const want = ['coalesce', 'filter', 'composition', 'complement', 'max_common_layout',
    'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_product',
    'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'];
  check(JSON.stringify(menu) === JSON.stringify(want), `operations menu from the registry: ${menu.join(' ')}`);
  await select(page, '#op', 'flat_divide');
  await fill(page, '#opA', '(8,8):(1,8)');
  await fill(page, '#opB', '(2:1,4:1)');
  const flatDiv = lk('flat_divide', '(8,8):(1,8)', '(2:1,4:1)');
  check(flatDiv.ok && (await page.textContent('#opout')).includes(`flat_divide: ${flatDiv.result.layout}`),
    `operations: flat_divide gives ${flatDiv.ok && flatDiv.result.layout} as the CLI`);
  // A rank-4 result is drawn in 2-D: mode 0 down, modes 1..3 across,
  // colexicographic. (2,4,4,2):(1,8,2,32): column c = c1 + 4 c2 + 16 c3
  // holds r + 8 c1 + 2 c2 + 32 c3 (hand derivation): (1,5) = 1 + 8 + 2 = 11,
  // (0,31) = 24 + 6 + 32 = 62.
  const flatFig = await page.evaluate(() => {
    const f = [...document.querySelectorAll('#opout figure')].pop(), g = f.querySelector('.grid');
    return g ? {rows: +g.dataset.rows, cols: +g.dataset.cols, x: g.dataset.xAxis, caption: f.querySelector('figcaption').textContent} : {caption: f.textContent};
  });
  const flatCells = await page.evaluate(async () => (await window.lk('algebra', 'flat_divide', '(8,8):(1,8)', '(2:1,4:1)')).result);
  check(flatDiv.ok && flatDiv.result.layout === '(2,4,4,2):(1,8,2,32)' && flatFig.rows === 2 && flatFig.cols === 32 &&
    flatFig.x === 'modes 1..3 grouped across (mode 1 fastest)' && flatFig.caption.includes('drawn with modes 1..3') &&
    flatCells.cells[1 * 32 + 5] === 11 && flatCells.cells[31] === 62,
  `operations: the rank-4 flat_divide result is drawn 2 x 32 (${JSON.stringify(flatFig)})`);
  await click(page, 'button[data-view="tile"]');

  // The engine's reduce and gather give the records of `layoutkit paper
  // reduce` and `layoutkit gather` (the same values, not only the keys);
  // an axis is an integer checked as such: 2^32 is refused by the planner
  // (not read as 0), 2^60 and 1.5 before it.
  {
    const row8 = '{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]} -> {dim0: 8, dim1: 8}';
    const red = await page.evaluate(async (l) => window.lk('reduce', l, 0, '', 'f32', true), row8);
    const gat = await page.evaluate(async (l) => window.lk('gather', l, l, 1, '', 'f32'), row8);
    const wantRed = lk('paper', 'reduce', row8, '--axis', '0');
    const wantGat = lk('gather', row8, row8, '--axis', '1', '--dtype', 'f32');
    check(red.ok && wantRed.ok && JSON.stringify(red.reduction) === JSON.stringify(wantRed.result) &&
      gat.ok && wantGat.ok && JSON.stringify(gat.gather) === JSON.stringify(wantGat.result),
    `reduce and gather: the engine's records are the CLI's (${red.ok && red.reduction.description}; ${gat.ok && gat.gather.description})`);
    const bad = await page.evaluate(async (l) => Promise.all([2 ** 32, 2 ** 60, 1.5].map((a) => window.lk('reduce', l, a, '', 'f32', true))), row8);
    check(!bad[0].ok && bad[0].error.message.includes('axis 4294967296: expected 0 to 1') &&
      !bad[1].ok && bad[1].field === 'axis' && bad[1].error.message.includes('below 2^53') && !bad[2].ok && bad[2].field === 'axis',
    `reduce: axes 2^32, 2^60 and 1.5 are refused (${bad.map((b) => b.ok ? 'ok' : b.error.message).join('; ')})`);
    // Not a number or not a boolean: refused, not read as 0 or false.
    const odd = await page.evaluate(async (l) => Promise.all([['', true], [0, ''], [0, 1]].map(([a, e]) => window.lk('reduce', l, a, '', 'f32', e))), row8);
    check(!odd[0].ok && odd[0].field === 'axis' && odd[0].error.message.includes('got a JS string') &&
      !odd[1].ok && odd[1].field === 'eliminate_duplicates' && !odd[2].ok && odd[2].error.message.includes('got a JS number'),
    `reduce: '' as the axis, '' and 1 as the flag are refused (${odd.map((b) => b.ok ? 'ok' : b.error.message).join('; ')})`);
    // TTGIR tensor types give the shape: plan takes a blank one, as the CLI.
    const tt = 'tensor<16x16xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>';
    const tp = await page.evaluate(async (t) => window.lk('plan', t, t, '', 'f16', ''), tt);
    const wantTp = lk('plan', tt, tt, '--dtype', 'f16');
    check(tp.ok && wantTp.ok && tp.plan.strategy === wantTp.result.strategy && JSON.stringify(tp.plan.cost) === JSON.stringify(wantTp.result.cost),
      `plan: TTGIR tensor types on both sides with a blank shape, as the CLI (${tp.ok ? tp.plan.strategy : tp.error.message})`);
  }

  // --- Issue 34, deliverable 3: explanations.
  // (a) A CuTe text's derivation is that of its tile form over the shape,
  // S[(4,8):(8,1)]: (1,2) is x = 8*1 + 2 = 10, and L = 8*1 + 2 = 10 (hand
  // derivation).
  await fill(page, '#shape', '(4,8)');
  await fill(page, '#layout', '(4,8):(8,1)');
  await page.mouse.click(...Object.values(await cellCentre(page, '#logical', 10)));
  await settle(page);
  const cuteSteps = await checkSteps(page, '(4,8):(8,1)', '(4,8)', 10, 'cute (4,8):(8,1)');
  check(cuteSteps.x === '10' && cuteSteps.text.trimEnd().endsWith('m=10') && cuteSteps.text.startsWith('L(x) for (1,2) of shape (4,8), x = 10'),
    `cute (4,8):(8,1): element (1,2) is x = ${cuteSteps.x}, at m=10`);
  // Without a shape the derivation names the layout's own.
  await fill(page, '#shape', '');
  await page.mouse.click(...Object.values(await cellCentre(page, '#logical', 10)));
  await settle(page);
  const ownShape = (await page.textContent('#steps')).split('\n')[0];
  check(ownShape.startsWith('L(x) for (1,2) of shape (4,8), the layout\'s own, x = 10'), `without a shape the derivation says which: ${ownShape}`);
  // A physical cell no element reaches: S[(4,4):(2@laneid,1@m)] holds
  // lanes 0, 2, 4, 6 only; cell 1 is laneid 1, m 0.
  await fill(page, '#shape', '(4,4)');
  await fill(page, '#layout', 'S[(4,4):(2@laneid,1@m)]');
  await page.focus('#physical');
  for (const k of ['ArrowRight', 'Enter']) await page.keyboard.press(k);
  await settle(page);
  check((await page.textContent('#info')) === 'laneid=1,m=0 holds no element', `an empty physical cell: "${await page.textContent('#info')}"`);
  await fill(page, '#shape', '(4,8)');
  // A swizzled layout's derivation ends with the swizzle step.
  await fill(page, '#shape', '(8,64)');
  await fill(page, '#layout', 'Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]');
  await page.focus('#logical');
  for (const k of ['ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'Enter']) await page.keyboard.press(k);
  await settle(page);
  const sw = await checkSteps(page, 'Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]', '(8,64)', 67, 'swizzled (8,64), element (1,3) chosen with the keyboard');
  // (1,3): m = 64 + 3 = 67 = 0b1000011; the swizzle XORs bits 3..5 with
  // bits 6..8: 67 ^ (1 << 3) = 75.
  check(sw.x === '67' && sw.text.includes('swizzle Swizzle(M=3,B=3,S=3): m 67 -> 75'), 'swizzled (8,64): (1,3) goes from m 67 to 75 (hand derivation)');

  // (b) Bank words hold 4 / dtype-bytes elements, drawn side by side; the
  // cursor names them. Row-major (8,64): element (0,j) is at byte
  // j * bytes, so bank 1 is bytes 4..7: f16 (0,2) (0,3); f8 (0,4)..(0,7);
  // f32 (0,1).
  await select(page, '#preset', 'smem_row_major_8x64');
  for (const [dtype, parts, word] of [['f16', 2, '(0,2) (0,3)'], ['f8e4m3', 4, '(0,4) (0,5) (0,6) (0,7)'], ['f32', 1, '(0,1)']]) {
    await select(page, '#dtype', dtype);
    await page.focus('#banks');
    await page.keyboard.press('ArrowRight');
    const hover = await page.textContent('#bankhover');
    const drawnParts = +(await page.getAttribute('#banks .grid', 'data-parts'));
    const bankAxes = await page.evaluate(() => { const g = document.querySelector('#banks .grid'); return [g.dataset.xAxis, g.dataset.yAxis, g.parentElement.querySelector('.legend').dataset.name]; });
    const cliCell = lk('tile', 'banks', 'S[(8,64):(64,1)]', '(8,64)', '--dtype', dtype);
    const cliWord = cliCell.ok ? cliCell.result.lines[0][1].map((e) => `(${(e / 64) | 0},${e % 64})`).join(' ') : '?';
    check(drawnParts === parts && hover === `line 0, bank 1: ${word}` && cliWord === word && (await page.evaluate(() => document.activeElement.id)) === 'banks',
      `banks ${dtype}: ${parts} element(s) per word side by side; the focused grid's cursor names "${hover}" ('layoutkit tile banks': ${cliWord})`);
    check(bankAxes[0] === 'bank (4-byte word)' && bankAxes[1] === 'line (128 B)' && bankAxes[2].includes(`${parts} element${parts > 1 ? 's' : ''} per word`),
      `banks ${dtype}: axes and legend ${JSON.stringify(bankAxes)}`);
    await page.screenshot({path: path.join(shots, `banks-words-${dtype}.png`)});
  }
  await select(page, '#dtype', 'f16');

  // (c) Every panel names its axes and has a colour legend. The mma
  // fragment coloured by laneid: 32 values (lanes 0..31); its physical
  // panel runs laneid across, m down.
  await select(page, '#preset', 'mma_m8n8_fragment');
  await select(page, '#colour', 'laneid');
  const panels = async () => page.evaluate(() => [...document.querySelectorAll('.view:not([hidden]) .grid')].map((g) => {
    const legend = g.parentElement.querySelector('.legend');
    return {panel: g.closest('.panel, figure').id || g.closest('figure').querySelector('figcaption').textContent.split(':')[0],
      x: g.dataset.xAxis, y: g.dataset.yAxis, legend: legend && legend.dataset.name, values: legend && legend.dataset.values};
  }));
  const tilePanels = await panels();
  const byId = Object.fromEntries(tilePanels.map((p) => [p.panel, p]));
  check(tilePanels.length === 2 && tilePanels.every((p) => p.x && p.y && p.legend) &&
    byId.logical.legend === 'laneid' && byId.logical.values === '32' && byId.logical.x === 'dim 1 (extent 8)' && byId.logical.y === 'dim 0 (extent 8)' &&
    byId.physical.x === 'laneid' && byId.physical.y === 'm' && byId.physical.values === '32',
  `tile view: ${tilePanels.map((p) => `${p.panel} (x ${p.x}, y ${p.y}, colour ${p.legend}, ${p.values} values)`).join('; ')}`);
  const svgText = await page.evaluate(() => window.lkPanelSvg('logical'));
  check(svgText.includes('x → dim 1') && svgText.includes('colour: laneid'), 'the SVG export carries the axis names and the legend');
  // (The staging buffer's axes and legend are checked with the conversion.)
  for (const view of ['ops', 'tv']) {
    await click(page, `button[data-view="${view}"]`);
    if (view === 'ops') { await select(page, '#op', 'composition'); await fill(page, '#opB', '(2,2):(2,1)'); }
    const ps = await panels();
    check(ps.length === (view === 'ops' ? 3 : 2) && ps.every((p) => p.x && p.y && p.legend),
      `${view} view: ${ps.length ? ps.map((p) => `${p.panel} (x ${p.x}, y ${p.y}, colour ${p.legend})`).join('; ') : 'no grid'}`);
  }

  // (d) The view tabs follow the ARIA tabs pattern: arrow keys move and
  // select (wrapping), Home / End go to the ends, only the selected tab is
  // in the Tab order.
  await click(page, 'button[data-view="tile"]');
  await page.focus('#tab-tile');
  const tabState = () => page.evaluate(() => ({focus: document.activeElement.dataset.view,
    selected: document.querySelector('.viewtabs [aria-selected="true"]').dataset.view,
    visible: [...document.querySelectorAll('.view')].filter((v) => !v.hidden).map((v) => v.id).join(),
    tabbable: [...document.querySelectorAll('.viewtabs [role="tab"]')].filter((b) => b.tabIndex === 0).map((b) => b.dataset.view).join()}));
  const seq = [];
  for (const k of ['ArrowRight', 'ArrowRight', 'End', 'ArrowRight', 'ArrowLeft', 'Home']) {
    await page.keyboard.press(k);
    await settle(page);
    seq.push(await tabState());
  }
  const wantSeq = ['ops', 'tv', 'plan', 'tile', 'plan', 'tile'];
  check(seq.every((s, k) => s.focus === wantSeq[k] && s.selected === wantSeq[k] && s.visible === 'view-' + wantSeq[k] && s.tabbable === wantSeq[k]),
    `view tabs: Right, Right, End, Right, Left, Home select ${seq.map((s) => s.selected).join(' ')} (want ${wantSeq.join(' ')})`);
  check(await page.evaluate(() => ['logical', 'physical', 'banks', 'staging'].every((id) => document.getElementById(id).tabIndex === 0)),
    'the logical, physical, banks and staging panels take focus');
  // The layout tabs too: a second tab ('+'), then Left / Right between them.
  await click(page, '#tabs [data-tab="new"]');
  await page.focus('#tabs [data-tab="1"]');
  const layoutTabs = [];
  for (const k of ['ArrowLeft', 'ArrowRight', 'Home']) {
    await page.keyboard.press(k);
    await settle(page);
    layoutTabs.push(await page.evaluate(() => [document.activeElement.dataset.tab, document.querySelector('#tabs [aria-selected="true"]').dataset.tab].join('/')));
  }
  check(layoutTabs.join(' ') === '0/0 1/1 0/0', `layout tabs: Left, Right, Home focus and select tabs ${layoutTabs.join(' ')} (focused/selected)`);

  // --- Item 6: a crafted URL state falls back visibly.
  {
    const crafted = {tabs: [{text: 'S[(8,4,2):(4@laneid,1@laneid,1)]', shape: '(8,8)', dtype: 'q7', colour: 'zzz'}], view: 'nope'};
    const page3 = await ctx.newPage();
    page3.on('pageerror', (e) => errors.push(String(e)));
    await page3.goto(server.url + '#' + encodeURIComponent(JSON.stringify(crafted)));
    await waitReady(page3);
    const notice = await page3.textContent('#notice');
    check(!(await page3.getAttribute('#notice', 'hidden') !== null) && notice.includes('"nope"') && notice.includes('"q7"') &&
      notice.includes('colour "zzz" is not one of') &&
      (await page3.inputValue('#dtype')) === 'f16' && (await page3.isVisible('#view-tile')) && (await page3.textContent('#diag')) === 'ok',
    `crafted URL: the notice names the bad view, dtype and colour, the tile view draws (${notice.split('\n').slice(1).join('; ')})`);
    await page3.goto('about:blank'); // a hash change alone does not reload
    await page3.goto(server.url + '#' + encodeURIComponent('{"tabs": 5}'));
    await waitReady(page3);
    check((await page3.textContent('#notice')).includes('does not hold a page state') && (await page3.textContent('#diag')) === 'ok',
      'crafted URL: a state without tabs falls back to the first preset, with a notice');
    await page3.close();
  }

  check(errors.length === 0, 'no console errors during the run' + (errors.length ? ': ' + errors.join(' | ') : ''));
  figures.testSeconds = Math.round((Date.now() - started) / 1000);
  figures.checks = {passed: passed, failed: failures};
  fs.writeFileSync(path.join(shots, 'figures.json'), JSON.stringify(figures, null, 1) + '\n');
  if (process.env.LK_DEMO_DOC) writeDocFigures(process.env.LK_DEMO_DOC, figures);
  await ctx.close();
  server.proc.kill();
  fs.rmSync(dir, {recursive: true, force: true});
  console.log(failures ? `${failures} checks failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
