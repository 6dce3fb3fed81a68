// The home page, "/": a new game (against the engine or a friend), a
// record to replay, and the recent games.

import * as api from './api.js';
import { $, h, showMessage } from './dom.js';
import { newGamePrefs, storedName, storeName, storeNewGamePrefs } from './prefs.js';
import { uploadFile } from './upload.js';

/** modeNames are the kinds of game as the list names them. */
export const modeNames = { engine: 'vs engine', friend: 'friends', analysis: 'record' };

/** listResult is a game's result (and the reason it ended) as the list says it. */
export function listResult(r, reason = '') {
  if (reason === 'aborted') return 'Aborted';
  return { '1-0': 'White won', '0-1': 'Black won', '1/2-1/2': 'Draw' }[r] || 'Playing';
}

/**
 * ago says how long before now (in ms since 1970) a time was: when is a
 * date text, or seconds or milliseconds since 1970. Past two weeks it is
 * the date.
 */
export function ago(when, now = Date.now()) {
  const t = typeof when === 'number' ? (when < 1e12 ? when * 1000 : when) : Date.parse(when);
  if (!Number.isFinite(t)) return String(when ?? '');
  const s = Math.max(0, (now - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 14) return `${Math.floor(s / 86400)} d ago`;
  return new Date(t).toLocaleDateString();
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
      return { error: 'Give the clock a positive number of minutes and of seconds per move.' };
    }
    body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
  }
  return { body };
}

/**
 * levelRating says the estimated rating of the engine at level, from the
 * levels of /api/engines: "(about 1818)", or "" if unknown.
 */
export function levelRating(levels, level) {
  const l = levels.find((x) => x.level === level);
  return l ? `(about ${Math.round(l.rating)})` : '';
}

const prefFields = ['size', 'color', 'level', 'days', 'minutes', 'increment'];

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
  const syncClock = () => {
    f.minutes.disabled = !f.clock.checked;
    f.increment.disabled = !f.clock.checked;
  };
  let levels = [];
  const syncLevel = () => {
    $('#level-out').textContent = f.level.value;
    $('#level-rating').textContent = levelRating(levels, Number(f.level.value));
  };
  f.clock.addEventListener('change', syncClock);
  f.level.addEventListener('input', syncLevel);
  syncClock();
  syncLevel();
  // The levels' estimated ratings, for display: games against the engine
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
    showMessage(msg, 'Setting up the board…', 'info');
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
  loadGames();
}

async function loadGames() {
  const box = $('#games');
  let games;
  try {
    games = (await api.listGames()).games || [];
  } catch (e) {
    box.replaceChildren(h('p', { class: 'muted' }, `The list of games is not available: ${e.message}`));
    return;
  }
  if (games.length === 0) {
    box.replaceChildren(h('p', { class: 'muted' }, 'No games yet. Start one above.'));
    return;
  }
  const rows = games.map((g) => {
    const href = `/g/${encodeURIComponent(g.id)}`;
    const live = g.result === '*' && !g.reason;
    return h('tr', {},
      h('td', { class: 'players' }, h('a', { href },
        h('span', { class: 'name-cut', title: g.white }, g.white || '?'), ' – ',
        h('span', { class: 'name-cut', title: g.black }, g.black || '?'))),
      h('td', {}, `${g.size}×${g.size}`),
      h('td', { class: 'hide-narrow' }, modeNames[g.mode] || g.mode || ''),
      h('td', { class: 'num' }, String(g.plies ?? '')),
      h('td', {}, live ? h('span', { class: 'live-dot' }, 'playing') : listResult(g.result, g.reason)),
      h('td', { class: 'hide-narrow muted' }, ago(g.updated)),
      h('td', {}, h('a', { href, class: 'pill' }, live ? 'Watch' : 'Replay')));
  });
  box.replaceChildren(h('table', { class: 'games' },
    h('thead', {}, h('tr', {},
      h('th', {}, 'Players'), h('th', {}, 'Board'), h('th', { class: 'hide-narrow' }, 'Kind'),
      h('th', { class: 'num' }, 'Moves'), h('th', {}, 'Result'), h('th', { class: 'hide-narrow' }, 'Updated'),
      h('th', {}, h('span', { class: 'sr-only' }, 'Open')))),
    h('tbody', {}, rows)));
}
