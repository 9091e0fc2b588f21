// Calls to the Switchboard API. The admin token lives in this tab's session storage and is
// sent as a Bearer header; it is never put in a URL or in the page.

const tokenKey = 'switchboard.adminToken';

/** The admin token of this tab, or null. */
export function token() {
  return sessionStorage.getItem(tokenKey);
}

/** Keeps `value` as this tab's admin token. */
export function setToken(value) {
  sessionStorage.setItem(tokenKey, value);
}

/** Forgets the admin token. */
export function forgetToken() {
  sessionStorage.removeItem(tokenKey);
}

/** A refusal of the API: its status, `error.code` and `error.message`, and `errors`. */
export class APIError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'http_error';
    this.issues = (body && body.errors) || [];
  }
}

const listeners = new Set();

/** Calls `listener` when the server refuses the token (401): the console signs out. */
export function onUnauthorized(listener) {
  listeners.add(listener);
}

/**
 * One API call.
 * @param {string} method
 * @param {string} path with its query
 * @param {{body?: *, ifMatch?: string, admin?: boolean, accept?: number[]}} [options]
 *   `admin` (default true) sends the token; `accept` lists the error statuses that are
 *   answers rather than refusals (a `404` of `/resolve` is "no route").
 * @returns {Promise<{status: number, etag: (string|null), json: *}>}
 */
export async function call(method, path, options = {}) {
  const headers = { Accept: 'application/json' };
  if (options.admin !== false && token()) headers.Authorization = `Bearer ${token()}`;
  if (options.ifMatch) headers['If-Match'] = options.ifMatch;
  let body;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path, { method, headers, body, credentials: 'omit', cache: 'no-store' });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (response.status === 401 && options.admin !== false) {
    for (const listener of listeners) listener();
  }
  if (!response.ok && !(options.accept || []).includes(response.status)) {
    throw new APIError(response.status, json);
  }
  return { status: response.status, etag: response.headers.get('ETag'), json };
}

/** `GET /metrics` as text. */
export async function metricsText() {
  const response = await fetch('/metrics', { credentials: 'omit', cache: 'no-store' });
  return response.ok ? response.text() : '';
}

/**
 * The samples of one metric family in a Prometheus text exposition.
 * @returns {{labels: Object<string, string>, value: number}[]}
 */
export function samples(text, name) {
  const found = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    const labels = {};
    let index = name.length;
    if (line[index] === '{') {
      index += 1;
      while (index < line.length && line[index] !== '}') {
        const equals = line.indexOf('=', index);
        const label = line.slice(index, equals);
        let value = '';
        index = equals + 2;
        while (index < line.length && line[index] !== '"') {
          if (line[index] === '\\') {
            const next = line[index + 1];
            value += next === 'n' ? '\n' : next;
            index += 2;
          } else {
            value += line[index];
            index += 1;
          }
        }
        labels[label] = value;
        index += 1;
        if (line[index] === ',') index += 1;
      }
      index += 1;
    }
    found.push({ labels, value: Number(line.slice(index).trim()) });
  }
  return found;
}

/** Path segment encoding for ids in paths (`/admin/rules/{id}`). */
export function segment(id) {
  return encodeURIComponent(id);
}
