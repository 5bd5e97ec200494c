// The views: flame graph, hot methods, method (sandwich), compare, tasks.
'use strict';

/** Baseline arrow of seed 002 Listing 3.6 as cct-core's BaselineComparison computes it (angle, colour). */
function baselineArrow(current, baseline) {
  let angle;
  if (baseline === 0) angle = current === 0 ? 0 : -45;
  else if (current === 0) angle = 45;
  else { const d = Math.max(0.5, Math.min(2, current / baseline)); angle = 90 * (d >= 1 ? -(d - 1) : 1 / d - 1); }
  const degrees = Math.trunc(angle);
  const c = Math.round(Math.abs(degrees) * 255 / 90);
  const rgb = [degrees < 0 ? c : 0, degrees < 0 ? 0 : c, 255 - c];
  return { angle, degrees, rgb, colour: 'rgb(' + rgb.join(',') + ')' };
}

/** An arrow element pointing by the baseline angle (down: better, up: worse). */
function arrowElement(a, title) {
  return el('span', { class: 'arrow', title, style: 'color:' + a.colour + ';transform:rotate(' + a.angle + 'deg)' }, '➜');
}

/** The diff flame graph's colour of a change: the baseline arrow's colour, lightened so labels stay readable. */
function diffColour(current, baseline) {
  return soften(baselineArrow(current, baseline).rgb, 0.38);
}

/** Mixes a colour with white for readable labels on top. */
function soften(rgb, keep) {
  return 'rgb(' + rgb.map(v => Math.round(v * keep + 255 * (1 - keep))).join(',') + ')';
}

/** "x of y samples migrated from v1 (the previous deployment's profile)": a count's migrated part. */
function migratedText(migrated, of, migration) {
  return fmt.of(migrated, of) + ' samples migrated from ' + ((migration && migration.previous) || 'the previous deployment')
    + ' (its profile stands in: an estimate until new samples suffice)';
}

/** The legend entry of hatched (migrated) frames, when the tree has any. */
function migratedLegend(f, migration) {
  if (!f.migrated || !f.migrated.some(v => v > 0)) return null;
  return el('span', { id: 'legend-migrated' }, el('span', { class: 'swatch hatched' }),
    'hatched: migrated, samples from ' + ((migration && migration.previous) || 'the previous deployment'));
}

/** A count with its migrated part beside it ("12 of 40" and a "5 migrated" tag); the caller marks the row. */
function withMigrated(text, migrated) {
  return migrated > 0 ? [text, ' ', el('span', { class: 'migrated-tag', title: 'from the previous deployment\'s profile' }, fmt.n(migrated) + ' migrated')] : text;
}

function showTooltip(e, rows, sig) {
  const t = $('tooltip');
  if (!rows) { t.hidden = true; return; }
  t.replaceChildren(el('div', { class: 'sig' }, sig), el('table', {}, ...rows.map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, v)))));
  t.hidden = false;
  const x = Math.min(e.clientX + 14, window.innerWidth - t.offsetWidth - 8);
  const y = e.clientY + 16 + t.offsetHeight > window.innerHeight ? e.clientY - t.offsetHeight - 10 : e.clientY + 16;
  t.style.left = x + 'px'; t.style.top = y + 'px';
}

/**
 * Marks the nodes of the subtree of {@code from} (default: the whole tree) whose name contains the
 * query; method time counts each sample once (recursion-aware).
 */
function searchTree(f, q, from) {
  if (!q) return null;
  const first = from || 0;
  const needle = q.toLowerCase();
  const nameHit = f.names.map(n => n.toLowerCase().includes(needle));
  const mask = new Uint8Array(f.n);
  let samples = 0, frames = 0;
  const matchedNames = new Set();
  const stack = []; // depth-first order: ancestors of node i are the stack entries with smaller depth
  let openMatches = 0;
  for (let i = first; i < f.n && (i === first || f.depth[i] > f.depth[first]); i++) {
    while (stack.length && f.depth[stack[stack.length - 1]] >= f.depth[i]) { if (mask[stack.pop()]) openMatches--; }
    if (nameHit[f.name[i]] && i > 0) {
      mask[i] = 1; frames++; matchedNames.add(f.names[f.name[i]]);
      if (openMatches === 0) samples += f.w[i];
      openMatches++;
    }
    stack.push(i);
  }
  return { mask, samples, frames, names: [...matchedNames] };
}

