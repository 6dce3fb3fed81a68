// The lobby, "/lobby": the challenges waiting for an opponent, live
// (GET /api/lobby/events), each with what the viewer may do with it, and
// the form that posts one, open to all or to a player by name. Accepting
// opens the game; a challenger's page opens it when the live list says
// that his challenge was accepted.

import * as api from './api.js';
import { timeText } from './deadline.js';
import { $, botTag, h, nameText, playerLink, showMessage } from './dom.js';
import { t } from './i18n.js';

/**
 * challengeRequest is the body of POST /api/challenges from the form's
 * values (strings, rated a boolean): {body}, or {error} saying what to fix.
 * speed is "live" (a clock of minutes and seconds added per move) or
 * "correspondence" (days per move); to, a username, makes it a direct
 * challenge.
 */
export function challengeRequest(f) {
  const body = { size: Number(f.size) || 9, rated: Boolean(f.rated), color: f.color || 'random' };
  if (f.speed === 'correspondence') {
    body.days = Number(f.days);
    if (!body.days) return { error: t('lobby.choose_days') };
  } else {
    const minutes = Number(f.minutes);
    const inc = Number(f.increment);
    if (!(minutes > 0) || !(inc >= 0)) {
      return { error: t('form.clock_invalid') };
    }
    body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
  }
  const to = (f.to || '').trim();
  if (to) body.to = to;
  else if (f.allowBots) body.allowBots = true;
  return { body };
}

/**
 * challengeRow is what the lobby says of challenge c to a viewer (loggedIn
 * or a guest): {who, board, time, kind, colour, status, actions}, actions
 * being those the viewer may take ("accept", "decline", "cancel"); an
 * accepted challenge's row also has its game, which its status links to.
 */
export function challengeRow(c, loggedIn) {
  const who = c.mine ? (c.to ? t('lobby.you_to', { name: c.to }) : t('lobby.you')) : nameText(c.from, !c.account);
  const row = {
    who,
    rating: c.rating || '',
    board: `${c.size}×${c.size}`,
    time: timeText(c),
    kind: t(kindKeys[Boolean(c.rated)][Boolean(c.rematch)]),
    colour: colourText(c),
    status: '',
    actions: [],
  };
  if (c.status !== 'pending') {
    row.status = statusKeys[c.status] ? t(statusKeys[c.status]) : c.status;
    if (c.status === 'accepted' && c.game) row.game = c.game;
    return row;
  }
  if (c.mine) {
    row.status = c.to ? t('lobby.waiting_for', { name: c.to }) : t('lobby.waiting');
    row.actions = ['cancel'];
  } else if (c.forYou) {
    row.status = t('lobby.for_you');
    row.actions = ['accept', 'decline'];
  } else if (loggedIn) {
    row.actions = ['accept'];
  } else {
    row.status = t('lobby.log_in_to_accept');
  }
  return row;
}

/** kindKeys name a challenge's game, by rated and rematch. */
const kindKeys = {
  true: { true: 'lobby.rated_rematch', false: 'lobby.rated' },
  false: { true: 'lobby.casual_rematch', false: 'lobby.casual' },
};

/** statusKeys name where a challenge that is no longer pending stands. */
const statusKeys = { accepted: 'lobby.accepted', declined: 'lobby.declined', cancelled: 'lobby.withdrawn', expired: 'lobby.expired' };

/** colourText says who plays which colour in a challenge: "You play White", "Ann plays Black". */
function colourText(c) {
  if (c.color === 'random') return t('lobby.random_colours');
  const white = c.color === 'white';
  if (c.mine) return t(white ? 'lobby.you_play_white' : 'lobby.you_play_black');
  return t(white ? 'lobby.plays_white' : 'lobby.plays_black', { name: nameText(c.from, !c.account) });
}

/**
 * acceptedGame is the game to open when the lobby (view) says that one of
 * the challenges the page has seen pending (waiting: their IDs) was
 * accepted: the viewer's own challenge, taken by an opponent. null if none.
 */
export function acceptedGame(waiting, view) {
  for (const c of view.challenges || []) {
    if (c.status === 'accepted' && c.game && waiting.has(c.id) && (c.mine || c.forYou)) return c.game;
  }
  return null;
}

