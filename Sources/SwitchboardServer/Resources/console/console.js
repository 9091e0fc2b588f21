// The console's shell: sign in, the navigation between pages, and notices.
import { call, token, setToken, forgetToken, onUnauthorized, APIError } from './api.js';
import { clear } from './dom.js';
import * as routes from './routes.js';
import * as rules from './rules.js';
import * as tryLink from './try.js';
import * as history from './history.js';
import * as status from './status.js';
import * as analytics from './analytics.js';

const pages = { routes, rules, analytics, try: tryLink, history, status };
const byID = (id) => document.getElementById(id);

/** Shows a notice under the bar; `kind` is `ok` or `error`. */
function notify(message, kind = 'ok') {
  const notice = byID('notice');
  notice.textContent = message;
  notice.className = `notice ${kind}`;
  notice.hidden = !message;
}

/** A message for a failed call, with what the server said. */
function describe(error) {
  if (error instanceof APIError) {
    const issues = error.issues.map((issue) => issue.message).join('; ');
    return `${error.status} ${error.code}: ${error.message}${issues ? ` (${issues})` : ''}`;
  }
  return String(error && error.message ? error.message : error);
}

// A rule drafted on another page (Analytics' "make a rule for this"), opened by the Rules page.
let ruleDraft = null;

const context = {
  notify,
  describe,
  go: (page) => { location.hash = `#${page}`; },
  openRuleDraft: (draft) => {
    ruleDraft = draft;
    location.hash = '#rules';
  },
  takeRuleDraft: () => {
    const draft = ruleDraft;
    ruleDraft = null;
    return draft;
  },
};

function signedIn(yes) {
  byID('login').hidden = yes;
  byID('nav').hidden = !yes;
  byID('sign-out').hidden = !yes;
  if (!yes) {
    clear(byID('page'));
    byID('token').focus();
  }
}

async function show() {
  if (!token()) {
    signedIn(false);
    return;
  }
  signedIn(true);
  const name = location.hash.slice(1) in pages ? location.hash.slice(1) : 'routes';
  for (const link of document.querySelectorAll('#nav a')) {
    link.classList.toggle('current', link.dataset.page === name);
  }
  const page = clear(byID('page'));
  for (const key of Object.keys(page.dataset)) delete page.dataset[key];
  page.dataset.page = name;
  notify('');
  try {
    await pages[name].render(page, context);
  } catch (error) {
    notify(describe(error), 'error');
  }
}

async function signIn(event) {
  event.preventDefault();
  const value = byID('token').value.trim();
  const problem = byID('login-error');
  problem.hidden = true;
  setToken(value);
  try {
    await call('GET', '/admin/status');
    byID('token').value = '';
    await show();
  } catch (error) {
    forgetToken();
    problem.textContent = error instanceof APIError && error.status === 401 ? 'That token is not accepted.' : describe(error);
    problem.hidden = false;
  }
}

function signOut() {
  forgetToken();
  notify('');
  signedIn(false);
}

onUnauthorized(() => {
  forgetToken();
  signedIn(false);
  const problem = byID('login-error');
  problem.textContent = 'The server refused the token: sign in again.';
  problem.hidden = false;
});

byID('login-form').addEventListener('submit', signIn);
byID('sign-out').addEventListener('click', signOut);
window.addEventListener('hashchange', show);
show();
