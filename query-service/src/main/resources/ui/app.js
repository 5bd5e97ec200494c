// API access with the bearer token, the selection bar, the timeline and the render of a view (the
// state in the URL, State, and the selection's parameters are index.html's first script).
'use strict';

const $ = id => document.getElementById(id);

let S = State.read();

/** Changes the state, writes the URL and renders what changed. */
function update(changes, options) {
  S = Object.assign({}, S, changes);
  State.write(S, options && options.replace);
  const view = App.views[S.view];
  if (Object.keys(changes).every(k => k === 'q' || k === 'orient') && view && view.onSearch) {
    if ('orient' in changes) view.graph.setFlame(S.orient === 'flame');
    view.onSearch();
    return;
  }
  App.render();
}

/**
 * A request to the API ({@code timing}, when given, gets the times its answer's headers and body
 * arrived and its JSON was parsed: the paint benchmark's breakdown); asks for the bearer token on
 * 401, and for the write token on a 403 that says the token may only read, and tries again; on a
 * 503 with Retry-After (too many heavy requests at once) waits that long and tries again.
 */
async function api(path, init, timing) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const headers = Object.assign({}, (init && init.headers) || {});
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = 'Bearer ' + token;
    let response;
    try {
      response = await fetch(path, Object.assign({}, init, { headers }));
    } catch (e) {
      throw new Error('the query service cannot be reached (' + e.message + ')');
    }
    if (timing) timing.headers = performance.now();
    const text = await response.text();
    if (timing) timing.body = performance.now();
    let body = text;
    if ((response.headers.get('Content-Type') || '').includes('json')) {
      try { body = JSON.parse(text); } catch (e) { /* keep the text */ }
    }
    if (timing) timing.parsed = performance.now();
    if (response.status === 401) {
      await askToken(body && body.error ? body.error : 'the API needs a bearer token', 'auth.token');
      continue;
    }
    // a token that may only read, on a write: another token (the write token) would help
    if (response.status === 403 && /insufficient_scope/.test(response.headers.get('WWW-Authenticate') || '')) {
      await askToken(body && body.error ? body.error : 'this token may only read', 'auth.write-token, which reads too');
      continue;
    }
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status === 503 && retryAfter > 0 && attempt < 3) {
      await new Promise(resolve => setTimeout(resolve, retryAfter * 1000));
      continue;
    }
    if (!response.ok) {
      const err = new Error(body && body.error ? body.error : 'HTTP ' + response.status);
      err.status = response.status;
      throw err;
    }
    return body;
  }
  throw new Error('the bearer token was refused; reload the page to enter it again');
}

/**
 * Asks for a bearer token (which one: {@code which}) and keeps it for the browser tab's session.
 * Requests refused while the dialog is open wait for the same answer.
 */
let tokenAsked = null;
function askToken(reason, which) {
  if (tokenAsked) return tokenAsked;
  tokenAsked = new Promise(resolve => {
    const dialog = $('token-dialog');
    $('token-reason').textContent = 'The API answered: ' + reason + '. Paste the bearer token (' + which + ');'
      + ' it is kept for this browser tab only.';
    $('token-input').value = '';
    dialog.onclose = () => { sessionStorage.setItem(TOKEN_KEY, $('token-input').value.trim()); tokenAsked = null; resolve(); };
    if (!dialog.open) dialog.showModal();
  });
  return tokenAsked;
}

function setStatus(kind, text) {
  const el = $('status');
  el.className = kind ? 'show ' + kind : '';
  el.textContent = text || '';
}

/** The scope parameters (tasks or a dynamic root) for metrics endpoints. */
function scope(s, p) {
  if (s.root) p.set('root', s.root);
  else s.task.forEach(t => p.append('task', t));
  return p;
}

const MIGRATE_EXPLAINED = {
  AG: 'AG: the previous deployment\'s samples stand in for every context of a method whose bytecode did not change',
  AG_CALLER: 'AG_CALLER: as AG, and everything below a changed method is measured only',
  BA: 'BA: only what no changed method reaches stands in',
};

/** One line under the selection: what the chosen migration does and what the API made of it. */
function showMigration(m) {
  const note = $('migrate-note');
  note.hidden = !S.migrate;
  if (!S.migrate) return;
  let outcome = '';
  if (m && m.applied) outcome = fmt.pct(m.migratedShare) + ' of the samples shown migrated from ' + m.previous;
  else if (m) outcome = 'nothing migrated: ' + (m.note || (m.phasedOut ? 'phased out, the new samples suffice' : 'no previous deployment'));
  note.textContent = 'Migrate ' + MIGRATE_EXPLAINED[S.migrate] + ' (previous deployment, estimates until new samples suffice)'
    + (outcome ? ' · ' + outcome : '');
}

