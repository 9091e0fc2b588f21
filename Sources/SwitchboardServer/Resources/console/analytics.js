// Analytics: resolutions over time (a chart drawn here as inline SVG: no third-party script),
// the top routes and rules with their trend, and the links nothing matched, each with a
// "make a rule for this" that opens the rule editor with the link filled in, previewed.
import { call } from './api.js';
import { el, clear } from './dom.js';

const svgNS = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes (geometry only: the style sheet colours it). */
function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) {
    if (child) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Every bucket's start from `from` up to `to`, `step` seconds apart. */
function bucketStarts(from, to, step) {
  const starts = [];
  for (let time = Date.parse(from); time < Date.parse(to); time += step * 1000) starts.push(time);
  return starts;
}

/** Counts per bucket start (ms), zero where a bucket has none. */
function series(points, starts) {
  const byStart = new Map(points.map((point) => [Date.parse(point.start), point.count]));
  return starts.map((start) => byStart.get(start) || 0);
}

/** A bar chart of `values` (one bar per bucket), with the largest value and the range as labels. */
function chart(values, starts, { width = 720, height = 160, id, label }) {
  const max = Math.max(1, ...values);
  const gap = values.length > 60 ? 0 : 1;
  const barWidth = width / Math.max(1, values.length);
  const plot = height - 20;
  const bars = values.map((value, index) => {
    const barHeight = Math.round((value / max) * plot);
    return svg('rect', {
      class: 'bar', x: (index * barWidth).toFixed(2), y: plot - barHeight, width: Math.max(0.5, barWidth - gap).toFixed(2),
      height: barHeight, 'data-count': value,
    }, svg('title', {}, `${new Date(starts[index]).toISOString()}: ${value}`));
  });
  const first = starts.length ? new Date(starts[0]).toISOString().slice(0, 16).replace('T', ' ') : '';
  const last = starts.length ? new Date(starts[starts.length - 1]).toISOString().slice(0, 16).replace('T', ' ') : '';
  return svg('svg', { id, class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    svg('line', { class: 'axis', x1: 0, y1: plot, x2: width, y2: plot }),
    ...bars,
    svg('text', { class: 'label', x: 0, y: height - 4 }, first),
    svg('text', { class: 'label', x: width, y: height - 4, 'text-anchor': 'end' }, last),
    svg('text', { class: 'label', x: 2, y: 12 }, `max ${max.toLocaleString()}`));
}

/** A small line of `values`, for a key's trend. */
function sparkline(values) {
  const width = 120;
  const height = 24;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / max) * (height - 4)).toFixed(1)}`);
  return svg('svg', { class: 'spark', viewBox: `0 0 ${width} ${height}`, width, height },
    svg('polyline', { points: points.join(' ') }));
}

/** The trend of `values`: the second half against the first, in words. */
function trend(values) {
  const half = Math.floor(values.length / 2);
  const before = values.slice(0, half).reduce((sum, value) => sum + value, 0);
  const after = values.slice(half).reduce((sum, value) => sum + value, 0);
  if (before === 0) return after > 0 ? 'new' : '—';
  const change = Math.round(((after - before) / before) * 100);
  return `${change > 0 ? '+' : ''}${change}%`;
}

/** A regular expression that matches the links of `link`'s shape: a value reduced to its shape
 * (`XX00`) matches any value; everything else literally. */
export function shapePattern(link) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const hash = link.indexOf('#');
  const beforeHash = hash < 0 ? link : link.slice(0, hash);
  const question = beforeHash.indexOf('?');
  if (question < 0) return `^${escape(link)}$`;
  const pairs = beforeHash.slice(question + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals < 0) return escape(pair);
    const value = pair.slice(equals + 1);
    const shaped = /^[Xx0_.:-]+$/.test(value) && /[Xx0_]/.test(value);
    return `${escape(pair.slice(0, equals))}=${shaped ? '[^&#]*' : escape(value)}`;
  });
  return `^${escape(beforeHash.slice(0, question))}\\?${pairs.join('&')}${hash < 0 ? '' : '(#.*)?'}$`;
}

/** The draft of a rule for an orphan link: its shape as the match, the link without its query
 * as a first target to edit. */
function ruleDraft(link) {
  const path = link.split(/[?#]/)[0];
  const slug = path.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();
  return { id: `orphan-${slug || 'link'}`.slice(0, 64), match: shapePattern(link), target: path };
}

function keyTable(id, title, answer, starts) {
  const rows = answer.keys.map((key) => {
    const values = series(key.counts, starts);
    return el('tr', { 'data-key': key.key },
      el('td', { class: 'mono' }, key.key),
      el('td', { class: 'number' }, key.total.toLocaleString()),
      el('td', {}, sparkline(values)),
      el('td', { class: 'number' }, trend(values)));
  });
  return el('div', { class: 'card' }, el('h2', {}, title),
    rows.length
      ? el('table', { id }, el('thead', {}, el('tr', {}, ['Key', 'Resolutions', 'Over time', 'Trend'].map((name) => el('th', {}, name)))),
        el('tbody', {}, rows))
      : el('p', { class: 'muted' }, 'Nothing counted in this range.'));
}

export async function render(page, context) {
  const range = el('select', { id: 'analytics-range' },
    el('option', { value: '1' }, 'Last day'), el('option', { value: '7' }, 'Last 7 days'), el('option', { value: '30' }, 'Last 30 days'));
  const body = el('div', { id: 'analytics-body' });

  async function load() {
    const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - Number(range.value) * 86_400_000);
    const query = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    const [status, routes, rules, orphans] = await Promise.all([
      call('GET', `/admin/analytics?by=status&${query}`),
      call('GET', `/admin/analytics?by=route&limit=10&${query}`),
      call('GET', `/admin/analytics?by=rule&limit=10&${query}`),
      call('GET', `/admin/analytics/orphans?limit=20&${query}`),
    ]);
    const step = status.json.bucket === 'day' ? 86_400 : 3_600;
    const starts = bucketStarts(status.json.from, status.json.to, step);
    clear(body);
    body.append(
      el('div', { class: 'card' },
        el('h2', {}, `Resolutions per ${status.json.bucket}: ${status.json.total.toLocaleString()}`),
        chart(series(status.json.totals, starts), starts, { id: 'analytics-chart', label: 'Resolutions over time' })),
      el('div', { class: 'cards' },
        keyTable('analytics-routes', 'Top routes', routes.json, starts),
        keyTable('analytics-rules', 'Top rules', rules.json, starts)),
      el('div', { class: 'card' }, el('h2', {}, 'Links nothing matched'),
        el('p', { class: 'muted' }, 'Redacted as the traffic sample is: identifying values show as their shape (XX00).'),
        orphans.json.orphans.length
          ? el('table', { id: 'analytics-orphans' },
            el('thead', {}, el('tr', {}, ['Link', 'Asked', 'Last seen', ''].map((name) => el('th', {}, name)))),
            el('tbody', {}, orphans.json.orphans.map((orphan) => el('tr', { 'data-link': orphan.link },
              el('td', { class: 'mono url' }, orphan.link),
              el('td', { class: 'number' }, orphan.count.toLocaleString()),
              el('td', { class: 'small' }, orphan.last_seen),
              el('td', { class: 'actions' }, el('button', {
                type: 'button', class: 'quiet small', 'data-make-rule': orphan.link,
                onclick: () => context.openRuleDraft(ruleDraft(orphan.link)),
              }, 'Make a rule for this'))))))
          : el('p', { class: 'muted' }, 'No unmatched links in this range.')));
    page.dataset.loaded = String(Date.now());
  }

  range.addEventListener('change', () => load().catch((error) => context.notify(context.describe(error), 'error')));
  page.append(el('div', { class: 'heading' }, el('h1', {}, 'Analytics'), range), body);
  await load();
}
