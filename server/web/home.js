// The home page, "/": a new game (against the engine or a friend), a
// record to replay, and the recent games.

import * as api from './api.js';
import { $, botTag, h, nameText, showMessage } from './dom.js';
import { formatDate, t } from './i18n.js';
import { newGamePrefs, storedName, storeName, storeNewGamePrefs } from './prefs.js';
import { quickPairing } from './pools.js';
import { uploadFile } from './upload.js';

/** modeKeys are the messages naming the kinds of game in the list. */
const modeKeys = { engine: 'list.kind_engine', friend: 'list.kind_friend', analysis: 'list.kind_analysis' };

/** modeName is a kind of game as the list names it: "vs engine". */
export const modeName = (mode) => (modeKeys[mode] ? t(modeKeys[mode]) : mode || '');

const resultKeys = { '1-0': 'result.white_won', '0-1': 'result.black_won', '1/2-1/2': 'result.draw' };

/** listResult is a game's result (and the reason it ended) as the list says it. */
export function listResult(r, reason = '') {
  if (reason === 'aborted') return t('result.aborted');
  return t(resultKeys[r] || 'result.playing');
}

/**
 * listLive says whether a game of the list goes on: no result and no
 * reason it ended. An aborted game keeps the result "*" with its reason,
 * and an engine game its person left is ended by the server (abandoned).
 */
export const listLive = (g) => g.result === '*' && !g.reason;

/**
 * ago says how long before now (in ms since 1970) a time was: when is a
 * date text, or seconds or milliseconds since 1970. Past two weeks it is
 * the date.
 */
export function ago(when, now = Date.now()) {
  const ms = typeof when === 'number' ? (when < 1e12 ? when * 1000 : when) : Date.parse(when);
  if (!Number.isFinite(ms)) return String(when ?? '');
  const s = Math.max(0, (now - ms) / 1000);
  if (s < 60) return t('time.just_now');
  if (s < 3600) return t('time.minutes_ago', { n: Math.floor(s / 60) });
  if (s < 86400) return t('time.hours_ago', { n: Math.floor(s / 3600) });
  if (s < 86400 * 14) return t('time.days_ago', { n: Math.floor(s / 86400) });
  return formatDate(ms);
}

/**
 * newGameRequest is the body of the request that creates a game, from the
 * form's values (as strings, clock a boolean): {body}, or {error} when the
 * clock's figures make no sense. Days per move make a friend game a
 * correspondence game, without the clock.
 */
export function newGameRequest(mode, f) {
  const name = f.name.trim();
  const body = { mode, size: Number(f.size), color: f.color };
  if (name) body.name = name;
  if (mode === 'engine') body.level = Number(f.level);
  if (mode === 'friend' && f.days) {
    body.days = Number(f.days);
  } else if (f.clock) {
    const minutes = Number(f.minutes);
    const inc = Number(f.increment);
    if (!(minutes > 0) || !(inc >= 0)) {
      return { error: t('form.clock_invalid') };
    }
    body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
  }
  return { body };
}

/**
 * levelStrength says the measured Elo of the engine at level (the random
 * mover at 0) with its 95% margin, and the rating on the site's scale
 * that it makes, from the levels of /api/engines:
 * "· Elo 1150 ± 70 (rating about 1550)", or "" if unknown.
 */
export function levelStrength(levels, level) {
  const l = levels.find((x) => x.level === level);
  return l ? t('home.level_strength', { elo: Math.round(l.elo), margin: Math.round(l.margin), rating: Math.round(l.rating) }) : '';
}

const prefFields = ['size', 'color', 'level', 'days', 'minutes', 'increment'];

/**
 * querySize is the board a link to the home page asks for (/?size=7, as
 * the last lesson's link does): "7" or "9", or null to keep the form's.
 */
export function querySize(search) {
  const size = new URLSearchParams(search).get('size');
  return size === '7' || size === '9' ? size : null;
}

