// A player's page, "/@/{name}": who he is and since when, his games won,
// drawn and lost, his ratings in every pool (a board size and a speed),
// the history of a rating as a chart (chart.js), and his games a page at
// a time, filtered by result, opponent and board, each finished game
// downloadable, and all of them as one PGN file.

import * as api from './api.js';
import { change, poolName, ratingChart } from './chart.js';
import { timeText } from './deadline.js';
import { $, botTag, displayName, h, playerLink, showMessage } from './dom.js';
import { formatDate, t } from './i18n.js';
import { Latest } from './latest.js';
import { ratingText } from './rated.js';
import { colourName, reasonText } from './text.js';
import { vacationForm } from './vacation.js';

/**
 * countsText says a player's games by how they went: "39 games played: 16
 * won, 10 drawn, 13 lost. 2 going on."
 */
export function countsText(g) {
  let s = g.played === 0 ? t('profile.no_games')
    : t('profile.counts', { n: g.played, won: g.won, drawn: g.drawn, lost: g.lost });
  if (g.ongoing > 0) s += ` ${t('profile.ongoing', { n: g.ongoing })}`;
  return s;
}

/**
 * gameTime is a game's time control, written as the lobby writes a
 * challenge's: "5+3" (minutes and seconds added a move), "3 days per
 * move", or "no clock".
 */
export function gameTime(g) {
  const clock = g.initial_ms ? { initial: g.initial_ms / 1000, increment: Math.round((g.increment_ms || 0) / 1000) } : null;
  return timeText({ days: g.days, clock }) || t('profile.no_clock');
}

const outcomes = { won: 'profile.won', lost: 'profile.lost', drawn: 'result.draw', ongoing: 'result.playing' };

/**
 * gameRow is what the list of a player's games says of one game g of
 * /api/users/{name}/games: {href, opponent, opponentAccount, opponentRating,
 * color, board, time, rated, outcome, change, reason, moves, date, pgn,
 * json}. opponentRating is his rating when a rated game began ("" for a
 * casual game), change what the game did to the player's ("+12", "" until
 * rated). The records (pgn, json) are offered once the game is over, else
 * null.
 */
export function gameRow(g) {
  const over = g.outcome !== 'ongoing';
  const id = encodeURIComponent(g.id);
  const time = gameTime(g);
  return {
    href: `/g/${id}`,
    opponent: displayName(g.opponent.name) || t('profile.nobody'),
    opponentAccount: Boolean(g.opponent.account),
    opponentRating: g.opponent.rating === null || g.opponent.rating === undefined ? '' : String(g.opponent.rating),
    color: colourName(g.color),
    board: `${g.size}×${g.size}`,
    time,
    rated: g.rated ? t('lobby.rated') : t('lobby.casual'),
    timeKind: g.rated ? t('profile.time_rated', { time }) : t('profile.time_casual', { time }),
    outcome: outcomes[g.outcome] ? t(outcomes[g.outcome]) : g.outcome,
    change: g.rating ? change(g.rating.diff) : '',
    reason: over ? reasonText(g.reason) : '',
    moves: g.plies,
    date: formatDate(g.created),
    pgn: over ? api.recordURL(g.id, 'pgn') : null,
    json: over ? api.recordURL(g.id, 'json') : null,
  };
}

/** FILTERS are the values the list's filters take; "" is any. */
export const FILTERS = {
  result: ['', 'won', 'lost', 'drawn', 'ongoing'],
  size: ['', '9', '7'],
};

/**
 * readFilters reads the filters from a query string (the page's address
 * keeps them): {result, opponent, size}, a value not allowed read as "".
 */
export function readFilters(search) {
  const q = new URLSearchParams(search);
  const pick = (k) => (FILTERS[k].includes(q.get(k)) ? q.get(k) : '');
  return { result: pick('result'), opponent: (q.get('opponent') || '').trim(), size: pick('size') };
}

/**
 * gamesQuery is the query string of the filters set, and of the page's
 * cursor if any ("" for none): "result=won&size=7&before=...".
 */
export function gamesQuery(filters, before = '') {
  const q = new URLSearchParams();
  for (const k of ['result', 'opponent', 'size']) {
    if (filters[k]) q.set(k, filters[k]);
  }
  if (before) q.set('before', before);
  return q.toString();
}

// The pages of the list are read forwards by the cursor each page gives
// of the next; going back is going to a cursor seen before. A pager is
// the cursors of the pages up to the one shown ("" the first).

/** firstPage is the pager at the first page. */
export const firstPage = () => ({ cursors: [''] });

/** pageCursor is the cursor of the page shown. */
export const pageCursor = (p) => p.cursors[p.cursors.length - 1];

/** pageNumber is the number of the page shown, from 1. */
export const pageNumber = (p) => p.cursors.length;

/** nextPage is the pager at the page of cursor, after the one shown. */
export const nextPage = (p, cursor) => ({ cursors: [...p.cursors, cursor] });

