// A flame graph on one canvas: flat typed arrays, one draw per animation frame, hit-testing by
// row and binary search on x. No DOM node per frame, so 100,000 nodes stay interactive.
'use strict';

const ROW = 18;
const PALETTE = ['#f2a65a', '#e5735c', '#6fb1d9', '#8fc97a', '#c49ad8', '#e7c65b', '#5fc2b8',
  '#e58fb0', '#a3b5e0', '#d8a27a', '#9ccfa0', '#d4b4e8'];

/** Short and package names of a signature such as com.shop.Cart.total(I)J. */
function splitName(sig) {
  const paren = sig.indexOf('(');
  const name = paren < 0 ? sig : sig.substring(0, paren);
  const dot = name.lastIndexOf('.');
  const cls = dot < 0 ? '' : name.substring(0, dot);
  const pkgDot = cls.lastIndexOf('.');
  const simple = (pkgDot < 0 ? cls : cls.substring(pkgDot + 1)) + (dot < 0 ? name : name.substring(dot));
  return { name, cls, pkg: pkgDot < 0 ? '' : cls.substring(0, pkgDot), simple };
}

function hashString(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return h >>> 0;
}

function packageColour(pkg) {
  return PALETTE[hashString(pkg) % PALETTE.length];
}

/**
 * The nested nodes of the tree endpoint's JSON form ({method, line, self, total, id, children},
 * with a migration also migratedTotal) as
 * the columns of its compact form ({@code format=columns}): depth first, children by method then
 * line. Iterative: deep recursion is common in profiles.
 */
function toColumns(root) {
  const methods = [], index = new Map(), nodes = [];
  const stack = [[root, -1]];
  while (stack.length) {
    const [node, parent] = stack.pop();
    const i = nodes.length;
    nodes.push([node, parent]);
    if (!index.has(node.method)) { index.set(node.method, methods.length); methods.push(node.method); }
    const kids = (node.children || []).slice().sort((a, b) =>
      a.method < b.method ? -1 : a.method > b.method ? 1 : a.line - b.line);
    for (let j = kids.length - 1; j >= 0; j--) stack.push([kids[j], i]);
  }
  return {
    methods, parent: nodes.map(n => n[1]), method: nodes.map(n => index.get(n[0].method)),
    line: nodes.map(n => n[0].line || 0), self: nodes.map(n => n[0].self), total: nodes.map(n => n[0].total),
    id: nodes.map(n => n[0].id),
    // with a migration (migrate=...), how much of each node's total came from the previous deployment
    migrated: root.migratedTotal === undefined ? null : nodes.map(n => n[0].migratedTotal || 0),
  };
}

/** Flattens nested nodes (the tree endpoint's JSON form, or a tree built by a view). */
function flatten(root) {
  return fromColumns(toColumns(root));
}

/**
 * The drawing arrays of a tree in columns (drawing order: depth first, children by method then
 * line, as {@code format=columns} sends them): x and width in samples, depth, rows of nodes by x,
 * recursion marks, and which subtrees are complete (no child pruned by the server anywhere below).
 * Migrated counts ({@code migrated}: the part of each total from the previous deployment) when
 * the tree was asked for with a migration. Node ids: the columns' own {@code id} (a tree built by
 * a view), else derived on demand from {@code startId} and {@code methodIds} ({@link idOf}); null
 * in a merged view.
 */
