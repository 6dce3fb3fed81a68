// The page of the viewer's games, "/my": the games where it is his turn
// first, marked, the soonest deadline first; then the others going on;
// then the finished ones. The server sorts them (GET /api/my-games).

import * as api from './api.js';
import { daysPerMove, formatLeft } from './deadline.js';
import { $, botTag, displayName, h } from './dom.js';
import { t, tParts } from './i18n.js';
import { colourName, other, reasonText } from './text.js';

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
  const opponent = displayName(g[opp]) || colourName(opp);
  const over = g.turn === null || g.turn === undefined;
  let status;
  if (over) {
    status = endText(g);
  } else if (g.yourTurn) {
    status = t('my.your_turn');
  } else if (!g.joined) {
    status = t('my.wait_friend');
  } else {
    status = t('my.waiting', { name: opponent });
  }
  let left = '';
  if (!over && g.left_ms !== null && g.left_ms !== undefined) {
    left = g.yourTurn ? t('my.left', { left: formatLeft(g.left_ms) })
      : t('my.left_for', { left: formatLeft(g.left_ms), name: opponent });
  }
  return {
    href: `/g/${encodeURIComponent(g.id)}`,
    opponent,
    board: `${g.size}×${g.size}`,
    time: g.days ? daysPerMove(g.days) : t('my.live'),
    status,
    left,
    yourTurn: Boolean(g.yourTurn),
    over,
  };
}

/** endText is how a finished game ended for the viewer. */
function endText(g) {
  if (g.result === '1/2-1/2') return t('result.draw');
  if (g.result === '1-0' || g.result === '0-1') {
    const winner = g.result === '1-0' ? 'white' : 'black';
    return winner === g.you ? t('my.won') : t('my.lost');
  }
  return reasonText(g.reason) || t('my.over');
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
    box.replaceChildren(h('p', { class: 'muted' }, t('my.unavailable', { error: e.message })));
    return;
  }
  const turns = games.filter((g) => g.yourTurn).length;
  $('#my-summary').textContent = turns === 0 ? t('my.no_turn') : t('my.turns', { n: turns });
  document.title = turns > 0 ? t('title.my_turns', { n: turns }) : t('title.my');
  if (games.length === 0) {
    box.replaceChildren(h('p', { class: 'muted' }, ...tParts('my.none', { link: h('a', { href: '/' }, t('my.start')) })));
    return;
  }
  const rows = games.map((g) => {
    const r = myGameRow(g);
    return h('tr', { class: r.yourTurn ? 'your-turn' : null, 'data-testid': 'my-game', 'data-game': g.id },
      h('td', { class: 'players' }, h('a', { href: r.href, class: 'name-cut', title: r.opponent }, r.opponent), botTag(g[`${other(g.you)}Bot`])),
      h('td', {}, r.board),
      h('td', { class: 'hide-narrow' }, r.time),
      h('td', { class: 'turn' }, r.status, r.left ? h('div', { class: 'left' }, r.left) : null),
      h('td', { class: 'hide-narrow' }, h('a', { href: r.href, class: r.yourTurn ? 'pill primary' : 'pill' },
        r.over ? t('list.replay') : r.yourTurn ? t('my.play') : t('list.open'))));
  });
  box.replaceChildren(h('table', { class: 'games' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('list.opponent')), h('th', {}, t('list.board')), h('th', { class: 'hide-narrow' }, t('list.time')),
      h('th', {}, t('list.status')),
      h('th', { class: 'hide-narrow' }, h('span', { class: 'sr-only' }, t('list.open'))))),
    h('tbody', {}, rows)));
}