App.views.flame = {
  graph: null, flat: null, key: null, data: null, trail: [],

  init() {
    if (this.graph) return;
    this.graph = new Flame.FlameGraph($('flame'), {
      onHover: (i, e) => this.hover(i, e),
      onClick: i => this.click(i),
    });
    this.graph.canvas.addEventListener('click', e => { if (e.shiftKey) e.stopImmediatePropagation(); }, true);
    $('orient').onchange = e => update({ orient: e.target.value }, { replace: true });
    $('export-png').onclick = () => $('flame').toBlob(b => download('flamegraph.png', b));
    $('export-svg').onclick = () => download('flamegraph.svg', new Blob([this.graph.toSvg()], { type: 'image/svg+xml' }));
    $('export-collapsed').onclick = async () => {
      try { download('stacks.collapsed.txt', new Blob([await api('/api/v1/tree?' + this.params(true))], { type: 'text/plain' })); }
      catch (e) { setStatus('error', 'export failed: ' + e.message); }
    };
  },

  /** The tree request of the view ({@link treeParams}); {@code node} false: without the zoomed node. */
  params(collapsed, node) {
    return treeParams(S, { minShare: this.minShare, collapsed, withNode: node, columns: !collapsed && node !== false });
  },

  /**
   * The node to focus in the tree held, when it can show the requested zoom by itself: the same
   * selection, and the zoomed node's subtree complete in it (nothing below it pruned by the
   * server); otherwise -1, and the subtree is re-queried.
   */
  localFocus() {
    if (!this.flat || this.heldBase !== this.params(false, false).toString()) return -1;
    if (!S.node) return this.heldNode ? -1 : 0;
    const i = Flame.indexOfId(this.flat, S.node);
    return i >= 0 && (this.flat.complete[i] || S.node === this.heldNode) ? i : -1;
  },

  async render() {
    this.init();
    this.graph.setFlame(S.orient === 'flame');
    $('orient').value = S.orient || 'icicle';
    const local = this.localFocus();
    if (local >= 0) {
      this.graph.setFocus(local);
    } else {
      const p = this.params();
      // the first render's request, started by index.html before the scripts loaded, if it is this one
      const first = early.tree && early.tree.key === p.toString() ? early.tree : null;
      early.tree = null;
      let data = first ? await first.request : null;
      const timing = first && data ? first.timing : { start: performance.now() };
      try {
        if (!data) data = await api('/api/v1/tree?' + p, undefined, timing);
      } catch (e) {
        if (e.status === 400 && /max-tree-nodes/.test(e.message) && !this.minShare) {
          this.minShare = '0.0001';
          return this.render();
        }
        if (e.status === 404 && S.node) throw new Error(e.message + ' — press Esc to reset the zoom');
        throw e;
      }
      timing.received = performance.now();
      this.heldBase = this.params(false, false).toString();
      this.heldNode = S.node || '';
      this.data = data;
      this.flat = data.tree ? Flame.fromColumns(data.tree) : Flame.flatten(data.root);
      timing.laidOut = performance.now();
      (window.cctflowTimings = window.cctflowTimings || []).push(timing); // for the paint benchmark
      this.graph.setData(this.flat);
      if (!S.node) this.trail = [];
      // the frames first; the legend, breadcrumbs, search and (App.render) the timeline after
      await this.graph.drawNow();
    }
    if (this.data.totalSamples === 0) {
      setStatus('empty', 'No samples in the selected range' + (S.from || S.to ? ' (' + (S.from || '…') + ' to ' + (S.to || '…') + '): widen it or press "all".' : '.'));
    }
    showMigration(this.data.migration);
    this.crumbs();
    this.applySearch();
    this.legend();
  },

  resetZoom() { this.graph.setFocus(0); },

  /** The node at the top of the view: the zoomed one. */
  focus() { return this.graph.focus; },

  click(i) {
    const f = this.flat;
    if (i <= 0) return;
    if (window.event && window.event.shiftKey) return update({ view: 'method', method: f.names[f.name[i]] });
    this.graph.setFocus(i); // at once; a re-queried subtree (when pruning hid part of it) replaces it
    if (!f.hasIds) return; // a merged view (dynamic root) has no stored ids: zoom stays local
    const path = [];
    for (let n = i; n > 0 && Flame.idOf(f, n) !== this.heldNode; n = f.parent[n]) path.unshift({ id: Flame.idOf(f, n), name: f.info[f.name[n]].simple });
    const heldTrail = this.heldNode ? this.trail.slice(0, this.trail.findIndex(t => t.id === this.heldNode) + 1) : [];
    this.trail = heldTrail.concat(path);
    // the URL, breadcrumbs and legend once the zoomed frame is on screen (the task after its paint)
    requestAnimationFrame(() => setTimeout(() => update({ node: Flame.idOf(f, i) }), 0));
  },

  crumbs() {
    const box = $('crumbs');
    const items = [el('a', { onclick: () => update({ node: '' }) }, S.root ? 'root: ' + Flame.splitName(S.root).simple : S.task.length ? 'task ' + S.task.join(', ') : 'all samples')];
    if (S.node) {
      const trail = this.trail.length ? this.trail : [{ id: S.node, name: this.flat ? this.flat.info[this.flat.name[this.focus()]].simple : S.node }];
      trail.forEach((t, k) => { items.push(el('span', { class: 'sep' }, '›'));
        items.push(k === trail.length - 1 ? el('b', {}, t.name) : el('a', { onclick: () => { this.trail = trail.slice(0, k + 1); update({ node: t.id }); } }, t.name)); });
      items.push(el('span', { class: 'sep' }, ' (Esc resets)'));
    }
    box.replaceChildren(...items);
  },

  applySearch() {
    const r = searchTree(this.flat, S.q, this.focus());
    this.graph.setHighlight(r ? r.mask : null);
    const out = $('search-result');
    if (!r) { out.replaceChildren(); return; }
    if (!r.frames) { out.replaceChildren('no frame matches "' + S.q + '"'); return; }
    const total = this.flat.w[this.focus()];
    const parts = [r.frames + ' frames · method time ' + fmt.of(r.samples, total) + ' samples (' + fmt.pct(r.samples / Math.max(total, 1)) + ')'];
    if (r.names.length === 1 && r.names[0] !== 'root') parts.push(' · ', el('a', { href: '#', onclick: e => { e.preventDefault(); update({ view: 'method', method: r.names[0] }); } }, 'method view'));
    out.replaceChildren(...parts);
  },

  hover(i, e) {
    if (i < 0) return showTooltip(e, null);
    const f = this.flat, total = f.w[this.focus()], sig = f.names[f.name[i]];
    const rows = [
      ['total', fmt.of(f.w[i], total) + ' samples (' + fmt.pct(f.w[i] / Math.max(total, 1)) + ')'],
      ['self', fmt.of(f.self[i], total) + ' samples (' + fmt.pct(f.self[i] / Math.max(total, 1)) + ')'],
    ];
    if (i > 0) rows.push(['call site', f.parent[i] > 0 ? 'line ' + (f.line[i] || '?') + ' of ' + f.info[f.name[f.parent[i]]].simple : 'thread root']);
    if (f.rec[i]) rows.push(['recursive', 'an ancestor frame is the same method']);
    if (f.migrated && f.migrated[i] > 0) rows.push(['migrated', migratedText(f.migrated[i], f.w[i], this.data.migration)]);
    if (i > 0) rows.push(['', 'click: zoom · shift-click: method view']);
    showTooltip(e, rows, sig);
  },

  legend() {
    const f = this.flat, byPkg = new Map();
    for (let i = 1; i < f.n; i++) { const pkg = f.info[f.name[i]].pkg || '(default package)'; byPkg.set(pkg, (byPkg.get(pkg) || 0) + f.self[i]); }
    const top = [...byPkg.entries()].filter(e => e[1] > 0).sort((a, b) => b[1] - a[1]).slice(0, 10);
    $('legend').replaceChildren(el('span', {}, fmt.n(f.n) + ' frames ·'), ...top.map(([pkg, n]) => el('span', {}, el('span', { class: 'swatch', style: 'background:' + Flame.packageColour(pkg === '(default package)' ? '' : pkg) }), pkg + ' ' + fmt.pct(n / Math.max(f.w[0], 1)))),
      el('span', {}, '▌ dark notch, ↻: recursive frame'), migratedLegend(f, this.data.migration));
  },

  onSearch() { if (this.flat) this.applySearch(); },
};