function fromColumns(c) {
  const n = c.parent.length;
  const f = {
    n, names: c.methods, depth: new Int32Array(n), x: new Float64Array(n), w: Float64Array.from(c.total),
    self: Float64Array.from(c.self), parent: Int32Array.from(c.parent), name: Int32Array.from(c.method),
    line: Int32Array.from(c.line), rec: new Uint8Array(n), ids: c.id || null, maxDepth: 0, rows: [],
    complete: new Uint8Array(n).fill(1),
    startId: c.startId === undefined ? null : c.startId, methodIds: c.methodIds || null, derived: null,
    migrated: c.migrated ? Float64Array.from(c.migrated) : null,
  };
  f.hasIds = f.ids ? n > 0 && f.ids[0] !== null && f.ids[0] !== undefined : f.startId !== null;
  const childTotal = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const p = f.parent[i];
    const d = f.depth[i] = f.depth[p] + 1;
    if (d > f.maxDepth) f.maxDepth = d;
    f.x[i] = f.x[p] + childTotal[p]; // children from the left; self samples leave a gap on the right
    childTotal[p] += f.w[i];
  }
  // drawing order is depth first: the subtree of i is [i, end[i]), so a frame too narrow to draw
  // skips its whole subtree at once
  f.end = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) { // children after parents: a pruned gap marks every ancestor
    if (f.w[i] - f.self[i] - childTotal[i] > 0) f.complete[i] = 0;
    f.end[i] += i + 1;
    if (i > 0) {
      if (!f.complete[i]) f.complete[f.parent[i]] = 0;
      f.end[f.parent[i]] += f.end[i] - i;
    }
  }
  // recursive: an ancestor has the same method (counts of each method on the current path)
  const onPath = new Int32Array(f.names.length);
  const path = [];
  for (let i = 0; i < n; i++) {
    while (path.length > f.depth[i]) onPath[f.name[path.pop()]]--;
    if (i > 0 && onPath[f.name[i]] > 0) f.rec[i] = 1;
    path.push(i);
    onPath[f.name[i]]++;
  }
  const counts = new Int32Array(f.maxDepth + 1);
  for (let i = 0; i < n; i++) counts[f.depth[i]]++;
  for (let d = 0; d <= f.maxDepth; d++) f.rows.push(new Int32Array(counts[d]));
  counts.fill(0);
  for (let i = 0; i < n; i++) { const d = f.depth[i]; f.rows[d][counts[d]++] = i; }
  f.info = f.names.map(splitName);
  f.colours = f.info.map(s => packageColour(s.pkg));
  return f;
}

const U64 = (1n << 64n) - 1n;
const ROOT_ID = 0x63637466_6c6f7700n;

/** MurmurHash3's 64-bit finaliser on an unsigned 64-bit BigInt (cct-core's Hashing.fmix64). */
function fmix64(k) {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & U64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & U64;
  return k ^ (k >> 33n);
}

/** cct-core's NodeId.child: the id of the child of a node that calls a method from a line (unsigned BigInts). */
function childId(parent, method, line) {
  let h = fmix64((parent * 0x9e3779b97f4a7c15n + method) & U64);
  h = fmix64(h ^ ((BigInt(line) * 0xc2b2ae3d27d4eb4fn + 0x165667b19e3779f9n) & U64));
  return h === ROOT_ID ? ROOT_ID + 1n : h;
}

/**
 * The id of node i as the API writes ids (a signed 64-bit decimal string), or null in a merged
 * view. Derived ids are computed down the node's path from the nearest one known and kept, so a
 * click costs its depth, not the tree.
 */
function idOf(f, i) {
  if (f.ids) return f.ids[i];
  if (f.startId === null) return null;
  if (!f.derived) {
    f.derived = { ids: new Map([[0, BigInt.asUintN(64, BigInt(f.startId))]]), byId: new Map([[f.startId, 0]]),
      methods: f.methodIds.map(m => BigInt.asUintN(64, BigInt(m))) };
  }
  const D = f.derived;
  const path = [];
  let n = i;
  while (!D.ids.has(n)) { path.push(n); n = f.parent[n]; }
  let id = D.ids.get(n);
  for (let k = path.length - 1; k >= 0; k--) {
    const m = path[k];
    id = childId(id, D.methods[f.name[m]], f.line[m]);
    D.ids.set(m, id);
    D.byId.set(BigInt.asIntN(64, id).toString(), m);
  }
  return BigInt.asIntN(64, id).toString();
}

/**
 * The index of the node with this id, or -1. With derived ids only the nodes whose ids were asked
 * for ({@link idOf}: the start, clicked frames and their paths) are found; -1 otherwise, and the
 * caller re-queries the node.
 */