const fmt = {
  n: v => Number(v).toLocaleString('en-US'),
  pct: v => (100 * v).toFixed(v < 0.001 && v > 0 ? 3 : v < 0.1 ? 2 : 1) + ' %',
  of: (x, y) => fmt.n(x) + ' of ' + fmt.n(y),
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.substring(2), v);
    else if (k === 'style') e.setAttribute('style', v); else e[k] = v;
  }
  for (const c of children.flat(2)) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const Selection = {
  services: null,

  async load() {
    if (!this.services) {
      const first = early.services && await early.services; // started by index.html
      early.services = null;
      this.services = (first || await api('/api/v1/services')).services;
    }
    return this.services;
  },

  service() { return (this.services || []).find(x => x.name === S.service); },

  fill() {
    const services = this.services;
    const sel = $('service');
    sel.replaceChildren(...services.map(x => el('option', { value: x.name, textContent: x.name })));
    sel.value = S.service;
    const svc = this.service();
    const dep = $('deployment');
    dep.replaceChildren(el('option', { value: '', textContent: 'all deployments' }),
      ...svc.versions.map(v => el('option', { value: v.version,
        textContent: v.version + '  (' + v.firstSample.substring(0, 16).replace('T', ' ') + ' → ' + v.lastSample.substring(11, 16) + ')' })));
    dep.value = S.version || '';
    const instances = svc.versions.filter(v => !S.version || v.version === S.version).flatMap(v => v.instances);
    $('instances').replaceChildren(...instances.map(i => el('label', {},
      el('input', { type: 'checkbox', value: i.instanceId, checked: S.instance.includes(i.instanceId),
        onchange: () => update({ instance: [...$('instances').querySelectorAll('input:checked')].map(c => c.value), node: '' }) }),
      ' ' + i.instanceId + ' ', el('small', {}, i.host + ' ' + Object.entries(i.labels || {}).map(([k, v]) => k + '=' + v).join(' ')))));
    $('instances-summary').textContent = S.instance.length ? S.instance.length + ' of ' + instances.length + ' instances' : 'All ' + instances.length + ' instances';
    $('label').value = S.label.join(',');
    $('from').value = S.from || '';
    $('to').value = S.to || '';
    $('scope-kind').value = S.root ? 'root' : S.task.length ? 'tasks' : 'whole';
    $('scope-value').hidden = $('scope-kind').value === 'whole';
    $('scope-value').placeholder = S.root ? 'fully.qualified.Class.method' : 'task names, comma-separated';
    $('scope-value').value = S.root || S.task.join(',');
    $('migrate').value = S.migrate || '';
  },

  bind() {
    $('service').onchange = e => update({ service: e.target.value, version: '', instance: [], from: '', to: '', node: '', method: '', a: '', b: '', 'a.instance': [], 'b.instance': [], 'a.from': '', 'a.to': '', 'b.from': '', 'b.to': '' });
    $('deployment').onchange = e => update({ version: e.target.value, instance: [], from: '', to: '', node: '' });
    $('label').onchange = e => update({ label: e.target.value.split(',').map(x => x.trim()).filter(Boolean), node: '' });
    $('from').onchange = e => update({ from: e.target.value.trim(), node: '' });
    $('to').onchange = e => update({ to: e.target.value.trim(), node: '' });
    $('scope-kind').onchange = e => { $('scope-value').hidden = e.target.value === 'whole'; if (e.target.value === 'whole') update({ task: [], root: '' }); else $('scope-value').focus(); };
    $('scope-value').onchange = e => {
      const v = e.target.value.trim();
      if ($('scope-kind').value === 'root') update({ root: v, task: [], node: '' });
      else update({ task: v.split(',').map(x => x.trim()).filter(Boolean), root: '', node: '' });
    };
    $('migrate').onchange = e => update({ migrate: e.target.value, node: '' });
    const quick = [['15m', 15], ['1h', 60], ['6h', 360], ['24h', 1440], ['all', 0]];
    $('quick').replaceChildren(...quick.map(([label, minutes]) => el('button', { textContent: label, title: minutes ? 'the last ' + label + ' of the data' : 'the whole span of the data',
      onclick: () => {
        if (!minutes) return update({ from: '', to: '', node: '' });
        const end = Timeline.end || Date.now();
        update({ from: new Date(end - minutes * 60000).toISOString(), to: new Date(end).toISOString(), node: '' });
      } })));
  },
};