App.views.table = {
  rows: [], sort: null,
  async render() {
    $('table-filter').oninput = e => { this.filter = e.target.value.toLowerCase(); this.draw(); };
    // one request for both lists: the server loads the tree once (two requests each loaded it)
    const p = migration(S, scope(S, selection(S))); p.set('by', 'both'); p.set('top', '500');
    const r = await api('/api/v1/metrics/top?' + p);
    this.rows = r.methods;
    this.total = r.totalSamples;
    showMigration(r.migration);
    $('table-note').textContent = r.methodCount + ' methods · ' + fmt.n(this.total) + ' samples in scope ' + r.scope
      + (r.methodCount > this.rows.length ? ' · the top 500 by self and by method time are listed' : '');
    if (!this.total) setStatus('empty', 'No samples in the selected range and scope.');
    this.sort = this.sort || { key: 'selfSamples', dir: -1 };
    this.draw();
  },
  draw() {
    const cols = [['method', 'Method'], ['selfSamples', 'Self samples'], ['selfShare', 'Self %'], ['methodSamples', 'Method samples'], ['methodTime', 'Method time %']];
    const { key, dir } = this.sort;
    const rows = this.rows.filter(r => !this.filter || r.method.toLowerCase().includes(this.filter))
      .sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0) * dir);
    const max = Math.max(1, ...rows.map(r => r[key === 'method' ? 'selfSamples' : key]));
    const head = el('tr', {}, ...cols.map(([k, label]) => el('th', { class: k === 'method' ? '' : 'num',
      onclick: () => { this.sort = { key: k, dir: key === k ? -dir : (k === 'method' ? 1 : -1) }; this.draw(); } }, label + (k === key ? (dir < 0 ? ' ▼' : ' ▲') : ''))));
    $('hot').replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows.slice(0, 1000).map(r => el('tr', { class: r.migratedMethodSamples > 0 ? 'migrated' : '' },
      el('td', { class: 'name' }, el('a', { onclick: () => update({ view: 'method', method: r.method }) }, r.method)),
      el('td', { class: 'num' }, withMigrated(fmt.of(r.selfSamples, this.total), r.migratedSelfSamples)),
      el('td', { class: 'num' }, el('span', { class: 'bar', style: 'width:' + (60 * r.selfShare).toFixed(1) + 'px' }), fmt.pct(r.selfShare)),
      el('td', { class: 'num' }, withMigrated(fmt.of(r.methodSamples, this.total), r.migratedMethodSamples)),
      el('td', { class: 'num' }, el('span', { class: 'bar', style: 'background:#6fb1d9;width:' + (60 * r.methodTime).toFixed(1) + 'px' }), fmt.pct(r.methodTime)))))); 
  },
};

