// History: every admin change (who, when, what), a diff between any two versions still in
// the history, and a rollback previewed before it is applied.
import { call } from './api.js';
import { el, clear, badge, field } from './dom.js';
import { previewChange } from './preview.js';

/** What differs between two lists of items with ids: added, removed and changed items. */
function difference(before, after, id) {
  const old = new Map(before.map((item) => [id(item), item]));
  const now = new Map(after.map((item) => [id(item), item]));
  const added = after.filter((item) => !old.has(id(item)));
  const removed = before.filter((item) => !now.has(id(item)));
  const changed = after.filter((item) => old.has(id(item)) && JSON.stringify(old.get(id(item))) !== JSON.stringify(item))
    .map((item) => [old.get(id(item)), item]);
  const order = (list) => list.map(id).filter((key) => old.has(key) && now.has(key));
  const moved = JSON.stringify(order(before)) !== JSON.stringify(order(after.filter((item) => old.has(id(item)))));
  return { added, removed, changed, moved };
}

function pretty(item) {
  return JSON.stringify(item, null, 2);
}

function drawDifference(host, title, diff, id) {
  const list = el('div', { class: 'diff' });
  for (const item of diff.added) list.append(el('div', { class: 'diff-item added' }, badge('added', 'ok'), ' ', el('span', { class: 'mono' }, id(item)), el('pre', {}, pretty(item))));
  for (const item of diff.removed) list.append(el('div', { class: 'diff-item removed' }, badge('removed', 'bad'), ' ', el('span', { class: 'mono' }, id(item)), el('pre', {}, pretty(item))));
  for (const [was, now] of diff.changed) {
    list.append(el('div', { class: 'diff-item changed' }, badge('changed', 'warn'), ' ', el('span', { class: 'mono' }, id(now)),
      el('div', { class: 'sides' }, el('pre', { class: 'was' }, pretty(was)), el('pre', { class: 'becomes' }, pretty(now)))));
  }
  if (diff.moved) list.append(el('p', { class: 'small' }, badge('reordered', 'info'), ' the order differs'));
  if (!list.firstChild) list.append(el('p', { class: 'muted small' }, 'No difference.'));
  host.append(el('h3', {}, title), list);
}

export async function render(page, context) {
  const previewHost = el('div', { id: 'preview-host', hidden: true });
  const body = el('tbody', { id: 'history-rows' });
  const from = el('input', { id: 'diff-from', type: 'number', min: 0, required: true });
  const to = el('input', { id: 'diff-to', type: 'number', min: 0, required: true });
  const diffHost = el('div', { id: 'diff-result' });
  let etag = null;

  async function load() {
    const { json, etag: version } = await call('GET', '/admin/history');
    etag = version;
    clear(body);
    for (const entry of json.history) {
      body.append(el('tr', { 'data-version': String(entry.version) },
        el('td', { class: 'number' }, String(entry.version)),
        el('td', { class: 'small' }, entry.time),
        el('td', {}, entry.token),
        el('td', {}, badge(entry.action, entry.action === 'rollback' ? 'warn' : 'info'),
          entry.rollbackTo !== undefined ? ` to ${entry.rollbackTo}` : ''),
        el('td', { class: 'mono small' }, entry.ids.join(', ')),
        el('td', { class: 'number' }, `${entry.rules} / ${entry.routes}`),
        el('td', { class: 'actions' },
          el('button', { type: 'button', class: 'quiet small', onclick: () => compare(entry.version - 1, entry.version) }, 'Diff'),
          entry.version === json.version ? badge('current', 'ok')
            : el('button', { type: 'button', class: 'quiet small', 'data-rollback': String(entry.version),
              onclick: () => rollback(entry.version) }, 'Roll back to this'))));
    }
    if (json.history.length === 0) body.append(el('tr', {}, el('td', { colspan: 7, class: 'muted' }, 'No admin change yet.')));
    // Version 0, the empty state, can always be restored.
    if (json.version > 0) {
      body.append(el('tr', { 'data-version': '0' }, el('td', { class: 'number' }, '0'), el('td', { colspan: 5, class: 'muted small' }, 'the empty state: no admin rule or route'),
        el('td', { class: 'actions' }, el('button', { type: 'button', class: 'quiet small', 'data-rollback': '0', onclick: () => rollback(0) }, 'Roll back to this'))));
    }
    if (!to.value) to.value = String(json.version);
    if (!from.value) from.value = String(Math.max(0, json.version - 1));
    page.dataset.loaded = String(Date.now());
  }

  function rollback(version) {
    previewChange(previewHost, { method: 'POST', path: '/admin/rollback', body: { version }, title: `roll back to version ${version}` },
      etag, context, (applied) => { if (applied) load(); });
  }

  async function compare(a, b) {
    from.value = String(Math.max(0, a));
    to.value = String(b);
    clear(diffHost);
    try {
      const [before, after] = await Promise.all([call('GET', `/admin/history/${from.value}`), call('GET', `/admin/history/${to.value}`)]);
      diffHost.append(el('p', { class: 'muted' }, `From version ${before.json.version} to version ${after.json.version}:`));
      drawDifference(diffHost, 'Rules', difference(before.json.rules, after.json.rules, (rule) => rule.id), (rule) => rule.id);
      drawDifference(diffHost, 'Routes', difference(before.json.routes, after.json.routes, (route) => route.id), (route) => route.id);
    } catch (error) {
      context.notify(context.describe(error), 'error');
    }
  }

  const form = el('form', { id: 'diff-form', class: 'toolbar' }, field('From version', from), field('To version', to),
    el('button', { type: 'submit' }, 'Compare'));
  form.addEventListener('submit', (event) => { event.preventDefault(); compare(Number(from.value), Number(to.value)); });
  page.append(
    el('h1', {}, 'History'),
    previewHost,
    el('div', { class: 'scroll' }, el('table', { id: 'history-table' },
      el('thead', {}, el('tr', {}, ['Version', 'Time', 'By', 'Action', 'Ids', 'Rules / routes', ''].map((name) => el('th', {}, name)))),
      body)),
    el('div', { class: 'card' }, el('h2', {}, 'Compare two versions'), form, diffHost));
  await load();
}
