// The account area of the site's header, on every page: "Log in" and
// "Sign up", each a dialog asking a username and a password, or, when
// logged in, the bell of the notifications (notifications.js), the
// username and "Log out". The session is an HttpOnly
// cookie: no script sees it; the page asks the server who it is.

import * as api from './api.js';
import { $, h, playerLink, showMessage } from './dom.js';
import { lang, t } from './i18n.js';
import { applyPrefs, readerPrefs } from './settings.js';
import { bell } from './notifications.js';

/** The username rules of the server (docs/api.md), checked before sending. */
export const usernameLimits = { min: 3, max: 20, pattern: /^[A-Za-z][A-Za-z0-9_-]*$/ };

/** The password lengths of the server, in characters. */
export const passwordLimits = { min: 8, max: 256 };

/**
 * accountRequest is the body of a signup or a login ("signup" or "login")
 * from the form's values {username, password}: {body}, or {error} saying
 * what to fix before sending. A login is checked less: the server says
 * whether it is right, and an old account may predate a rule.
 */
export function accountRequest(kind, f) {
  const username = f.username.trim();
  const password = f.password;
  if (!username) return { error: t('account.give_username') };
  if (!password) return { error: t('account.give_password') };
  if (kind === 'signup') {
    const { min, max, pattern } = usernameLimits;
    if (username.length < min || username.length > max) {
      return { error: t('account.username_length', { min, max }) };
    }
    if (!/^[A-Za-z]/.test(username)) return { error: t('account.username_start') };
    if (!pattern.test(username)) return { error: t('account.username_chars') };
    const n = [...password].length;
    if (n < passwordLimits.min) return { error: t('account.password_short', { n: passwordLimits.min }) };
    if (n > passwordLimits.max) return { error: t('account.password_long', { n: passwordLimits.max }) };
  }
  return { body: { username, password } };
}

const words = {
  login: { title: 'account.log_in', submit: 'account.log_in', password: 'current-password' },
  signup: { title: 'account.sign_up', submit: 'account.create', password: 'new-password' },
};

/**
 * accountArea fills the header's #account and keeps it up to date;
 * onChange(user) runs after each login or logout (user null), for a page
 * that shows things by who is looking. A login into an account that chose
 * another language than the page's loads the page again, in that one; a
 * login or a logout shows the page in the colours, board and sound of the
 * reader it leaves (settings.js).
 */
export function accountArea(onChange = () => {}) {
  const area = $('#account');
  if (!area) return;
  let kind = 'login';

  const username = h('input', {
    name: 'username', 'data-testid': 'account-username', required: true, autocomplete: 'username',
    maxlength: usernameLimits.max, spellcheck: 'false', autocapitalize: 'off',
  });
  const password = h('input', {
    name: 'password', type: 'password', 'data-testid': 'account-password', required: true,
    maxlength: passwordLimits.max,
  });
  const title = h('h2', { id: 'account-title' });
  const note = h('p', { class: 'muted small' });
  const msg = h('p', { class: 'message', 'data-testid': 'account-message', role: 'alert', 'aria-live': 'assertive' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'account-submit' });
  const cancel = h('button', { type: 'button', 'data-testid': 'account-cancel', onclick: () => dialog.close() }, t('common.cancel'));
  const form = h('form', { novalidate: true },
    title, note,
    h('label', { class: 'field' }, h('span', {}, t('account.username')), username),
    h('label', { class: 'field' }, h('span', {}, t('account.password')), password),
    msg,
    h('div', { class: 'actions' }, submit, cancel));
  const dialog = h('dialog', { class: 'account-dialog', 'data-testid': 'account-dialog', 'aria-labelledby': 'account-title' }, form);
  document.body.append(dialog);

  const open = (k) => {
    kind = k;
    title.textContent = t(words[k].title);
    submit.textContent = t(words[k].submit);
    password.autocomplete = words[k].password;
    note.textContent = k === 'signup'
      ? t('account.signup_note', { min: usernameLimits.min, max: usernameLimits.max, n: passwordLimits.min })
      : '';
    password.value = '';
    showMessage(msg, '');
    dialog.showModal();
    username.focus();
  };

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const req = accountRequest(kind, { username: username.value, password: password.value });
    if (req.error) {
      showMessage(msg, req.error);
      return;
    }
    submit.disabled = true;
    try {
      const user = await (kind === 'signup' ? api.signup(req.body) : api.login(req.body));
      password.value = '';
      dialog.close();
      if (user.lang && user.lang !== lang()) {
        location.reload();
        return;
      }
      applyPrefs(readerPrefs(document.cookie, user));
      show(user);
      onChange(user);
    } catch (e) {
      showMessage(msg, e.message);
    } finally {
      submit.disabled = false;
    }
  });

  const failed = h('span', { class: 'message', role: 'alert' });
  const show = (user) => {
    showMessage(failed, '');
    if (user) {
      area.replaceChildren(
        bell(),
        playerLink(user.name, true, { class: 'account-name', 'data-testid': 'account-name', title: t('account.your_page') }),
        h('button', { type: 'button', 'data-testid': 'logout', onclick: logout }, t('account.log_out')),
        failed);
    } else {
      area.replaceChildren(
        h('button', { type: 'button', 'data-testid': 'login', onclick: () => open('login') }, t('account.log_in')),
        h('button', { type: 'button', class: 'primary', 'data-testid': 'signup', onclick: () => open('signup') }, t('account.sign_up')));
    }
    area.dataset.state = user ? 'in' : 'out';
  };

  const logout = async () => {
    try {
      await api.logout();
      applyPrefs(readerPrefs(document.cookie, null));
      show(null);
      onChange(null);
    } catch (e) {
      showMessage(failed, e.message);
    }
  };

  api.me().then(show, () => show(null));
}
