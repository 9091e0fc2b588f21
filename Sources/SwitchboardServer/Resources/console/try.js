// Try a link: a URL and the asking app's context, resolved with explain (POST /resolve, which
// takes a time), and the trace drawn as the rule pass and the router's walk.
import { call } from './api.js';
import { el, clear, badge, facts, compact, field } from './dom.js';

const ruleKinds = { fired: 'ok', noMatch: 'muted', conditionFalse: 'warn', skippedByPrefilter: 'muted', error: 'bad' };

function stepKind(outcome) {
  if (/match|enter|accept|end/i.test(outcome) && !/no|refus|mismatch/i.test(outcome)) return 'ok';
  if (/backtrack/i.test(outcome)) return 'warn';
  return 'muted';
}

export async function render(page, context) {
  const url = el('input', { id: 'try-url', type: 'text', required: true, placeholder: 'shopapp://product/42' });
  const platform = el('select', { id: 'try-platform' },
    el('option', { value: '' }, 'any'), ['ios', 'android', 'web'].map((name) => el('option', { value: name }, name)));
  const appVersion = el('input', { id: 'try-app-version', placeholder: '5.2.0' });
  const device = el('input', { id: 'try-device', placeholder: 'device id' });
  const time = el('input', { id: 'try-time', type: 'datetime-local', step: 1 });
  const result = el('div', { id: 'try-result' });
  const form = el('form', { id: 'try-form', class: 'card' },
    el('div', { class: 'try-grid' }, field('URL', url), field('Platform', platform), field('App version', appVersion),
      field('Device', device), field('Time (empty: now)', time),
      el('button', { type: 'submit', id: 'try-go' }, 'Resolve and explain')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const item = { url: url.value.trim() };
    if (platform.value) item.platform = platform.value;
    if (appVersion.value.trim()) item.appVersion = appVersion.value.trim();
    if (device.value.trim()) item.device = device.value.trim();
    if (time.value) item.at = new Date(time.value).toISOString().replace(/\.\d{3}Z$/, 'Z');
    try {
      const { json } = await call('POST', '/resolve?explain=1', { body: { urls: [item] }, admin: false });
      clear(result);
      draw(result, json.results[0]);
      page.dataset.resolved = String(Date.now());
    } catch (error) {
      context.notify(context.describe(error), 'error');
    }
  });
  page.append(el('h1', {}, 'Try a link'), form, result);
  url.focus();
}

function draw(host, answer) {
  if (answer.error) {
    host.append(el('p', { class: 'error', id: 'try-error' }, answer.error.message));
    return;
  }
  const head = answer.matched
    ? el('div', { class: 'verdict ok', id: 'try-verdict' }, badge('matched', 'ok'), ' ', el('span', { class: 'mono' }, answer.routeId))
    : el('div', { class: 'verdict', id: 'try-verdict' }, badge('no route', 'warn'),
      answer.fallback ? el('span', { class: 'mono' }, ` fallback ${answer.fallback}`) : '');
  const columns = el('div', { class: 'try-columns' });
  host.append(columns);
  columns.append(el('div', { class: 'card' }, head, facts([
    ['URL', el('span', { class: 'mono' }, answer.url)],
    ['Rewritten to', answer.rewrittenURL ? el('span', { class: 'mono', id: 'try-rewritten' }, answer.rewrittenURL) : ''],
    ['Rules fired', (answer.ruleIds || []).join(', ')],
    ['Module', answer.module],
    ['Pattern', answer.pattern ? el('span', { class: 'mono' }, answer.pattern) : ''],
    ['Target', answer.target ? el('span', { class: 'mono' }, compact(answer.target)) : ''],
    ['Params', answer.params && Object.keys(answer.params).length ? el('span', { class: 'mono' }, compact(answer.params)) : ''],
    ['Web URL', answer.webURL ? el('span', { class: 'mono' }, answer.webURL) : ''],
    ['Open web', answer.openWeb ? 'yes: the app is older than the route needs' : ''],
  ])));
  const trace = answer.trace;
  if (!trace) return;
  columns.append(el('div', { class: 'card', id: 'trace-rules' }, el('h2', {}, '1. Rule pass'),
    trace.rules.length === 0 ? el('p', { class: 'muted' }, 'No rule was tried.') : el('ol', { class: 'steps' },
      trace.rules.map((rule) => el('li', { class: `step ${rule.result}`, 'data-rule': rule.id, 'data-result': rule.result },
        el('div', {}, badge(rule.result, ruleKinds[rule.result] || 'muted'), ' ', el('span', { class: 'mono' }, rule.id)),
        el('div', { class: 'small muted' }, rule.reason),
        rule.output ? el('div', { class: 'small mono' }, rule.input, ' → ', el('strong', {}, rule.output)) : null)))));
  const router = trace.router;
  const walk = el('ol', { class: 'walk' }, router.steps.map((step) => el('li', {
    class: 'walk-step', 'data-outcome': step.outcome, 'data-depth': String(step.depth), 'data-indent': String(Math.min(step.depth, 12)),
  },
  el('span', { class: 'mono segment' }, step.segment === undefined ? '(end)' : `/${step.segment}`), ' ',
  el('span', { class: 'mono branch' }, step.branch), ' ', badge(step.outcome, stepKind(step.outcome)))));
  columns.append(el('div', { class: 'card', id: 'trace-router' }, el('h2', {}, '2. Trie walk'),
    facts([
      ['Routed URL', el('span', { class: 'mono' }, router.url)],
      ['App link', router.isAppLink ? 'yes' : 'no'],
      ['Segments', router.segments.map((s) => el('span', { class: 'chip mono' }, s))],
    ]),
    walk,
    router.routeId
      ? el('p', { class: 'verdict ok', id: 'trace-route' }, badge('route', 'ok'), ' ', el('span', { class: 'mono' }, router.routeId), ' ',
        el('span', { class: 'mono muted' }, router.pattern || ''))
      : el('p', { class: 'verdict', id: 'trace-route' }, badge('no route', 'warn'), ' ', router.error || '')));
}