/** homePage runs the home page. */
export function homePage() {
  const main = $('#home');
  main.hidden = false;
  const form = $('#new-game');
  const msg = $('[data-testid="message"]', main);
  const f = form.elements;

  f.name.value = storedName();
  const prefs = newGamePrefs();
  for (const k of prefFields) {
    if (prefs[k] !== undefined) f[k].value = prefs[k];
  }
  if (prefs.clock) f.clock.checked = true;
  const size = querySize(location.search);
  if (size) f.size.value = size;
  const syncClock = () => {
    f.minutes.disabled = !f.clock.checked;
    f.increment.disabled = !f.clock.checked;
  };
  let levels = [];
  const syncLevel = () => {
    $('#level-out').textContent = f.level.value;
    $('#level-rating').textContent = levelStrength(levels, Number(f.level.value));
  };
  f.clock.addEventListener('change', syncClock);
  f.level.addEventListener('input', syncLevel);
  syncClock();
  syncLevel();
  // The levels' measured strength, for display: games against the engine
  // are not rated.
  api.engines().then((e) => {
    levels = e.levels || [];
    syncLevel();
  }, () => {});

  const create = async (mode) => {
    const choices = { clock: f.clock.checked };
    for (const k of prefFields) choices[k] = f[k].value;
    const { body, error } = newGameRequest(mode, { ...choices, name: f.name.value });
    if (error) {
      showMessage(msg, error);
      return;
    }
    storeName(body.name || '');
    storeNewGamePrefs(choices);
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    showMessage(msg, t('home.creating'), 'info');
    try {
      const s = await api.createGame(body);
      location.assign(`/g/${encodeURIComponent(s.id)}`);
    } catch (e) {
      showMessage(msg, e.message);
      for (const b of form.querySelectorAll('button')) b.disabled = false;
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    create('engine');
  });
  $('[data-testid="new-friend"]').addEventListener('click', () => create('friend'));
  $('[data-testid="upload"]', main).addEventListener('change', (e) => uploadFile(e.target, $('[data-testid="upload-message"]')));
  quickPairing();
  loadGames();
}

async function loadGames() {
  const box = $('#games');
  let games;
  try {
    games = (await api.listGames()).games || [];
  } catch (e) {
    box.replaceChildren(h('p', { class: 'muted' }, t('home.list_unavailable', { error: e.message })));
    return;
  }
  if (games.length === 0) {
    box.replaceChildren(h('p', { class: 'muted' }, t('home.no_games')));
    return;
  }
  const rows = games.map((g) => {
    const href = `/g/${encodeURIComponent(g.id)}`;
    const live = listLive(g);
    return h('tr', {},
      h('td', { class: 'players' }, h('a', { href },
        h('span', { class: g.whiteGuest ? 'name-cut guest' : 'name-cut', title: nameText(g.white, g.whiteGuest) }, nameText(g.white, g.whiteGuest) || '?'), botTag(g.whiteBot), ' – ',
        h('span', { class: g.blackGuest ? 'name-cut guest' : 'name-cut', title: nameText(g.black, g.blackGuest) }, nameText(g.black, g.blackGuest) || '?'), botTag(g.blackBot))),
      h('td', {}, `${g.size}×${g.size}`),
      h('td', { class: 'hide-narrow' }, modeName(g.mode)),
      h('td', { class: 'num' }, String(g.plies ?? '')),
      h('td', {}, live ? h('span', { class: 'live-dot' }, t('list.playing')) : listResult(g.result, g.reason)),
      h('td', { class: 'hide-narrow muted' }, ago(g.updated)),
      h('td', { class: 'hide-narrow' }, h('a', { href, class: 'pill' }, live ? t('list.watch') : t('list.replay'))));
  });
  box.replaceChildren(h('table', { class: 'games' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('list.players')), h('th', {}, t('list.board')), h('th', { class: 'hide-narrow' }, t('list.kind')),
      h('th', { class: 'num' }, t('list.moves')), h('th', {}, t('list.result')), h('th', { class: 'hide-narrow' }, t('list.updated')),
      h('th', { class: 'hide-narrow' }, h('span', { class: 'sr-only' }, t('list.open'))))),
    h('tbody', {}, rows)));
}