function indexOfId(f, id) {
  if (f.ids) {
    for (let i = 0; i < f.n; i++) if (f.ids[i] === id) return i;
    return -1;
  }
  if (f.startId === null) return -1;
  idOf(f, 0);
  const i = f.derived.byId.get(id);
  return i === undefined ? -1 : i;
}

class FlameGraph {
  constructor(canvas, options) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.opts = options || {};
    this.flat = null;
    this.focus = 0;
    this.flame = false;
    this.highlight = null;
    this.colourOf = null; // optional per-node colour function (diff view)
    this.marks = null; // optional per-node label (PARCS stages)
    this.hover = -1;
    this.pending = 0; // the animation frame requested to draw, if any
    this.inFrame = false; // draw() runs in an animation frame callback
    canvas.addEventListener('mousemove', e => this.onMove(e));
    canvas.addEventListener('mouseleave', () => { this.hover = -1; this.opts.onHover && this.opts.onHover(-1, null); this.schedule(); });
    canvas.addEventListener('click', e => {
      const i = this.hit(e);
      if (i >= 0 && this.opts.onClick) this.opts.onClick(i);
    });
    window.addEventListener('resize', () => this.schedule());
  }

  setData(flat) { this.flat = flat; this.focus = 0; this.hover = -1; this.schedule(); }
  setFocus(i) { this.focus = i; this.schedule(); }
  setFlame(on) { this.flame = on; this.schedule(); }
  setHighlight(mask) { this.highlight = mask; this.schedule(); }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.inFrame = true; this.draw(); this.inFrame = false; });
  }

  /**
   * Draws now, not in the next animation frame (a scheduled draw is dropped), so the task that
   * brought the data ends with the canvas drawn; resolves once that frame is on screen.
   */
  drawNow() {
    if (this.pending) { cancelAnimationFrame(this.pending); this.pending = 0; }
    this.draw();
    return new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }

  layout() {
    const f = this.flat;
    const width = this.canvas.parentElement.clientWidth || 800;
    const base = f.depth[this.focus];
    const rows = f.maxDepth - base + 1;
    return { width, base, rows, height: Math.max(rows, 1) * ROW, x0: f.x[this.focus], scale: width / Math.max(f.w[this.focus], 1e-9) };
  }

  rowY(L, depth) {
    const r = depth - L.base;
    return this.flame ? L.height - (r + 1) * ROW : r * ROW;
  }

  draw() {
    const f = this.flat;
    if (!f) return;
    const started = performance.now();
    const L = this.layout();
    const dpr = window.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.width !== Math.round(L.width * dpr) || c.height !== Math.round(L.height * dpr)) {
      c.width = Math.round(L.width * dpr); c.height = Math.round(L.height * dpr);
      c.style.width = L.width + 'px'; c.style.height = L.height + 'px';
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, L.width, L.height);
    ctx.font = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
    ctx.textBaseline = 'middle';
    const hl = this.highlight;
    // the visible frames (1 px or wider) of the focused subtree, depth first: a frame narrower
    // than 1 px skips its subtree (its frames are no wider), so the walk costs the frames drawn,
    // not the tree. Drawn in batches, one path per colour, so the canvas parses each colour once
    const batches = new Map(); // colour, dimmed -> [x, y, w, ...]
    const notches = [], labels = [], marked = [], hatched = [];
    const migrated = f.migrated;
    const colourOf = this.colourOf;
    for (let i = this.focus, stop = f.end[this.focus]; i < stop;) {
      const pw = f.w[i] * L.scale;
      if (pw < 1) { i = f.end[i]; continue; }
      const px = (f.x[i] - L.x0) * L.scale;
      const y = this.rowY(L, f.depth[i]);
      const key = (colourOf ? colourOf(i) : f.colours[f.name[i]]) + (hl && !hl[i] ? '|dim' : '');
      let batch = batches.get(key);
      if (!batch) batches.set(key, batch = []);
      batch.push(px, y, Math.max(pw - 0.5, 1));
      if (f.rec[i] && pw > 4) notches.push(px, y); // recursive frame: a dark notch on the left
      if (this.marks && this.marks[i] && pw > 6) marked.push(px, y, pw);
      if (migrated && migrated[i] > 0) hatched.push(px, y, Math.max(pw - 0.5, 1));
      if (pw > 28) labels.push(i, px, y, pw);
      i++;
    }
    for (const [key, rects] of batches) {
      const bar = key.indexOf('|');
      ctx.globalAlpha = bar < 0 ? 1 : 0.28;
      ctx.fillStyle = bar < 0 ? key : key.substring(0, bar);
      ctx.beginPath();
      for (let r = 0; r < rects.length; r += 3) ctx.rect(rects[r], rects[r + 1], rects[r + 2], ROW - 1);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    if (hatched.length) { // frames with migrated samples: lighter, with white diagonal stripes
      ctx.fillStyle = hatchPattern(ctx);
      ctx.beginPath();
      for (let r = 0; r < hatched.length; r += 3) ctx.rect(hatched[r], hatched[r + 1], hatched[r + 2], ROW - 1);
      ctx.fill();
    }
    ctx.fillStyle = 'rgba(40,30,60,0.55)';
    ctx.beginPath();
    for (let r = 0; r < notches.length; r += 2) ctx.rect(notches[r], notches[r + 1], 3, ROW - 1);
    ctx.fill();
    ctx.strokeStyle = '#222'; ctx.lineWidth = 1.5;
    for (let r = 0; r < marked.length; r += 3) ctx.strokeRect(marked[r] + 0.75, marked[r + 1] + 0.75, marked[r + 2] - 2, ROW - 2.5);
    ctx.fillStyle = '#1b1b1f';
    for (let r = 0; r < labels.length; r += 4) {
      const i = labels[r], px = labels[r + 1], y = labels[r + 2], pw = labels[r + 3];
      ctx.globalAlpha = hl && !hl[i] ? 0.28 : 1;
      const label = (this.marks && this.marks[i] ? '[' + this.marks[i] + '] ' : '') + (f.rec[i] ? '↻ ' : '') +
        (i === 0 && f.depth[i] === 0 && f.names[f.name[i]] === 'root' ? 'all samples' : f.info[f.name[i]].simple);
      ctx.fillText(fit(ctx, label, pw - 8), px + (f.rec[i] ? 6 : 4), y + ROW / 2);
    }
    ctx.globalAlpha = 1;
    if (this.hover >= 0 && f.depth[this.hover] >= L.base) {
      const i = this.hover;
      const px = (f.x[i] - L.x0) * L.scale;
      ctx.strokeStyle = '#111'; ctx.lineWidth = 1;
      ctx.strokeRect(px + 0.5, this.rowY(L, f.depth[i]) + 0.5, Math.max(f.w[i] * L.scale - 1, 1), ROW - 2);
    }
    this.canvas.dataset.drawn = String(f.n);
    this.canvas.dataset.hatched = String(hatched.length / 3);
    // in an animation frame callback, a task queued now runs once that frame is on screen (else
    // the task queued in the next frame's callback); the log tells tests and the benchmark when
    // each complete paint happened
    const focus = this.focus, canvasId = this.canvas.id, drawMs = performance.now() - started;
    const log = () => setTimeout(() => (window.cctflowPaints = window.cctflowPaints || []).push({ canvas: canvasId, at: performance.now(), nodes: f.n, focus, drawAt: started, drawMs }), 0);
    if (this.inFrame) log(); else requestAnimationFrame(log);
    if (this.opts.onDraw) this.opts.onDraw();
  }

  hit(e) {
    const f = this.flat;
    if (!f) return -1;
    const r = this.canvas.getBoundingClientRect();
    const L = this.layout();
    const y = e.clientY - r.top;
    const rowIndex = Math.floor(y / ROW);
    const d = this.flame ? L.base + (L.rows - 1 - rowIndex) : L.base + rowIndex;
    if (d < L.base || d > f.maxDepth) return -1;
    const xs = L.x0 + (e.clientX - r.left) / L.scale;
    const row = f.rows[d];
    let k = upperBound(f, row, xs) - 1;
    if (k < 0) return -1;
    const i = row[k];
    return xs < f.x[i] + f.w[i] && xs < L.x0 + f.w[this.focus] ? i : -1;
  }

  onMove(e) {
    const i = this.hit(e);
    if (i !== this.hover) { this.hover = i; this.schedule(); }
    this.opts.onHover && this.opts.onHover(i, e);
  }

  /**
   * The drawn frames as an SVG document (frames at least half a pixel wide); frames with migrated
   * samples hatched as on the canvas (the same white stripes, a pattern) and their migrated count
   * in the title.
   */
  toSvg() {
    const f = this.flat;
    const L = this.layout();
    const migrated = f.migrated;
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" font-family="sans-serif" font-size="12">`];
    if (migrated && migrated.some(v => v > 0)) out.push(`<defs>${HATCH_SVG}</defs>`);
    const end = L.x0 + f.w[this.focus];
    for (let d = L.base; d <= f.maxDepth; d++) {
      for (const i of f.rows[d]) {
        if (f.x[i] + f.w[i] <= L.x0 || f.x[i] >= end) continue;
        const px = (f.x[i] - L.x0) * L.scale, pw = f.w[i] * L.scale;
        if (pw < 0.5) continue;
        const y = this.rowY(L, d);
        const colour = this.colourOf ? this.colourOf(i) : f.colours[f.name[i]];
        const hatched = migrated && migrated[i] > 0;
        const title = escapeXml(f.names[f.name[i]] + ' — ' + f.w[i] + ' samples' + (hatched ? ', ' + migrated[i] + ' migrated' : ''));
        const rect = `x="${px.toFixed(2)}" y="${y}" width="${Math.max(pw - 0.5, 0.5).toFixed(2)}" height="${ROW - 1}"`;
        out.push(`<g><title>${title}</title><rect ${rect} fill="${colour}"/>`);
        if (hatched) out.push(`<rect class="migrated" ${rect} fill="url(#migrated)"/>`);
        if (pw > 28) out.push(`<text x="${(px + 4).toFixed(2)}" y="${y + 13}" fill="#1b1b1f">${escapeXml(fit(this.ctx, f.info[f.name[i]].simple, pw - 8))}</text>`);
        out.push('</g>');
      }
    }
    out.push('</svg>');
    return out.join('\n');
  }
}

