// Rules: admin rules (run first) then config rules, in the order they run, with their hits;
// admin rules can be added, edited, deleted and moved, each change previewed before Apply.
import { call, metricsText, samples, segment } from './api.js';
import { el, clear, badge, field } from './dom.js';
import { previewChange } from './preview.js';

/** The conditions of a rule in words. */
function conditions(when) {
  if (!when) return '';
  const parts = [];
  if (when.platform) parts.push(`platform ${when.platform.join('/')}`);
  if (when.appVersion) parts.push(`app ${when.appVersion}`);
  if (when.activeFrom) parts.push(`from ${when.activeFrom}`);
  if (when.activeUntil) parts.push(`until ${when.activeUntil}`);
  if (when.percent !== undefined) parts.push(`${when.percent}% of devices`);
  return parts.join(', ');
}

export async function render(page, context) {
  const previewHost = el('div', { id: 'preview-host', hidden: true });
  const formHost = el('div', { id: 'rule-form-host' });
  const body = el('tbody', { id: 'rules-rows' });
  const summary = el('p', { class: 'muted' });
  let etag = null;
  let adminIDs = [];

  // While a change is previewed its form steps aside (Cancel brings it back as it was).
  const propose = (change) => {
    formHost.hidden = true;
    previewChange(previewHost, change, etag, context, (applied) => {
      formHost.hidden = false;
      if (applied) clear(formHost);
      load();
    });
  };

  async function load() {
    const [{ json, etag: version }, metrics] = await Promise.all([call('GET', '/admin/rules'), metricsText()]);
    etag = version;
    const hits = new Map(samples(metrics, 'switchboard_rule_hits_total').map((s) => [s.labels.rule, s.value]));
    adminIDs = json.rules.filter((rule) => rule.source === 'admin').map((rule) => rule.id);
    clear(body);
    json.rules.forEach((rule, index) => body.append(row(rule, index, hits.get(rule.id) || 0)));
    summary.textContent = `${json.rules.length} rules (${adminIDs.length} admin, run first), version ${json.version}. `
      + 'A rule with "last" stops the pass when it fires.';
    page.dataset.loaded = String(Date.now());
  }

  function row(rule, index, hits) {
    const admin = rule.source === 'admin';
    const position = adminIDs.indexOf(rule.id);
    const actions = admin ? el('td', { class: 'actions' },
      el('button', { type: 'button', class: 'quiet small', title: 'Move up', disabled: position === 0,
        onclick: () => propose({ method: 'PATCH', path: `/admin/rules/${segment(rule.id)}`, body: { before: adminIDs[position - 1] },
          title: `move ${rule.id} up` }) }, '↑'),
      el('button', { type: 'button', class: 'quiet small', title: 'Move down', disabled: position === adminIDs.length - 1,
        onclick: () => propose({ method: 'PATCH', path: `/admin/rules/${segment(rule.id)}`, body: { after: adminIDs[position + 1] },
          title: `move ${rule.id} down` }) }, '↓'),
      el('button', { type: 'button', class: 'quiet small', 'data-edit': rule.id, onclick: () => editForm(rule) }, 'Edit'),
      el('button', { type: 'button', class: 'quiet small danger', 'data-delete': rule.id,
        onclick: () => propose({ method: 'DELETE', path: `/admin/rules/${segment(rule.id)}`, title: `delete rule ${rule.id}` }) },
      'Delete'))
      : el('td', { class: 'small muted' }, 'rewrites.yaml');
    return el('tr', { 'data-id': rule.id },
      el('td', { class: 'number' }, String(index + 1)),
      el('td', { class: 'mono' }, rule.id),
      el('td', {}, badge(rule.source, admin ? 'info' : 'muted')),
      el('td', { class: 'mono small' }, rule.match),
      el('td', { class: 'mono small' }, rule.target),
      el('td', { class: 'small' }, conditions(rule.when), rule.last === false ? el('div', { class: 'muted' }, 'continues') : null),
      el('td', { class: 'number' }, hits.toLocaleString()),
      actions);
  }

  /** The add or edit form; `rule` is the admin rule edited, or undefined for a new one, then
   * filled with `draft` (an id, match and target) when given. */
  function editForm(rule, draft) {
    clear(formHost);
    const id = el('input', { id: 'rule-id', required: true, value: rule ? rule.id : '', disabled: Boolean(rule), placeholder: 'double11-degrade' });
    const match = el('input', { id: 'rule-match', required: true, value: rule ? rule.match : '', placeholder: '^shopapp://product/(\\d+)' });
    const target = el('input', { id: 'rule-target', required: true, value: rule ? rule.target : '', placeholder: 'shopapp://promo/double11?item=$1' });
    const when = (rule && rule.when) || {};
    const platform = el('input', { id: 'rule-platform', value: (when.platform || []).join(','), placeholder: 'ios,android' });
    const appVersion = el('input', { id: 'rule-app-version', value: when.appVersion || '', placeholder: '>=5.2.0 <6' });
    const activeFrom = el('input', { id: 'rule-active-from', value: when.activeFrom || '', placeholder: '2026-11-11T00:00:00+08:00' });
    const activeUntil = el('input', { id: 'rule-active-until', value: when.activeUntil || '', placeholder: '2026-11-12T00:00:00+08:00' });
    const percent = el('input', { id: 'rule-percent', type: 'number', min: 0, max: 100, step: 'any', value: when.percent ?? '' });
    const last = el('input', { id: 'rule-last', type: 'checkbox', checked: !rule || rule.last !== false });
    const form = el('form', { id: 'rule-form', class: 'card' },
      el('h2', {}, rule ? `Edit rule ${rule.id}` : 'Add a rule'),
      el('div', { class: 'grid' },
        field('Id', id), field('Match (PCRE2)', match), field('Target', target),
        field('Platforms', platform), field('App version', appVersion), field('Percent of devices', percent),
        field('Active from', activeFrom), field('Active until', activeUntil),
        el('label', { class: 'check' }, last, ' Last: stop the pass when it fires')),
      el('div', { class: 'actions' },
        el('button', { type: 'submit', id: 'rule-preview' }, 'Preview impact'),
        el('button', { type: 'button', class: 'quiet', onclick: () => clear(formHost) }, 'Cancel')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = { id: id.value.trim(), match: match.value, target: target.value };
      if (!last.checked) body.last = false;
      const condition = {};
      const platforms = platform.value.split(',').map((p) => p.trim()).filter(Boolean);
      if (platforms.length) condition.platform = platforms;
      if (appVersion.value.trim()) condition.appVersion = appVersion.value.trim();
      if (activeFrom.value.trim()) condition.activeFrom = activeFrom.value.trim();
      if (activeUntil.value.trim()) condition.activeUntil = activeUntil.value.trim();
      if (percent.value !== '') condition.percent = Number(percent.value);
      if (Object.keys(condition).length) body.when = condition;
      if (rule && rule.examples) body.examples = rule.examples;
      const change = rule
        ? { method: 'PUT', path: `/admin/rules/${segment(rule.id)}`, body, title: `edit rule ${rule.id}` }
        : { method: 'POST', path: '/admin/rules', body, title: `add rule ${body.id}` };
      propose(change);
    });
    formHost.append(form);
    if (draft) {
      id.value = draft.id;
      match.value = draft.match;
      target.value = draft.target;
      form.requestSubmit();
      return;
    }
    (rule ? match : id).focus();
  }

  page.append(
    el('div', { class: 'heading' }, el('h1', {}, 'Rules'),
      el('button', { type: 'button', id: 'rule-add', onclick: () => editForm(undefined) }, 'Add a rule')),
    summary, formHost, previewHost,
    el('div', { class: 'scroll' }, el('table', { id: 'rules-table' },
      el('thead', {}, el('tr', {}, ['#', 'Id', 'Source', 'Match', 'Target', 'Conditions', 'Hits', ''].map((name) => el('th', {}, name)))),
      body)));
  await load();
  const draft = context.takeRuleDraft();
  if (draft) editForm(undefined, draft);
}
