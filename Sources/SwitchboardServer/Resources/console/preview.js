// The impact preview: a change is replayed against the server's sample of recent traffic
// (POST /admin/preview) and its effect shown before the change can be applied, with the
// version it was previewed against as If-Match.
import { call, APIError } from './api.js';
import { el, clear, badge, facts } from './dom.js';

/** Where a resolution went, in a few words: the route, the web fallback, or nothing. */
export function outcome(side) {
  if (!side) return 'nothing';
  if (side.route) return side.route;
  if (side.status === 404) return 'no route';
  return `error (${side.status})`;
}

/** A resolve body in a few words. */
function resolution(body) {
  if (!body) return '—';
  if (body.error) return `error: ${body.error.message || body.error.code}`;
  if (body.matched) {
    const via = body.rewrittenURL ? ` via ${body.rewrittenURL}` : '';
    return `${body.routeId}${via}`;
  }
  return `no route${body.fallback ? ` → ${body.fallback}` : ''}`;
}

function examples(list) {
  return el('ul', { class: 'examples' }, (list || []).map((example) => el('li', {},
    el('div', { class: 'mono url' }, example.url),
    example.before !== undefined
      ? el('div', { class: 'small' }, el('span', { class: 'was' }, resolution(example.before)), ' → ',
        el('span', { class: 'becomes' }, resolution(example.after)))
      : null)));
}

/** Draws a preview answer into `box`. */
function draw(box, answer) {
  const sample = answer.sample || {};
  const change = answer.change || {};
  box.append(facts([
    ['Sample', `${sample.urls ?? 0} recent URLs replayed in ${sample.elapsedMs ?? '?'} ms`],
    ['Change outcome', el('strong', { id: 'preview-changed' }, String(sample.changed ?? 0))],
    ['Added', (change.added || []).join(', ')],
    ['Changed', (change.changed || []).join(', ')],
    ['Removed', (change.removed || []).join(', ')],
  ]));
  const groups = answer.groups || [];
  if (groups.length === 0) {
    box.append(el('p', { class: 'muted', id: 'preview-none' }, 'No sampled link would go anywhere else.'));
  }
  for (const group of groups) {
    box.append(el('div', { class: 'group' },
      el('div', { class: 'group-head' },
        badge(String(group.count), 'info'), ' ',
        el('span', { class: 'mono' }, outcome(group.before)), ' → ', el('span', { class: 'mono becomes' }, outcome(group.after)),
        (group.rules || []).length ? el('span', { class: 'small muted' }, `  rules: ${group.rules.join(', ')}`) : null),
      examples(group.examples)));
  }
  for (const [key, label] of [['newlyFailing', 'Newly failing'], ['newlyUnmatched', 'Newly matching nothing']]) {
    const part = answer[key];
    if (part && part.count > 0) {
      box.append(el('div', { class: 'group warn-box' }, el('div', { class: 'group-head' }, badge(String(part.count), 'bad'), ` ${label}`),
        examples(part.examples.map((example) => (typeof example === 'string' ? { url: example } : example)))));
    }
  }
}

/**
 * Shows the impact of `change` in `host` with Apply and Cancel.
 * @param {HTMLElement} host
 * @param {{method: string, path: string, body: *, title: string}} change the real write
 * @param {string|null} etag the version the change was made against (`If-Match`)
 * @param {{notify: Function, describe: Function}} context
 * @param {() => void} done after Apply (or Cancel)
 */
export async function previewChange(host, change, etag, context, done) {
  clear(host);
  delete host.dataset.previewed;
  context.notify('');
  host.hidden = false;
  const box = el('div', { class: 'preview-body' }, el('p', { class: 'muted' }, 'Replaying recent traffic…'));
  const apply = el('button', { id: 'preview-apply', type: 'button', disabled: true }, 'Apply');
  const cancel = el('button', { id: 'preview-cancel', type: 'button', class: 'quiet' }, 'Cancel');
  host.append(el('div', { class: 'card preview', id: 'preview' },
    el('h2', {}, `Impact of: ${change.title}`), box, el('div', { class: 'actions' }, apply, cancel)));
  host.scrollIntoView({ block: 'nearest' });
  cancel.addEventListener('click', () => { clear(host); host.hidden = true; done(false); });
  apply.addEventListener('click', async () => {
    apply.disabled = true;
    try {
      const options = { ifMatch: etag || undefined };
      if (change.body !== undefined) options.body = change.body;
      const { etag: version } = await call(change.method, change.path, options);
      context.notify(`Applied: ${change.title}${version ? ` (version ${version.replaceAll('"', '')})` : ''}`, 'ok');
      clear(host);
      host.hidden = true;
      done(true);
    } catch (error) {
      const stale = error instanceof APIError && error.status === 412;
      context.notify(stale ? 'Someone changed the rules first: the list is reloaded; preview again.' : context.describe(error), 'error');
      if (stale) done(false); else apply.disabled = false;
    }
  });
  try {
    const request = { method: change.method, path: change.path };
    if (change.body !== undefined) request.body = change.body;
    const { json } = await call('POST', '/admin/preview?examples=5', { body: request });
    clear(box);
    draw(box, json);
    host.dataset.previewed = 'yes';
  } catch (error) {
    clear(box);
    box.append(el('p', { class: 'error', id: 'preview-error' }, `The preview failed: ${context.describe(error)}`));
  }
  apply.disabled = false;
}