const actionKeys = { accept: 'game.accept', decline: 'game.decline', cancel: 'game.withdraw' };

/** lobbyPage runs the lobby. */
export function lobbyPage() {
  const main = $('#lobby');
  main.hidden = false;
  const msg = $('[data-testid="lobby-message"]');
  const form = $('#challenge-form');
  const f = form.elements;
  const formMsg = $('[data-testid="challenge-message"]');
  const waiting = new Set();
  let view = null;

  const syncSpeed = () => {
    const corr = f.speed.value === 'correspondence';
    f.minutes.disabled = corr;
    f.increment.disabled = corr;
    f.days.disabled = !corr;
  };
  f.speed.addEventListener('change', syncSpeed);
  syncSpeed();
  // A player's page challenges him here: /lobby?to=NAME.
  const to = new URLSearchParams(location.search).get('to');
  if (to) f.to.value = to;

  const open = (game) => location.assign(`/g/${encodeURIComponent(game)}`);

  const act = async (c, action) => {
    try {
      const answer = await api.answerChallenge(c.id, action);
      showMessage(msg, '');
      if (action === 'accept') {
        open(answer.game);
        return;
      }
      show(answer);
    } catch (e) {
      showMessage(msg, e.message);
    }
  };

  const show = (v) => {
    view = v;
    const loggedIn = Boolean(v.me);
    $('#lobby-guest').hidden = loggedIn;
    for (const el of form.querySelectorAll('input, select, button')) el.disabled = !loggedIn;
    if (loggedIn) syncSpeed();
    for (const c of v.challenges) {
      if (c.status === 'pending' && (c.mine || c.forYou)) waiting.add(c.id);
    }
    const game = acceptedGame(waiting, v);
    if (game) {
      open(game);
      return;
    }
    const box = $('#challenges');
    if (v.challenges.length === 0) {
      box.replaceChildren(h('p', { class: 'muted' }, t('lobby.empty')));
      return;
    }
    const rows = v.challenges.map((c) => {
      const r = challengeRow(c, loggedIn);
      return h('tr', { 'data-testid': 'challenge', 'data-challenge': c.id, class: c.forYou ? 'your-turn' : null },
        h('td', { class: 'players' }, c.mine ? r.who : c.account ? playerLink(c.from, true) : h('span', { class: 'guest' }, r.who), botTag(c.bot && !c.mine), r.rating ? h('span', { class: 'rating', 'data-testid': 'challenge-rating' }, ` ${r.rating}`) : null),
        h('td', {}, r.board),
        h('td', {}, r.time, h('div', { class: 'kind' }, r.kind)),
        h('td', { class: 'hide-narrow' }, r.colour),
        h('td', { class: 'turn' }, r.game ? h('a', { href: `/g/${encodeURIComponent(r.game)}`, 'data-testid': 'challenge-game' }, r.status) : r.status,
          r.actions.map((a) => h('button', {
            type: 'button', class: a === 'accept' ? 'pill primary' : 'pill', 'data-testid': `challenge-${a}`,
            onclick: () => act(c, a),
          }, t(actionKeys[a])))));
    });
    box.replaceChildren(h('table', { class: 'games' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('list.player')), h('th', {}, t('list.board')), h('th', {}, t('list.game')),
        h('th', { class: 'hide-narrow' }, t('list.colours')), h('th', {}, h('span', { class: 'sr-only' }, t('list.status'))))),
      h('tbody', {}, rows)));
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const { body, error } = challengeRequest({
      size: f.size.value, speed: f.speed.value, minutes: f.minutes.value, increment: f.increment.value,
      days: f.days.value, rated: f.rated.checked, color: f.color.value, to: f.to.value, allowBots: f.allowBots.checked,
    });
    if (error) {
      showMessage(formMsg, error);
      return;
    }
    try {
      const c = await api.postChallenge(body);
      waiting.add(c.id);
      showMessage(formMsg, c.to ? t('lobby.sent', { name: c.to }) : t('lobby.posted'), 'info');
      f.to.value = '';
    } catch (err) {
      showMessage(formMsg, err.message);
    }
  });

  api.followLobby(show, (status) => {
    $('#lobby-conn').hidden = status === 'open' || !view;
  });
}