function lowerBound(f, row, x) { // first node in row ending after x
  let lo = 0, hi = row.length;
  while (lo < hi) { const m = (lo + hi) >> 1; const i = row[m]; if (f.x[i] + f.w[i] <= x) lo = m + 1; else hi = m; }
  return lo;
}

function upperBound(f, row, x) { // first node in row starting after x
  let lo = 0, hi = row.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (f.x[row[m]] <= x) lo = m + 1; else hi = m; }
  return lo;
}

/** {@link hatchPattern} as an SVG pattern (id "migrated"), for {@code toSvg}. */
const HATCH_SVG = '<pattern id="migrated" width="6" height="6" patternUnits="userSpaceOnUse">'
  + '<path d="M-1,7 L7,-1 M-1,1 L1,-1 M5,7 L7,5" stroke="rgba(255,255,255,0.75)" stroke-width="2"/></pattern>';

/** The hatching of frames with migrated samples: white stripes, 45°, every 6 px (one pattern per context). */
function hatchPattern(ctx) {
  if (!ctx.hatch) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = 6;
    const t = tile.getContext('2d');
    t.strokeStyle = 'rgba(255,255,255,0.75)'; t.lineWidth = 2;
    t.beginPath(); t.moveTo(-1, 7); t.lineTo(7, -1); t.moveTo(-1, 1); t.lineTo(1, -1); t.moveTo(5, 7); t.lineTo(7, 5); t.stroke();
    ctx.hatch = ctx.createPattern(tile, 'repeat');
  }
  return ctx.hatch;
}

function fit(ctx, text, width) {
  const chars = Math.floor(width / 6.6);
  if (text.length <= chars) return text;
  if (chars < 3) return '';
  return text.substring(0, chars - 1) + '…';
}

function escapeXml(s) {
  return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

window.Flame = { FlameGraph, flatten, fromColumns, idOf, indexOfId, splitName, packageColour, escapeXml, ROW };
