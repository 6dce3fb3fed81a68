// Following players: the part of a player's page that shows his
// followers and whom he follows (counts, and the lists when opened) with
// the viewer's button to follow or unfollow him, and the page /following
// of the games going on of the players the viewer follows.

import * as api from './api.js';
import { $, h, playerLink, showMessage } from './dom.js';
import { t } from './i18n.js';
import { gameTime } from './profile.js';

/** REFRESH_MS is how often /following asks for the games again while open. */
const REFRESH_MS = 60000;

/**
 * followedRow is what /following says of a game g of
 * /api/following/games: {href, white, black, board, time, moves}.
 */
export function followedRow(g) {
  return {
    href: `/g/${encodeURIComponent(g.id)}`,
    white: g.white,
    black: g.black,
    board: `${g.size}×${g.size}`,
    time: gameTime(g),
    moves: g.plies,
  };
}

/**
 * followButtonText is the follow button's words, by whether the viewer
 * follows the player.
 */
export const followButtonText = (following) => (following ? t('follow.unfollow') : t('follow.follow'));

/**
 * followsPart fills a player's page with his follows, from his profile p
 * ({name, followers, following, youFollow, self}).
 */
export function followsPart(p) {
  const box = $('#profile-follows');
  if (!box) return;
  let followers = p.followers || 0;
  const lists = [
    list('followers', () => t('follow.followers', { n: followers }), () => api.followersOf(p.name)),
    list('following', () => t('follow.following', { n: p.following || 0 }), () => api.followingOf(p.name)),
  ];
  const parts = [h('div', { class: 'follow-lists' }, lists.map((l) => l.el))];
  if (p.youFollow !== null && p.youFollow !== undefined) {
    let following = p.youFollow;
    const msg = h('span', { class: 'message', role: 'alert' });
    const button = h('button', { type: 'button', 'data-testid': 'follow', 'aria-pressed': String(following) }, followButtonText(following));
    button.addEventListener('click', async () => {
      button.disabled = true;
      showMessage(msg, '');
      try {
        following = (following ? await api.unfollowUser(p.name) : await api.followUser(p.name)).following;
        followers += following ? 1 : -1;
        button.textContent = followButtonText(following);
        button.setAttribute('aria-pressed', String(following));
        lists[0].reset();
      } catch (e) {
        showMessage(msg, e.message);
      } finally {
        button.disabled = false;
      }
    });
    parts.unshift(h('p', { class: 'actions' }, button, msg));
  }
  if (p.self) parts.push(h('p', {}, h('a', { href: '/following', 'data-testid': 'following-link' }, t('following.title'))));
  box.replaceChildren(...parts);
}

/**
 * list is a <details> of people whose summary is summary() and whose
 * names load() reads when it is first opened, under the key what.
 */
function list(what, summary, load) {
  const head = h('summary', { 'data-testid': `${what}-summary` }, summary());
  const body = h('div', { 'data-testid': `${what}-list` });
  const el = h('details', { class: 'follow-list' }, head, body);
  let loaded = false;
  el.addEventListener('toggle', async () => {
    if (!el.open || loaded) return;
    loaded = true;
    try {
      const people = (await load())[what] || [];
      body.replaceChildren(people.length === 0 ? h('p', { class: 'muted' }, t('follow.none'))
        : h('ul', { class: 'people' }, people.map((x) => h('li', {}, playerLink(x.name, true)))));
    } catch (e) {
      loaded = false;
      body.replaceChildren(h('p', { class: 'muted' }, e.message));
    }
  });
  return {
    el,
    reset() {
      head.textContent = summary();
      loaded = false;
      el.open = false;
      body.replaceChildren();
    },
  };
}

/** followingPage runs /following: the games going on of the players the viewer follows. */
export function followingPage() {
  $('#following').hidden = false;
  document.title = t('title.following');
  load();
  setInterval(load, REFRESH_MS);
}

async function load() {
  const box = $('#following-games');
  let games;
  try {
    games = (await api.followedGames()).games || [];
  } catch (e) {
    box.replaceChildren(h('p', { class: 'muted', 'data-testid': 'following-message' }, e.message));
    return;
  }
  if (games.length === 0) {
    box.replaceChildren(h('p', { class: 'muted', 'data-testid': 'following-none' }, t('following.none')));
    return;
  }
  box.replaceChildren(h('table', { class: 'games' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('list.players')), h('th', {}, t('list.board')), h('th', { class: 'hide-narrow' }, t('list.time')),
      h('th', { class: 'num' }, t('list.moves')),
      h('th', {}, h('span', { class: 'sr-only' }, t('list.open'))))),
    h('tbody', {}, games.map((g) => {
      const r = followedRow(g);
      return h('tr', { 'data-testid': 'followed-game', 'data-game': g.id },
        h('td', { class: 'players' }, playerLink(r.white, g.whiteAccount), ' – ', playerLink(r.black, g.blackAccount)),
        h('td', {}, r.board),
        h('td', { class: 'hide-narrow' }, r.time),
        h('td', { class: 'num' }, String(r.moves)),
        h('td', {}, h('a', { href: r.href, class: 'pill' }, t('list.watch'))));
    }))));
}
