// The settings of the header, on every page: the colours (the system's,
// light or dark), the board's theme and the sounds of play. The server
// writes the reader's choices into <html> (data-theme, data-board,
// data-sound) and the style sheet and sound.js read them there; a change
// applies at once and goes to the server (POST /api/prefs), which keeps
// it in this browser's cookies and in the account logged in.

import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { soundDefault, soundOn } from './sound.js';

/** CHOICES are the values of the settings chosen from a list, the first the default, each with its label's key. */
export const CHOICES = {
  theme: { system: 'settings.theme_system', light: 'settings.theme_light', dark: 'settings.theme_dark' },
  board: { green: 'settings.board_green', wood: 'settings.board_wood', slate: 'settings.board_slate' },
};

/** PREFS are the names of the preferences: the API's fields, the attributes data-{name}, the cookies emergo_{name}. */
export const PREFS = ['theme', 'board', 'sound'];

/**
 * cookiePrefs are the preferences a cookie header (document.cookie)
 * holds: {theme, board, sound}, each "" when it holds none.
 */
export function cookiePrefs(cookie) {
  const jar = new Map(String(cookie || '').split(';').map((c) => {
    const i = c.indexOf('=');
    return i < 0 ? [c.trim(), ''] : [c.slice(0, i).trim(), c.slice(i + 1).trim()];
  }));
  return Object.fromEntries(PREFS.map((name) => [name, jar.get(`emergo_${name}`) || '']));
}

/**
 * readerPrefs are the preferences the page is shown in: user's (an
 * account of the API, or null) where it chose, else those of the
 * cookies, as the server decides when it writes a page.
 */
export function readerPrefs(cookie, user) {
  const p = cookiePrefs(cookie);
  for (const name of PREFS) if (user?.prefs?.[name]) p[name] = user.prefs[name];
  return p;
}

/**
 * applyPrefs shows the page as prefs say ({theme, board, sound}, "" for
 * one not chosen): on <html>, and in the settings' controls if drawn.
 */
export function applyPrefs(prefs) {
  const root = document.documentElement;
  for (const name of PREFS) {
    const v = prefs && prefs[name];
    if (v) root.dataset[name] = v;
    else delete root.dataset[name];
  }
  const menu = document.querySelector('[data-testid="settings"]');
  if (menu) showChoices(menu);
}

// showChoices sets the controls of the menu to what <html> says.
function showChoices(menu) {
  const d = document.documentElement.dataset;
  for (const name of Object.keys(CHOICES)) {
    menu.querySelector(`[data-pref="${name}"]`).value = d[name] || Object.keys(CHOICES[name])[0];
  }
  menu.querySelector('[data-pref="sound"]').checked = soundOn(d.sound, soundDefault());
}

// choose applies one choice at once, and sends it to be kept. A failure
// to send leaves the page as chosen: it is only not remembered.
function choose(name, value) {
  document.documentElement.dataset[name] = value;
  api.setPrefs({ [name]: value }).catch(() => {});
}

/**
 * settingsMenu puts the settings after the element given (the language
 * switch): a disclosure button, and under it the colours, the board and
 * the sound. Escape closes it.
 */
export function settingsMenu(after) {
  if (!after) return;
  const select = (name, label) => h('label', { class: 'field' },
    h('span', {}, t(label)),
    h('select', { 'data-pref': name, 'data-testid': `settings-${name}`, onchange: (e) => choose(name, e.target.value) },
      Object.entries(CHOICES[name]).map(([v, key]) => h('option', { value: v }, t(key)))));
  const sound = h('input', {
    type: 'checkbox', role: 'switch', 'data-pref': 'sound', 'data-testid': 'settings-sound',
    onchange: (e) => choose('sound', e.target.checked ? 'on' : 'off'),
  });
  const menu = h('details', { class: 'settings', 'data-testid': 'settings' },
    h('summary', { 'data-testid': 'settings-open' }, t('settings.title')),
    h('div', { class: 'settings-body' },
      select('theme', 'settings.theme'),
      select('board', 'settings.board'),
      h('label', { class: 'field check' }, sound, h('span', {}, t('settings.sound')))));
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary').focus();
  });
  after.after(menu);
  showChoices(menu);
}