function shareTable(id, rows, total, lines) {
  const head = el('tr', {}, el('th', {}, lines === null ? 'Thread group' : 'Method'), el('th', { class: 'num' }, 'Samples'), el('th', { class: 'num' }, 'Share'), lines === null ? null : el('th', {}, 'Call-site lines'));
  $(id).replaceChildren(el('thead', {}, head), el('tbody', {}, ...(rows.length ? rows : [null]).map(r => r ? el('tr', { class: r.migratedSamples > 0 ? 'migrated' : '' },
    el('td', { class: 'name' }, lines === null ? r.name : el('a', { onclick: () => update({ method: r.name }) }, r.name)),
    el('td', { class: 'num' }, withMigrated(fmt.of(r.samples, total), r.migratedSamples)),
    el('td', { class: 'num' }, el('span', { class: 'bar', style: 'width:' + (60 * r.share).toFixed(1) + 'px' }), fmt.pct(r.share)),
    lines === null ? null : el('td', {}, lines.get(r.name) ? [...lines.get(r.name)].sort((a, b) => a - b).join(', ') : '')) : el('tr', {}, el('td', { colSpan: 4 }, 'none')))));
}

App.views.method = {
  graph: null,
  async render() {
    if (!S.method) {
      $('method-head').replaceChildren('Pick a method: a row of Hot methods, the "method view" link of a search, or shift-click a frame.');
      ['callers', 'callees', 'threads'].forEach(t => $(t).replaceChildren());
      return;
    }
    if (!this.graph) this.graph = new Flame.FlameGraph($('method-flame'), { onHover: (i, e) => this.hover(i, e), onClick: i => this.graph.setFocus(i === this.graph.focus ? 0 : i) });
    const p = migration(S, scope(S, selection(S))); p.set('method', S.method); p.set('top', '30');
    const t = migration(S, selection(S)); t.set('method', S.method);
    let m, tree;
    try {
      [m, tree] = await Promise.all([api('/api/v1/metrics/method?' + p), api('/api/v1/tree?' + t)]);
    } catch (e) {
      if (e.status === 404) throw new Error(e.message + ' — no samples of this method in the selection');
      throw e;
    }
    showMigration(m.migration);
    const baseline = await this.baseline(p, m);
    const head = [el('div', { class: 'sig' }, S.method),
      el('div', { class: 'figures' },
        el('div', { class: 'figure', id: 'method-time' }, el('b', {}, fmt.pct(m.methodTime)), el('span', {}, 'method time · ' + fmt.of(m.methodSamples, m.totalSamples) + ' samples (recursion-aware)'
          + (m.migratedMethodSamples > 0 ? ', ' + fmt.n(m.migratedMethodSamples) + ' migrated' : ''))),
        el('div', { class: 'figure', id: 'self-time' }, el('b', {}, fmt.pct(m.selfTime)), el('span', {}, 'self time · ' + fmt.of(m.selfSamples, m.methodSamples) + ' of its samples in its own code')),
        el('div', { class: 'figure' }, el('b', {}, m.scope), el('span', {}, 'scope' + (m.root ? ': ' + m.root : m.tasks.length ? ': ' + m.tasks.join(', ') : ''))),
        baseline)];
    $('method-head').replaceChildren(...head);
    const first = m.metrics.length === 1 ? m.metrics[0] : null;
    const merge = key => { const out = new Map(); for (const o of m.metrics) for (const s of o[key]) { const x = out.get(s.name) || { name: s.name, samples: 0, migratedSamples: 0 }; x.samples += s.samples; x.migratedSamples += s.migratedSamples || 0; out.set(s.name, x); } return [...out.values()].map(x => Object.assign(x, { share: x.samples / Math.max(m.methodSamples, 1) })).sort((a, b) => b.samples - a.samples); };
    const callees = first ? first.callees : merge('callees');
    const calleeLines = new Map();
    const start = tree.root.children[0];
    for (const c of (start ? start.children : [])) { if (!calleeLines.has(c.method)) calleeLines.set(c.method, new Set()); calleeLines.get(c.method).add(c.line); }
    shareTable('callers', first ? first.callers : merge('callers'), m.methodSamples, await this.callerLines());
    $('method-self').textContent = Flame.splitName(S.method).simple + ' — ' + fmt.of(m.selfSamples, m.methodSamples) + ' samples in its own code';
    shareTable('callees', callees, m.methodSamples, calleeLines);
    shareTable('threads', first ? first.threads : merge('threads'), m.methodSamples, null);
    this.flat = Flame.flatten(start ? { method: 'root', line: 0, self: 0, total: start.total, migratedTotal: start.migratedTotal, children: [start] } : tree.root);
    this.migration = m.migration;
    this.graph.setData(this.flat);
  },

  /** Call-site lines in each caller, from the whole tree of the selection (pruned at 0.01 %). */
  async callerLines() {
    const p = selection(S); p.set('minShare', '0.0001');
    const tree = await api('/api/v1/tree?' + p);
    const out = new Map();
    const walk = (node, parent) => {
      if (node.method === S.method && parent) { if (!out.has(parent.method)) out.set(parent.method, new Set()); out.get(parent.method).add(node.line); }
      for (const c of node.children) walk(c, node.method === 'root' && !node.id ? null : node);
    };
    const stack = [[tree.root, null]];
    while (stack.length) { const [n, parent] = stack.pop(); if (n.method === S.method && parent && parent.method !== 'root') { if (!out.has(parent.method)) out.set(parent.method, new Set()); out.get(parent.method).add(n.line); } for (const c of n.children) stack.push([c, n]); }
    return out;
  },

  /** The method time at the previous deployment, with the baseline arrow, when one exists. */
  async baseline(params, m) {
    const svc = Selection.service();
    const current = S.version || (svc.versions.length ? svc.versions[svc.versions.length - 1].version : null);
    const k = svc.versions.findIndex(v => v.version === current);
    if (!S.version || k <= 0) return el('div', { class: 'figure' }, el('b', {}, '–'), el('span', {}, S.version ? 'no previous deployment' : 'pick a deployment to compare with the previous one'));
    const prev = svc.versions[k - 1].version;
    const p = new URLSearchParams(params);
    ['service', 'version', 'from', 'to', 'instance', 'label', 'migrate'].forEach(x => p.delete(x));
    p.set('at', S.service + '@' + prev);
    try {
      const b = await api('/api/v1/metrics/method?' + p);
      const a = baselineArrow(m.methodTime, b.methodTime);
      return el('div', { class: 'figure', id: 'baseline' }, el('b', {}, arrowElement(a, a.degrees + '°'), ' ', fmt.pct(b.methodTime) + ' → ' + fmt.pct(m.methodTime)),
        el('span', {}, 'vs ' + prev + ' (' + a.degrees + '°: ' + (a.degrees > 0 ? 'improvement' : a.degrees < 0 ? 'regression' : 'unchanged') + ')'));
    } catch (e) {
      return el('div', { class: 'figure' }, el('b', {}, 'new'), el('span', {}, 'not sampled in ' + prev));
    }
  },

  hover(i, e) {
    if (i < 0) return showTooltip(e, null);
    const f = this.flat;
    const rows = [['total', fmt.of(f.w[i], f.w[0]) + ' samples'], ['self', fmt.n(f.self[i])], ['call site', 'line ' + f.line[i]]];
    if (f.migrated && f.migrated[i] > 0) rows.push(['migrated', migratedText(f.migrated[i], f.w[i], this.migration)]);
    showTooltip(e, rows, f.names[f.name[i]]);
  },
};

