// The lobby, "/lobby": the challenges waiting for an opponent, live
// (GET /api/lobby/events), each with what the viewer may do with it, and
// the form that posts one, open to all or to a player by name. Accepting
// opens the game; a challenger's page opens it when the live list says
// that his challenge was accepted.

import * as api from './api.js';
import { daysPerMove } from './deadline.js';
import { $, h, playerLink, showMessage } from './dom.js';
import { capital } from './text.js';

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
    if (!body.days) return { error: 'Choose the days per move.' };
  } else {
    const minutes = Number(f.minutes);
    const inc = Number(f.increment);
    if (!(minutes > 0) || !(inc >= 0)) {
      return { error: 'Give the clock a positive number of minutes and of seconds per move.' };
    }
    body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
  }
  const to = (f.to || '').trim();
  if (to) body.to = to;
  return { body };
}

/** timeText is a challenge's time control: "5+3" (minutes and seconds added), or "3 days per move". */
export function timeText(c) {
  if (c.days) return daysPerMove(c.days);
  if (!c.clock) return '';
  const m = c.clock.initial / 60;
  return `${Number.isInteger(m) ? m : m.toFixed(1)}+${c.clock.increment}`;
}

/**
 * challengeRow is what the lobby says of challenge c to a viewer (loggedIn
 * or a guest): {who, board, time, kind, colour, status, actions}, actions
 * being those the viewer may take ("accept", "decline", "cancel").
 */
export function challengeRow(c, loggedIn) {
  const who = c.mine ? (c.to ? `You, to ${c.to}` : 'You') : c.from;
  const row = {
    who,
    rating: c.rating || '',
    board: `${c.size}×${c.size}`,
    time: timeText(c),
    kind: `${c.rated ? 'Rated' : 'Casual'}${c.rematch ? ' rematch' : ''}`,
    colour: c.color === 'random' ? 'Random colours' : `${c.mine ? 'You play' : `${c.from} plays`} ${capital(c.color)}`,
    status: '',
    actions: [],
  };
  if (c.status !== 'pending') {
    row.status = { accepted: 'Accepted', declined: 'Declined', cancelled: 'Withdrawn', expired: 'Expired' }[c.status] || capital(c.status);
    return row;
  }
  if (c.mine) {
    row.status = c.to ? `Waiting for ${c.to}` : 'Waiting for an opponent';
    row.actions = ['cancel'];
  } else if (c.forYou) {
    row.status = 'For you';
    row.actions = ['accept', 'decline'];
  } else if (loggedIn) {
    row.actions = ['accept'];
  } else {
    row.status = 'Log in to accept';
  }
  return row;
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

const actionNames = { accept: 'Accept', decline: 'Decline', cancel: 'Withdraw' };

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
      box.replaceChildren(h('p', { class: 'muted' }, 'No challenges are waiting. Post one below.'));
      return;
    }
    const rows = v.challenges.map((c) => {
      const r = challengeRow(c, loggedIn);
      return h('tr', { 'data-testid': 'challenge', 'data-challenge': c.id, class: c.forYou ? 'your-turn' : null },
        h('td', { class: 'players' }, c.mine ? r.who : playerLink(c.from, c.account), r.rating ? h('span', { class: 'rating', 'data-testid': 'challenge-rating' }, ` ${r.rating}`) : null),
        h('td', {}, r.board),
        h('td', {}, r.time),
        h('td', {}, r.kind),
        h('td', { class: 'hide-narrow' }, r.colour),
        h('td', { class: 'turn' }, r.status,
          r.actions.map((a) => h('button', {
            type: 'button', class: a === 'accept' ? 'pill primary' : 'pill', 'data-testid': `challenge-${a}`,
            onclick: () => act(c, a),
          }, actionNames[a]))));
    });
    box.replaceChildren(h('table', { class: 'games' },
      h('thead', {}, h('tr', {},
        h('th', {}, 'Player'), h('th', {}, 'Board'), h('th', {}, 'Time'), h('th', {}, 'Game'),
        h('th', { class: 'hide-narrow' }, 'Colours'), h('th', {}, h('span', { class: 'sr-only' }, 'Status')))),
      h('tbody', {}, rows)));
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const { body, error } = challengeRequest({
      size: f.size.value, speed: f.speed.value, minutes: f.minutes.value, increment: f.increment.value,
      days: f.days.value, rated: f.rated.checked, color: f.color.value, to: f.to.value,
    });
    if (error) {
      showMessage(formMsg, error);
      return;
    }
    try {
      const c = await api.postChallenge(body);
      waiting.add(c.id);
      showMessage(formMsg, c.to ? `Your challenge was sent to ${c.to}.` : 'Your challenge is in the lobby.', 'info');
      f.to.value = '';
    } catch (err) {
      showMessage(formMsg, err.message);
    }
  });

  api.followLobby(show, (status) => {
    $('#lobby-conn').hidden = status === 'open' || !view;
  });
}
