// Routes: the whole routing table, a page at a time from the server (GET /admin/table), so
// that a million routes cost one page.
import { call } from './api.js';
import { el, clear, compact, field } from './dom.js';

export async function render(page, context) {
  const module = el('input', { id: 'routes-module', type: 'search', placeholder: 'every module' });
  const prefix = el('input', { id: 'routes-prefix', type: 'search', placeholder: 'any id' });
  const size = el('select', { id: 'routes-size' }, [25, 50, 100, 250].map((n) => el('option', { value: String(n), selected: n === 50 }, String(n))));
  const summary = el('p', { id: 'routes-summary', class: 'muted' });
  const body = el('tbody', { id: 'routes-rows' });
  const previous = el('button', { id: 'routes-previous', type: 'button', class: 'quiet', disabled: true }, '← Previous');
  const next = el('button', { id: 'routes-next', type: 'button', class: 'quiet', disabled: true }, 'Next →');
  // The cursors of the pages shown so far: going back reuses them.
  let cursors = ['0'];

  async function load() {
    const query = new URLSearchParams({ limit: size.value, cursor: cursors[cursors.length - 1] });
    if (module.value.trim()) query.set('module', module.value.trim());
    if (prefix.value.trim()) query.set('prefix', prefix.value.trim());
    try {
      const { json } = await call('GET', `/admin/table?${query}`);
      clear(body);
      for (const route of json.routes) body.append(row(route));
      if (json.routes.length === 0) body.append(el('tr', {}, el('td', { colspan: 8, class: 'muted' }, 'No route matches.')));
      summary.textContent = `${json.total.toLocaleString()} routes in the table (version ${json.version}); `
        + `page ${cursors.length}, ${json.routes.length} shown.`;
      previous.disabled = cursors.length === 1;
      next.disabled = json.next === undefined;
      next.dataset.cursor = json.next || '';
      page.dataset.loaded = String(Date.now());
    } catch (error) {
      context.notify(context.describe(error), 'error');
    }
  }

  const form = el('form', { id: 'routes-search', class: 'toolbar', onsubmit: (event) => {
    event.preventDefault();
    cursors = ['0'];
    load();
  } },
  field('Module', module), field('Id starts with', prefix), field('Per page', size), el('button', { type: 'submit' }, 'Search'));
  size.addEventListener('change', () => { cursors = ['0']; load(); });
  previous.addEventListener('click', () => { cursors.pop(); load(); });
  next.addEventListener('click', () => { cursors.push(next.dataset.cursor); load(); });

  page.append(
    el('h1', {}, 'Routes'),
    form,
    summary,
    el('div', { class: 'scroll' }, el('table', { id: 'routes-table' },
      el('thead', {}, el('tr', {}, ['Id', 'Module', 'Patterns', 'Target', 'Web URL', 'Hits', '/open sends', 'Source'].map((name) => el('th', {}, name)))),
      body)),
    el('div', { class: 'pager' }, previous, next),
  );
  await load();
}

function row(route) {
  return el('tr', { 'data-id': route.id },
    el('td', { class: 'mono' }, route.id),
    el('td', {}, route.module),
    el('td', { class: 'mono' }, route.patterns.map((pattern) => el('div', {}, pattern))),
    el('td', { class: 'mono small' }, compact(route.target)),
    el('td', { class: 'mono small' }, route.web || ''),
    el('td', { class: 'number' }, route.hits === undefined ? '' : route.hits.toLocaleString()),
    el('td', { class: 'small' }, opens(route.open)),
    el('td', { class: 'small muted' }, route.source));
}

// Where GET /open sends each platform for a link of the route, one line per platform.
function opens(open) {
  if (!open) return '';
  return ['ios', 'android', 'web', 'preview'].map((platform) => el('div', {}, `${platform}: ${open[platform]}`));
}