const STAGE_LETTER = { ADDED: 'A', DELETED: 'D', MODIFIED: 'M', SIDE_EFFECT: 'S' };

/**
 * One side of a comparison as the URL holds it ({@code a} or {@code b}: the deployment, {@code
 * a.instance} (repeatable), {@code a.from}, {@code a.to}) and as selection parameters for the API.
 */
function compareSide(s, side, defaultVersion) {
  const instances = s[side + '.instance'] || [], from = s[side + '.from'] || '', to = s[side + '.to'] || '';
  // '*': every deployment; none given: the default deployment, unless instances or a range are
  const version = s[side] === '*' ? '' : s[side] || (instances.length || from || to ? '' : defaultVersion);
  const p = new URLSearchParams();
  if (version && !from && !to) p.set('at', s.service + '@' + version);
  else { p.set('service', s.service); if (version) p.set('version', version); }
  instances.forEach(i => p.append('instance', i));
  if (from) p.set('from', from);
  if (to) p.set('to', to);
  const label = (version || 'all deployments') + (instances.length ? ' · ' + instances.join(', ') : '')
    + (from || to ? ' · ' + (from || '…') + ' → ' + (to || '…') : '');
  return { version, instances, from, to, params: p, label };
}

App.views.compare = {
  graph: null,
  async render() {
    const svc = Selection.service();
    const versions = svc.versions.map(v => v.version);
    const allInstances = svc.versions.flatMap(v => v.instances.map(i => ({ id: i.instanceId, version: v.version })));
    const a = compareSide(S, 'a', versions[versions.length - 2] || versions[0]);
    const b = compareSide(S, 'b', versions[versions.length - 1]);
    for (const [name, side] of [['a', a], ['b', b]]) {
      const dep = $('side-' + name);
      dep.replaceChildren(el('option', { value: '*', textContent: 'all deployments' }), ...versions.map(v => el('option', { value: v, textContent: v })));
      dep.value = side.version || '*';
      dep.onchange = e => update({ [name]: e.target.value, [name + '.instance']: [] });
      const inst = $('side-' + name + '-instances');
      inst.replaceChildren(...allInstances.filter(i => !side.version || i.version === side.version)
        .map(i => el('option', { value: i.id, textContent: i.id, selected: side.instances.includes(i.id) })));
      inst.onchange = e => update({ [name]: side.version || '*', [name + '.instance']: [...e.target.selectedOptions].map(o => o.value) });
      $('side-' + name + '-from').value = side.from;
      $('side-' + name + '-to').value = side.to;
      $('side-' + name + '-from').onchange = e => update({ [name]: side.version || '*', [name + '.from']: e.target.value.trim() });
      $('side-' + name + '-to').onchange = e => update({ [name]: side.version || '*', [name + '.to']: e.target.value.trim() });
    }
    $('weight').value = S.weight || 'self';
    $('weight').onchange = e => update({ weight: e.target.value });
    if (a.params.toString() === b.params.toString()) {
      setStatus('empty', 'Both sides select the same samples (' + a.label + '). Pick another deployment, other instances or another time range for one side'
        + (versions.length < 2 ? ': ' + S.service + ' has one deployment, so compare instances or time ranges.' : '.'));
      return;
    }
    const q = new URLSearchParams({ weight: S.weight || 'self', top: '50' });
    for (const [name, side] of [['a', a], ['b', b]]) for (const [k, v] of side.params) q.append(name + '.' + k, v);
    const tree = side => { const p = new URLSearchParams(side.params); p.set('minShare', '0.0001'); return api('/api/v1/tree?' + p); };
    const [r, ta, tb] = await Promise.all([api('/api/v1/compare?' + q), tree(a), tree(b)]);
    this.sides = [a.label, b.label];
    this.summary(r);
    document.querySelectorAll('.diff-legend .swatch').forEach((sw, k) => { sw.style.background = diffColour([2, 1, 0.5][k], 1); });
    this.diff(ta, tb, r);
    this.tables(r);
  },

  summary(r) {
    const card = (value, title, text) => el('div', { class: 'card' }, el('b', {}, value), el('div', {}, title), el('span', {}, text));
    const ct = r.commonTree || {}, ov = r.overlap || {};
    const cards = [
      card(fmt.n(r.a.samples) + ' → ' + fmt.n(r.b.samples), 'samples (a → b)', this.sides[0] + ' vs ' + this.sides[1] + '; ' + fmt.n(r.a.nodes) + ' and ' + fmt.n(r.b.nodes) + ' nodes'),
      card(ov.self !== undefined ? fmt.pct(ov.self) + ' / ' + fmt.pct(ov.total) : '–', 'overlap (self / total)', 'how much of the weight the two trees share on their common nodes; 100 % = same distribution'),
      card(ct.size !== undefined ? fmt.n(ct.size) + ' nodes' : '–', 'common tree', 'contexts in both trees once changed subtrees are excised: ' + (ct.shareOfA !== undefined ? fmt.pct(ct.shareOfA) + ' of a, ' + fmt.pct(ct.shareOfB) + ' of b' : '')),
      card(r.score !== undefined ? r.score.toFixed(1) + ' %' : '–', 'matching score', 'overlap times coverage: how well b\'s profile matches a\'s (100 % = identical)'),
    ];
    const sg = r.significance;
    if (sg) cards.unshift(card(r.message, 'significance (false discovery rate ' + fmt.pct(sg.fdr) + ')', sg.model === 'withheld'
      ? 'each side needs two or more instances, instance groups or windows to estimate the noise from; until then no method is labelled'
      : 'noise estimated from ' + sg.replicatesA + ' ' + sg.unitA + ' against ' + sg.replicatesB + ' ' + sg.unitB
        + (sg.unitA === 'instance groups' ? ' (each deployment\'s instances in groups by a hash of their id, each group summed: different JVMs, so what JVMs differ by counts as noise)' : '') + '; variance over binomial by samples per replicate: ' + sg.dispersionTrend.map(t => fmt.n(t.samplesPerReplicate) + ': ' + t.dispersion.toFixed(1)).join(', ')));
    if (r.noise) cards.push(card(fmt.pct(r.noise.threshold), 'noise threshold (' + r.noise.source + ')', 'differences below the noise level are not ranked'));
    if (r.changes) cards.push(card(r.changes.manifests ? r.changes.added + ' / ' + r.changes.deleted + ' / ' + r.changes.modified : 'no manifests', 'methods added / deleted / modified', r.changes.note || 'from the deployments\' code manifests'));
    $('compare-summary').replaceChildren(...cards);
  },

  /** A diff flame graph: both trees merged by path, widths by the mean of both shares, colour by the change. */
  diff(ta, tb, r) {
    const TA = Math.max(ta.totalSamples, 1), TB = Math.max(tb.totalSamples, 1);
    const nodes = [];
    const merge = (x, y, path) => {
      const k = nodes.length;
      const d = { method: (x || y).method, line: (x || y).line, a: x ? x.total : 0, b: y ? y.total : 0, sa: x ? x.self : 0, sb: y ? y.self : 0, path };
      nodes.push(d);
      const kids = new Map();
      for (const c of (x ? x.children : [])) kids.set(c.method + ':' + c.line, [c, null]);
      for (const c of (y ? y.children : [])) { const key = c.method + ':' + c.line; kids.set(key, [(kids.get(key) || [null])[0], c]); }
      const children = [];
      for (const [key, [cx, cy]] of kids) children.push(merge(cx, cy, path ? path + '/' + key : key));
      const total = 1e6 * (d.a / TA + d.b / TB) / 2;
      return { id: String(k), method: d.method, line: d.line, total, self: Math.max(0, total - children.reduce((s, c) => s + c.total, 0)), children };
    };
    const root = merge(ta.root, tb.root, '');
    const marks = new Map();
    for (const at of r.attributions || []) marks.set(at.path.map(f => f.method + ':' + f.line).join('/'), STAGE_LETTER[at.stage] || at.stage[0]);
    const f = Flame.flatten(root);
    const diffOf = f.ids.map(id => nodes[+id]);
    if (!this.graph) this.graph = new Flame.FlameGraph($('diff-flame'), { onHover: (i, e) => this.hover(i, e), onClick: i => this.graph.setFocus(i === this.graph.focus ? 0 : i) });
    this.graph.colourOf = i => { const d = diffOf[i]; return diffColour(d.b / TB, d.a / TA); };
    this.graph.marks = diffOf.map(d => marks.get(d.path) || null);
    this.diffOf = diffOf; this.TA = TA; this.TB = TB;
    this.graph.setData(f);
  },

  hover(i, e) {
    if (i < 0) return showTooltip(e, null);
    const d = this.diffOf[i];
    const a = d.a / this.TA, b = d.b / this.TB, arrow = baselineArrow(b, a);
    showTooltip(e, [['a (baseline)', fmt.of(d.a, this.TA) + ' (' + fmt.pct(a) + ')'], ['b (current)', fmt.of(d.b, this.TB) + ' (' + fmt.pct(b) + ')'],
      ['change', (b - a >= 0 ? '+' : '') + (100 * (b - a)).toFixed(2) + ' points, ' + arrow.degrees + '°'], ['call site', 'line ' + d.line]], d.method);
  },

  tables(r) {
    const known = new Set(['method', 'path', 'weightA', 'weightB', 'pweightA', 'pweightB', 'delta', 'overlapAfter', 'methodTime']);
    const extra = d => Object.keys(d).filter(k => !known.has(k) && d[k] !== null && d[k] !== undefined);
    const show = v => typeof v === 'number' ? (Math.abs(v) < 1 && v !== 0 ? v.toPrecision(3) : fmt.n(v)) : typeof v === 'object' ? Object.entries(v).map(([k, x]) => k + ' ' + show(x)).join(', ') : String(v);
    const diffs = r.differences || [];
    const head = el('tr', {}, el('th', { class: 'num' }, '#'), el('th', {}, 'Method'), el('th', {}, 'Context'), el('th', { class: 'num' }, 'a'), el('th', { class: 'num' }, 'b'), el('th', { class: 'num' }, 'Δ share'), el('th', {}, 'Method time a → b'), el('th', {}, 'Significance'));
    $('differences').replaceChildren(el('thead', {}, head), el('tbody', {}, ...(diffs.length ? diffs.map((d, k) => {
      const mt = d.methodTime;
      const arrow = mt ? { angle: mt.angle, degrees: mt.degrees, colour: mt.colour } : null;
      const sig = extra(d).map(x => x + ': ' + show(d[x])).join('; ') || (mt && extra(mt).length ? '' : 'not reported');
      return el('tr', {}, el('td', { class: 'num' }, k + 1), el('td', { class: 'name' }, d.method),
        el('td', { class: 'name' }, (d.path || []).slice(-3).map(p => Flame.splitName(p.method).simple + ':' + p.line).join(' › ')),
        el('td', { class: 'num' }, fmt.n(d.weightA) + ' (' + fmt.pct(d.pweightA) + ')'), el('td', { class: 'num' }, fmt.n(d.weightB) + ' (' + fmt.pct(d.pweightB) + ')'),
        el('td', { class: 'num ' + (d.delta > 0 ? 'pos' : 'neg') }, (d.delta > 0 ? '+' : '') + (100 * d.delta).toFixed(2) + ' pt'),
        el('td', {}, mt ? [arrowElement(arrow, mt.change), ' ' + fmt.pct(mt.timeA) + ' → ' + fmt.pct(mt.timeB)] : ''),
        el('td', {}, sig));
    }) : [el('tr', {}, el('td', { colSpan: 8 }, 'No significant weight differences: the profiles match within the noise threshold.'))])));
    const at = r.attributions || [];
    $('attributions').replaceChildren(el('thead', {}, el('tr', {}, ...['Stage', 'Side', 'Method', 'Nodes', 'Samples', 'Likely cause'].map(x => el('th', {}, x)))),
      el('tbody', {}, ...(at.length ? at.map(x => el('tr', {}, el('td', {}, x.stage), el('td', {}, x.side), el('td', { class: 'name' }, x.method), el('td', { class: 'num' }, fmt.n(x.nodes)), el('td', { class: 'num' }, fmt.n(x.samples)), el('td', { class: 'name' }, (x.suspects || []).join(', ')))) : [el('tr', {}, el('td', { colSpan: 6 }, 'No subtree was excised: no added, deleted, modified or side-effect contexts.'))])));
  },
};

