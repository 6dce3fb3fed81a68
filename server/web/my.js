// The page of the viewer's games, "/my": the games where it is his turn
// first, marked, the soonest deadline first; then the others going on;
// then the finished ones. The server sorts them (GET /api/my-games).

import * as api from './api.js';
import { $, h } from './dom.js';
import { daysPerMove, formatLeft } from './deadline.js';
import { capital, other } from './text.js';

/** REFRESH_MS is how often the list is asked for again while the page is open. */
const REFRESH_MS = 60000;

/**
 * myGameRow is what the list says of one game g of /api/my-games:
 * {href, opponent, board, time, status, left, yourTurn, over}. status is
 * "Your turn", whom it waits for, or how it ended for the viewer; left the
 * time to the deadline of the player to move ("" without one).
 */
export function myGameRow(g) {
  const opp = other(g.you);
  const opponent = g[opp] || capital(opp);
  const over = g.turn === null || g.turn === undefined;
  let status;
  if (over) {
    status = endText(g);
  } else if (g.yourTurn) {
    status = 'Your turn';
  } else if (!g.joined) {
    status = 'Waiting for your friend to join';
  } else {
    status = `Waiting for ${opponent}`;
  }
  let left = '';
  if (!over && g.left_ms !== null && g.left_ms !== undefined) {
    left = `${formatLeft(g.left_ms)} left${g.yourTurn ? '' : ` for ${opponent}`}`;
  }
  return {
    href: `/g/${encodeURIComponent(g.id)}`,
    opponent,
    board: `${g.size}×${g.size}`,
    time: g.days ? daysPerMove(g.days) : 'live',
    status,
    left,
    yourTurn: Boolean(g.yourTurn),
    over,
  };
}

/** endText is how a finished game ended for the viewer. */
function endText(g) {
  if (g.result === '1/2-1/2') return 'Draw';
  if (g.result === '1-0' || g.result === '0-1') {
    const winner = g.result === '1-0' ? 'white' : 'black';
    return winner === g.you ? 'You won' : 'You lost';
  }
  return g.reason ? capital(g.reason) : 'Over';
}

/** myGamesPage runs the page of the viewer's games. */
export function myGamesPage() {
  $('#my').hidden = false;
  load();
  setInterval(load, REFRESH_MS);
}

async function load() {
  const box = $('#my-games');
  let games;
  try {
    games = (await api.myGames()).games || [];
  } catch (e) {
    box.replaceChildren(h('p', { class: 'muted' }, `Your games are not available: ${e.message}`));
    return;
  }
  const turns = games.filter((g) => g.yourTurn).length;
  $('#my-summary').textContent = turns === 0 ? 'It is not your turn in any game.'
    : turns === 1 ? 'It is your turn in 1 game.' : `It is your turn in ${turns} games.`;
  document.title = `${turns > 0 ? `(${turns}) ` : ''}My games · Emergo`;
  if (games.length === 0) {
    box.replaceChildren(h('p', { class: 'muted' }, 'You have no games yet. ', h('a', { href: '/' }, 'Start one.')));
    return;
  }
  const rows = games.map((g) => {
    const r = myGameRow(g);
    return h('tr', { class: r.yourTurn ? 'your-turn' : null, 'data-testid': 'my-game', 'data-game': g.id },
      h('td', { class: 'players' }, h('a', { href: r.href, class: 'name-cut', title: r.opponent }, r.opponent)),
      h('td', {}, r.board),
      h('td', { class: 'hide-narrow' }, r.time),
      h('td', { class: 'turn' }, r.status),
      h('td', { class: 'muted' }, r.left),
      h('td', {}, h('a', { href: r.href, class: r.yourTurn ? 'pill primary' : 'pill' }, r.over ? 'Replay' : r.yourTurn ? 'Play' : 'Open')));
  });
  box.replaceChildren(h('table', { class: 'games' },
    h('thead', {}, h('tr', {},
      h('th', {}, 'Opponent'), h('th', {}, 'Board'), h('th', { class: 'hide-narrow' }, 'Time'),
      h('th', {}, 'Status'), h('th', {}, 'Time left'),
      h('th', {}, h('span', { class: 'sr-only' }, 'Open')))),
    h('tbody', {}, rows)));
}