/** Samples per bucket, and the searched or viewed method's share; drag to pick a range. */
const Timeline = {
  data: null, end: 0, drag: null,

  async load() {
    const p = selection(S, false);
    const method = S.view === 'method' ? S.method : S.q && S.q.includes('(') ? S.q : '';
    if (method) p.set('method', method);
    p.set('buckets', '160');
    if (p.toString() === this.key) return this.draw(); // e.g. a zoom: the same series
    try {
      this.data = await api('/api/v1/timeline?' + p);
    } catch (e) {
      if (method && e.status === 400) { p.delete('method'); this.data = await api('/api/v1/timeline?' + p); } else throw e;
    }
    this.key = p.toString();
    const b = this.data.buckets;
    this.end = b.length ? Date.parse(b[b.length - 1].end) : 0;
    this.draw();
  },

  draw() {
    const c = $('timeline');
    const w = c.parentElement.clientWidth - 32, h = 64, dpr = window.devicePixelRatio || 1;
    c.width = w * dpr; c.height = h * dpr; c.style.width = w + 'px';
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const d = this.data;
    if (!d || !d.buckets.length) return;
    const b = d.buckets, max = Math.max(1, ...b.map(x => x.samples));
    const bw = w / b.length;
    const t0 = Date.parse(b[0].start), t1 = this.end;
    const xOf = t => (t - t0) / Math.max(1, t1 - t0) * w;
    ctx.fillStyle = '#9fb3dc';
    b.forEach((x, i) => { const bh = x.samples / max * (h - 6); ctx.fillRect(i * bw + 0.5, h - bh, Math.max(bw - 1, 1), bh); });
    if (d.method) {
      ctx.fillStyle = '#e5735c';
      b.forEach((x, i) => { const bh = x.methodSamples / max * (h - 6); ctx.fillRect(i * bw + 0.5, h - bh, Math.max(bw - 1, 1), bh); });
    }
    const from = S.from ? Date.parse(S.from) : null, to = S.to ? Date.parse(S.to) : null;
    if (from || to) {
      ctx.fillStyle = 'rgba(29,34,48,0.12)';
      const a = from ? xOf(from) : 0, z = to ? xOf(to) : w;
      ctx.fillRect(0, 0, Math.max(a, 0), h); ctx.fillRect(Math.min(z, w), 0, w - z, h);
    }
    if (this.drag) { ctx.fillStyle = 'rgba(61,111,216,0.25)'; ctx.fillRect(Math.min(this.drag.a, this.drag.b), 0, Math.abs(this.drag.b - this.drag.a), h); }
    const share = d.method ? ' · ' + d.method + ': ' + fmt.of(d.totalMethodSamples, d.totalSamples) + ' samples (red)' : '';
    $('timeline-legend').textContent = fmt.n(d.totalSamples) + ' samples, ' + b.length + ' buckets of ' + Math.round(d.bucketMillis / 1000) + ' s, '
      + d.from.substring(0, 19).replace('T', ' ') + ' → ' + d.to.substring(0, 19).replace('T', ' ') + ' UTC' + share + ' · drag to select a range';
    this.xToTime = x => new Date(t0 + x / w * (t1 - t0));
  },

  bind() {
    const c = $('timeline');
    const x = e => e.clientX - c.getBoundingClientRect().left;
    c.addEventListener('mousedown', e => { this.drag = { a: x(e), b: x(e) }; });
    window.addEventListener('mousemove', e => { if (this.drag) { this.drag.b = x(e); this.draw(); } });
    window.addEventListener('mouseup', () => {
      if (!this.drag || !this.xToTime) { this.drag = null; return; }
      const { a, b } = this.drag; this.drag = null;
      if (Math.abs(b - a) < 3) { this.draw(); return; }
      update({ from: this.xToTime(Math.min(a, b)).toISOString(), to: this.xToTime(Math.max(a, b)).toISOString(), node: '' });
    });
    window.addEventListener('resize', () => this.draw());
  },
};

const App = {
  views: {},
  async render() {
    document.querySelectorAll('#tabs a').forEach(a => a.classList.toggle('active', a.dataset.view === S.view));
    document.querySelectorAll('.view').forEach(v => v.classList.toggle('active', v.id === 'view-' + S.view));
    $('search').value = S.q || '';
    try {
      const services = await Selection.load();
      if (!services.length) {
        setStatus('empty', 'No profiles are stored yet: start an agent (or `standalone demo`) and wait for the first window to close.');
        return;
      }
      if (!S.service || !Selection.service()) { S.service = services[0].name; State.write(S, true); }
      Selection.fill();
      setStatus('loading', 'Loading…');
      if (!['flame', 'table', 'method'].includes(S.view)) showMigration(null);
      const view = this.views[S.view];
      // the view's requests first: the timeline's would share the server's cores with them
      if (view) await view.render();
      await Timeline.load();
      if ($('status').className.includes('loading')) setStatus('', '');
    } catch (e) {
      setStatus('error', e.message);
    }
    // for tests and benchmarks: how many renders have completed
    document.body.dataset.rendered = String((+document.body.dataset.rendered || 0) + 1);
  },
  start() {
    document.querySelectorAll('#tabs a').forEach(a => a.addEventListener('click', e => { e.preventDefault(); update({ view: a.dataset.view }); }));
    Selection.bind();
    Timeline.bind();
    window.addEventListener('popstate', () => { S = State.read(); App.render(); });
    document.addEventListener('keydown', e => {
      const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName);
      if (e.key === '/' && !typing) { e.preventDefault(); $('search').focus(); $('search').select(); }
      if (e.key === 'Escape') {
        if (typing) document.activeElement.blur();
        if (S.node || S.q) update({ node: '', q: '' });
        else if (this.views.flame.graph) this.views.flame.resetZoom();
      }
    });
    $('search').addEventListener('input', e => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => { update({ q: e.target.value.trim() }, { replace: true }); }, 200);
    });
    this.render();
  },
};