App.views.tasks = {
  async render() {
    const form = $('task-form');
    form.onsubmit = e => { e.preventDefault(); this.save(); };
    $('task-reset').onclick = () => this.edit(null);
    $('task-metric-go').onclick = () => update({ task: $('task-metric-name').value.split(',').map(x => x.trim()).filter(Boolean), root: '' });
    const list = await api('/api/v1/tasks?service=' + encodeURIComponent(S.service));
    this.tasks = list.tasks;
    $('task-list').replaceChildren(el('thead', {}, el('tr', {}, ...['Id', 'Match', 'Pattern', 'Name template', 'Updated', ''].map(x => el('th', {}, x)))),
      el('tbody', {}, ...(list.tasks.length ? list.tasks.map(t => el('tr', {}, el('td', {}, t.id), el('td', {}, t.matchType), el('td', { class: 'name' }, t.pattern), el('td', { class: 'name' }, t.nameTemplate), el('td', {}, (t.updated || '').substring(0, 19).replace('T', ' ')),
        el('td', {}, el('button', { onclick: () => this.edit(t) }, 'Edit'), ' ', el('button', { onclick: () => this.remove(t) }, 'Delete')))) : [el('tr', {}, el('td', { colSpan: 6 }, 'No task definitions for ' + S.service + ' yet: create one on the right.'))])));
    $('task-metric-name').value = S.task.join(', ');
    if (S.task.length) await this.metrics();
    else { $('task-metric-head').textContent = 'Enter a task name (as a name template produces it) to see its hot methods.'; $('task-metrics').replaceChildren(); }
  },

  edit(t) {
    const form = $('task-form');
    this.editing = t ? t.id : null;
    $('task-form-title').textContent = t ? 'Edit task ' + t.id : 'New task';
    form.elements.id.value = t ? t.id : ''; form.elements.id.readOnly = !!t;
    form.elements.matchType.value = t ? t.matchType : 'PREFIX';
    form.elements.pattern.value = t ? t.pattern : ''; form.elements.nameTemplate.value = t ? t.nameTemplate : '';
    this.message('', '');
  },

  message(kind, text) { const m = $('task-message'); m.className = kind; m.textContent = text; },

  async save() {
    const form = $('task-form');
    const body = { id: form.elements.id.value.trim(), service: S.service, matchType: form.elements.matchType.value, pattern: form.elements.pattern.value, nameTemplate: form.elements.nameTemplate.value };
    try {
      const path = this.editing ? '/api/v1/tasks/' + encodeURIComponent(this.editing) : '/api/v1/tasks';
      await api(path, { method: this.editing ? 'PUT' : 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      this.message('ok', 'Accepted: the samples job applies "' + body.id + '" and labels new samples; it is listed once stored.');
    } catch (e) { this.message('error', e.message); }
  },

  async remove(t) {
    if (!confirm('Delete task ' + t.id + '?')) return;
    try { await api('/api/v1/tasks/' + encodeURIComponent(t.id), { method: 'DELETE' }); this.message('ok', 'Deletion of "' + t.id + '" accepted.'); }
    catch (e) { this.message('error', e.message); }
  },

  async metrics() {
    const p = scope(S, selection(S)); p.set('by', 'method'); p.set('top', '25');
    try {
      const r = await api('/api/v1/metrics/top?' + p);
      $('task-metric-head').replaceChildren(el('b', { id: 'task-samples' }, fmt.n(r.totalSamples)), ' samples in task ' + r.tasks.join(', ') + ' · ' + r.methodCount + ' methods; method time relative to the task roots:');
      $('task-metrics').replaceChildren(el('thead', {}, el('tr', {}, el('th', {}, 'Method'), el('th', { class: 'num' }, 'Method samples'), el('th', { class: 'num' }, 'Method time'), el('th', { class: 'num' }, 'Self samples'))),
        el('tbody', {}, ...r.methods.map(m => el('tr', {}, el('td', { class: 'name' }, m.method), el('td', { class: 'num' }, fmt.of(m.methodSamples, r.totalSamples)), el('td', { class: 'num' }, fmt.pct(m.methodTime)), el('td', { class: 'num' }, fmt.n(m.selfSamples))))));
    } catch (e) {
      $('task-metric-head').textContent = e.message;
      $('task-metrics').replaceChildren();
    }
  },
};

App.start();
