// Status: versions and counts, the last reload and its errors, readiness, and the admin
// store (and, for a shared store, whether this replica reaches it).
import { call, metricsText, samples } from './api.js';
import { el, badge, facts } from './dom.js';

export async function render(page, context) {
  const [{ json: status }, ready, metrics] = await Promise.all([
    call('GET', '/admin/status'),
    call('GET', '/readyz', { admin: false, accept: [503] }),
    metricsText(),
  ]);
  const reload = status.lastReload;
  const storeUp = samples(metrics, 'switchboard_store_up')[0];
  const probe = samples(metrics, 'switchboard_store_probe_duration_seconds')[0];
  const reached = samples(metrics, 'switchboard_store_last_reachable_timestamp_seconds')[0];
  const build = samples(metrics, 'switchboard_build_info')[0];
  const isReady = ready.status === 200;
  const sum = (name, filter = () => true) => samples(metrics, name).filter(filter).reduce((total, s) => total + s.value, 0);
  const resolves = sum('switchboard_http_requests_total', (s) => s.labels.endpoint === 'resolve');
  const cacheHits = sum('switchboard_resolve_cache_requests_total', (s) => s.labels.result === 'hit');
  const cacheAll = sum('switchboard_resolve_cache_requests_total');
  const sampled = samples(metrics, 'switchboard_traffic_sample_urls')[0];
  const sampleBytes = samples(metrics, 'switchboard_traffic_sample_bytes')[0];

  const store = storeUp
    ? facts([
      ['Kind', `${storeUp.labels.store} (shared by replicas)`],
      ['Reachable', badge(storeUp.value === 1 ? 'yes' : 'no', storeUp.value === 1 ? 'ok' : 'bad')],
      ['Last probe', probe ? `${(probe.value * 1000).toFixed(1)} ms` : ''],
      ['Last reached', reached && reached.value > 0 ? new Date(reached.value * 1000).toISOString() : 'not since start'],
    ])
    : facts([['Kind', 'file (this server only)']]);

  page.append(
    el('h1', {}, 'Status'),
    el('div', { class: 'cards' },
      el('div', { class: 'card', id: 'status-state' }, el('h2', {}, 'State'), facts([
        ['Ready', badge(isReady ? 'ready' : 'not ready', isReady ? 'ok' : 'bad')],
        ['Admin version', String(status.version)],
        ['Routes', status.routes.toLocaleString()],
        ['Rules', status.rules.toLocaleString()],
        ['Admin rules', String(status.adminRules)],
        ['Admin routes', String(status.adminRoutes)],
        ['Build', build ? build.labels.version : ''],
        ['Started', status.startedAt],
        ['Snapshot built', status.snapshotBuiltAt],
        ['Config directory', el('span', { class: 'mono' }, status.configDirectory)],
      ])),
      el('div', { class: 'card', id: 'status-reload' }, el('h2', {}, 'Last reload'), facts([
        ['Result', badge(reload.ok ? 'ok' : 'failed', reload.ok ? 'ok' : 'bad')],
        ['When', reload.time],
        ['Trigger', reload.trigger],
        ['Errors', reload.errors.length ? el('ul', { class: 'errors' }, reload.errors.map((text) => el('li', { class: 'mono small' }, text))) : 'none'],
        ['Restart to apply', reload.restartRequired.join(', ')],
      ])),
      el('div', { class: 'card', id: 'status-store' }, el('h2', {}, 'Admin store'), store),
      el('div', { class: 'card', id: 'status-traffic' }, el('h2', {}, 'Traffic since start'), facts([
        ['Resolves', resolves.toLocaleString()],
        ['Resolve cache', cacheAll > 0 ? `${((100 * cacheHits) / cacheAll).toFixed(1)}% answered from the cache` : 'no cacheable request yet'],
        ['Rule errors', sum('switchboard_rule_errors_total').toLocaleString()],
        ['Regex limit hits', (sum('switchboard_rule_limit_hits_total') + sum('switchboard_route_constraint_limit_hits_total')).toLocaleString()],
        ['Traffic sample', sampled ? `${sampled.value.toLocaleString()} URLs (${Math.ceil((sampleBytes ? sampleBytes.value : 0) / 1024)} KiB) for previews` : 'off'],
      ]))));
  page.dataset.loaded = String(Date.now());
  if (!reload.ok) context.notify('The last reload failed: the server keeps serving the config before it.', 'error');
}