/** prevPage is the pager at the page before the one shown (the first stays). */
export const prevPage = (p) => (p.cursors.length > 1 ? { cursors: p.cursors.slice(0, -1) } : p);

/**
 * chosenPool is the pool whose history the chart shows first: the one with
 * the most rated games (the first of the list on a tie), as "size-speed".
 */
export function chosenPool(history) {
  let best = history[0];
  for (const hs of history) {
    if (hs.points.length > best.points.length) best = hs;
  }
  return best ? `${best.size}-${best.speed}` : '';
}

/** profilePage runs the page of the player name. */
/**
 * profilePage runs the page of the player name; onProfile(p), if given,
 * gets his profile once it is read (the follows of following.js).
 */
export function profilePage(name, onProfile = () => {}) {
  $('#profile').hidden = false;
  new ProfilePage(name, onProfile).start();
}

class ProfilePage {
  constructor(name, onProfile) {
    this.name = name;
    this.onProfile = onProfile;
    this.filters = readFilters(location.search);
    this.pager = firstPage();
    this.next = null;
    this.latest = new Latest(); // only the answer to the last request for games is shown
  }

  start() {
    this.form = $('#game-filters');
    for (const k of ['result', 'opponent', 'size']) this.form.elements[k].value = this.filters[k];
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.filters = readFilters(gamesQuery({
        result: this.form.elements.result.value,
        opponent: this.form.elements.opponent.value,
        size: this.form.elements.size.value,
      }));
      const query = gamesQuery(this.filters);
      history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
      this.pager = firstPage();
      this.loadGames();
    });
    $('#games-next').addEventListener('click', () => {
      if (!this.next) return;
      this.pager = nextPage(this.pager, this.next);
      this.loadGames();
    });
    $('#games-prev').addEventListener('click', () => {
      this.pager = prevPage(this.pager);
      this.loadGames();
    });
    this.loadProfile();
    this.loadGames();
  }

  async loadProfile() {
    let p;
    let hist;
    try {
      [p, hist] = await Promise.all([api.profile(this.name), api.ratingHistory(this.name)]);
    } catch (e) {
      document.title = t('title.no_player');
      $('#profile-name').textContent = this.name;
      showMessage($('[data-testid="profile-message"]'), e.message);
      for (const id of ['#profile-ratings-box', '#profile-history-box', '#profile-games-box']) $(id).hidden = true;
      return;
    }
    this.name = p.name;
    document.title = t('title.named', { name: p.name });
    $('#profile-name').replaceChildren(p.name, ...(p.bot ? [' ', botTag(true, { 'data-testid': 'profile-bot' })] : []));
    this.showViewer(p.name);
    $('#profile-since').textContent = t('profile.since', { date: formatDate(p.created, 'long') });
    $('#profile-counts').textContent = countsText(p.games);
    $('#profile-vacation').hidden = !p.vacation;
    $('#profile-vacation').textContent = p.vacation ? t('vacation.profile_until', { date: formatDate(p.vacation, 'long') }) : '';
    this.onProfile(p);
    this.showRatings(p.ratings);
    this.showHistory(hist.history);
  }

  /**
   * showViewer shows what the viewer may do on the page of name: on his
   * own, his vacation and his API tokens; on another's, when logged in, a challenge (the
   * lobby's form, the opponent filled in).
   */
  async showViewer(name) {
    const viewer = await api.me().catch(() => null);
    if (!viewer) return;
    if (viewer.name.toLowerCase() !== name.toLowerCase()) {
      $('#profile-challenge').href = `/lobby?to=${encodeURIComponent(name)}`;
      $('#profile-challenge-box').hidden = false;
      return;
    }
    if (viewer.vacationDaysLeft !== undefined) vacationForm($('#vacation'), viewer);
    $('#profile-tokens-box').hidden = false;
    const form = $('#token-form');
    const msg = $('[data-testid="token-message"]');
    const shown = $('#token-new');
    const list = (tokens) => {
      $('#tokens').replaceChildren(tokens.length === 0 ? h('p', { class: 'muted' }, t('tokens.none'))
        : h('ul', { class: 'tokens' }, tokens.map((tk) => h('li', { 'data-testid': 'token', 'data-token': tk.id },
          h('span', {}, tk.description || t('tokens.untitled')), ' ',
          h('code', { class: 'small' }, tk.scopes.join(' ')), ' ',
          h('span', { class: 'muted small' }, formatDate(tk.created, 'long')), ' ',
          h('button', {
            type: 'button', class: 'pill', 'data-testid': 'token-revoke',
            'aria-label': t('tokens.revoke_label', { name: tk.description || t('tokens.untitled') }),
            onclick: async () => {
              try {
                list((await api.revokeToken(tk.id)).tokens);
                showMessage(msg, '');
              } catch (e) {
                showMessage(msg, e.message);
              }
            },
          }, t('tokens.revoke'))))));
    };
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const scopes = [...form.querySelectorAll('input[name="scope"]:checked')].map((c) => c.value);
      if (scopes.length === 0) {
        showMessage(msg, t('tokens.no_scope'));
        return;
      }
      try {
        const tk = await api.createToken({ description: form.elements.description.value, scopes });
        showMessage(msg, '');
        shown.replaceChildren(t('tokens.created'), ' ', h('code', { 'data-testid': 'token-secret' }, tk.token));
        shown.hidden = false;
        form.elements.description.value = '';
        list((await api.tokens()).tokens);
      } catch (e) {
        showMessage(msg, e.message);
      }
    });
    try {
      list((await api.tokens()).tokens);
    } catch (e) {
      showMessage(msg, e.message);
    }
  }

  showRatings(ratings) {
    const rows = ratings.map((r) => h('tr', { 'data-testid': `rating-${r.size}-${r.speed}` },
      h('th', { scope: 'row' }, poolName(r.size, r.speed)),
      h('td', { class: `num rating-value${r.provisional ? ' provisional' : ''}`, title: r.provisional ? t('profile.provisional') : null }, ratingText(r)),
      h('td', { class: 'num muted' }, t('profile.rated_games', { n: r.games }))));
    $('#profile-ratings').replaceChildren(h('table', { class: 'games ratings' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('profile.pool')), h('th', { class: 'num' }, t('profile.rating')), h('th', { class: 'num' }, t('profile.played')))),
      h('tbody', {}, rows)));
  }

  showHistory(history) {
    const select = $('#chart-pool');
    select.replaceChildren(...history.map((hs) => h('option', { value: `${hs.size}-${hs.speed}` },
      t('profile.pool_games', { pool: poolName(hs.size, hs.speed), n: hs.points.length }))));
    select.value = chosenPool(history);
    const draw = () => {
      const hs = history.find((x) => `${x.size}-${x.speed}` === select.value);
      $('#rating-history').replaceChildren(hs ? ratingChart(hs) : '');
    };
    select.addEventListener('change', draw);
    draw();
  }

  async loadGames() {
    const current = this.latest.ask();
    const box = $('#player-games');
    const msg = $('[data-testid="games-message"]');
    $('#games-pgn').href = api.playerPGN(this.name, gamesQuery({ ...this.filters, result: this.filters.result === 'ongoing' ? '' : this.filters.result }));
    $('#games-pgn').hidden = this.filters.result === 'ongoing';
    let page;
    try {
      page = await api.playerGames(this.name, gamesQuery(this.filters, pageCursor(this.pager)));
    } catch (e) {
      if (!current()) return;
      showMessage(msg, e.message);
      box.replaceChildren();
      this.showPager(null);
      return;
    }
    if (!current()) return;
    showMessage(msg, '');
    this.showPager(page.next);
    const games = page.games || [];
    if (games.length === 0) {
      const filtered = this.filters.result || this.filters.opponent || this.filters.size;
      box.replaceChildren(h('p', { class: 'muted' }, filtered ? t('profile.no_match') : t('profile.none')));
      return;
    }
    box.replaceChildren(h('table', { class: 'games' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('list.date')), h('th', {}, t('list.opponent')), h('th', { class: 'hide-narrow' }, t('list.colour')),
        h('th', {}, t('list.board')), h('th', { class: 'hide-narrow' }, t('list.time')), h('th', {}, t('list.result')),
        h('th', { class: 'num hide-narrow' }, t('list.moves')), h('th', { class: 'hide-narrow' }, t('list.records')))),
      h('tbody', {}, games.map((g) => {
        const r = gameRow(g);
        return h('tr', { 'data-testid': 'player-game', 'data-game': g.id, 'data-outcome': g.outcome },
          h('td', {}, h('a', { href: r.href }, r.date)),
          h('td', { class: 'players' }, playerLink(r.opponent, r.opponentAccount, { class: 'name-cut', title: r.opponent }), botTag(g.opponent.bot),
            r.opponentRating ? h('span', { class: 'muted small' }, ` (${r.opponentRating})`) : null),
          h('td', { class: 'hide-narrow' }, r.color),
          h('td', {}, r.board),
          h('td', { class: 'hide-narrow' }, r.timeKind),
          h('td', { class: `outcome ${g.outcome}` }, h('a', { href: r.href }, r.outcome),
            r.change ? h('span', { class: 'change', 'data-testid': 'rating-change', title: t('profile.change_title') }, ` ${r.change}`) : null,
            r.reason ? h('span', { class: 'muted small' }, ` ${r.reason}`) : null),
          h('td', { class: 'num hide-narrow' }, String(r.moves)),
          h('td', { class: 'links hide-narrow' }, r.pgn
            ? [h('a', { href: r.pgn, download: true, 'data-testid': 'game-pgn' }, 'PGN'), ' ',
              h('a', { href: r.json, download: true, 'data-testid': 'game-json' }, 'JSON')]
            : h('span', { class: 'muted' }, '–')));
      }))));
  }

  showPager(next) {
    this.next = next || null;
    $('#games-next').disabled = !this.next;
    $('#games-prev').disabled = pageNumber(this.pager) === 1;
    $('#games-page').textContent = t('profile.page', { n: pageNumber(this.pager) });
  }
}
