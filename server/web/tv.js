// The TV, "/tv": the best game going on of each board size, as GET
// /api/tv chooses it, shown live as a spectator sees it on the game page:
// the same board (board.js), player bars and clocks (panel.js, clock.js),
// state and stream (sync.js) and the same words for each move in a live
// region (announce.js). A switch chooses the board size. When the game
// shown ends, its result stays a moment, then the TV asks for the next
// game, again until the answer names another, and switches to it.

import * as api from './api.js';
import { announcement } from './announce.js';
import { Board } from './board.js';
import { Clocks } from './clock.js';
import { Deadline } from './deadline.js';
import { $, h, nameText } from './dom.js';
import { t } from './i18n.js';
import { Latest } from './latest.js';
import { renderPlayer } from './panel.js';
import { resultText, statusLine } from './status.js';
import { GameSync, playedMove } from './sync.js';
import { colourName } from './text.js';

/** SIZES are the TV's channels, one for each board size. */
export const SIZES = [9, 7];

/** RESULT_MS is how long a finished game's result is shown before the TV looks for the next game. */
const RESULT_MS = 3000;

/** ASK_MS is how often the TV asks again while its channel has no new game (the server keeps its answer two seconds). */
const ASK_MS = 2500;

/**
 * IDLE_MS is how often it asks while no game goes on of the size, or
 * while the game shown is not on a clock.
 */
const IDLE_MS = 15000;

/** sizeOf is the channel that the address's query (location.search) names, 9 by default. */
export function sizeOf(search) {
  const n = Number(new URLSearchParams(search).get('size'));
  return SIZES.includes(n) ? n : SIZES[0];
}

/** channelGame is the game that the answer a of GET /api/tv shows on the channel of size, null for none. */
export function channelGame(a, size) {
  const c = ((a && a.channels) || []).find((ch) => ch.size === size);
  return (c && c.game) || null;
}

/**
 * nextGame is what the TV does with the answer a on the channel of size
 * while it shows the game shown ('' for none), in the state of the game
 * shown: {over, clock} (it has ended; it is played on a clock). It
 * returns the game to show now, {id: ''} to show none, or null to keep
 * what it shows. A game on a clock is kept to its end, and one that has
 * ended while the answer still names it (the server's answer is a moment
 * old); a correspondence or untimed game, which may last days, gives way
 * to another that the answer names.
 */
export function nextGame(a, size, shown, { over = false, clock = false } = {}) {
  const g = channelGame(a, size);
  if (!shown) return g || { id: '' };
  if (over) return g && g.id === shown ? null : g || { id: '' };
  if (clock) return null;
  return g && g.id !== shown ? g : null;
}

/** playerText is a seat of a game of /api/tv in words: the name (a guest's marked), and the rating of an account's. */
export function playerText(g, colour) {
  const name = nameText(g[colour], g[`${colour}Guest`]) || colourName(colour);
  const rating = g[`${colour}Rating`];
  return rating === null || rating === undefined ? name : `${name} (${rating})`;
}

/** TvPage runs the TV in its markup (#tv). */
export class TvPage {
  constructor() {
    this.size = sizeOf(location.search);
    this.latest = new Latest();
    this.shown = ''; // the ID of the game shown
    this.sync = null;
    this.timer = 0;
    this.boardKey = '';
    this.clocks = new Clocks();
  }

  start() {
    const main = $('#tv');
    main.hidden = false;
    this.board = new Board($('#tv-board'), { label: t('board.label') });
    this.deadline = new Deadline($('#tv-deadline'));
    for (const b of main.querySelectorAll('[data-size]')) {
      b.addEventListener('click', () => this.tune(Number(b.dataset.size)));
    }
    this.tune(this.size);
  }

  /** tune shows the channel of size: its game, asked for anew. */
  tune(size) {
    this.size = size;
    for (const b of document.querySelectorAll('#tv [data-size]')) {
      b.setAttribute('aria-pressed', String(Number(b.dataset.size) === size));
    }
    const url = new URL(location.href);
    url.searchParams.set('size', String(size));
    history.replaceState(null, '', url.pathname + url.search);
    this.show(null);
    this.ask();
  }

  /** ask asks which game the channel shows, and switches to it if it is another; else asks again later. */
  async ask() {
    clearTimeout(this.timer);
    const latest = this.latest.ask();
    const size = this.size;
    let a;
    try {
      a = await api.tv();
    } catch (e) {
      if (!latest()) return;
      $('#tv-message').textContent = e.message;
      this.later(IDLE_MS);
      return;
    }
    if (!latest()) return;
    $('#tv-message').textContent = '';
    const s = this.sync && this.sync.state;
    const over = Boolean(s && s.over);
    const clock = Boolean(s && s.clock);
    const next = nextGame(a, size, this.shown, { over, clock });
    if (next) this.show(next);
    if (!this.shown || (!next && !over && !clock)) this.later(IDLE_MS);
    else if (over && !next) this.later(ASK_MS);
  }

  /** later asks again after ms. */
  later(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), ms);
  }

  /** show follows the game g of /api/tv ({id: ''} or null for none). */
  show(g) {
    if (this.sync && this.sync.unfollow) this.sync.unfollow();
    this.sync = null;
    this.shown = (g && g.id) || '';
    this.boardKey = '';
    // Nothing of the game shown before stays under the next one's names
    // while its first state comes.
    if (this.board.size) this.board.update({ size: this.board.size, board: [], lastMove: null, interactive: false });
    const main = $('#tv');
    main.dataset.game = this.shown;
    const box = $('#tv-view');
    box.hidden = !this.shown;
    $('#tv-none').hidden = Boolean(this.shown) || !g;
    if (!this.shown) {
      this.clocks.sync({});
      this.deadline.sync({});
      return;
    }
    const link = $('#tv-link');
    link.href = `/g/${encodeURIComponent(this.shown)}`;
    $('#tv-players').textContent = t('tv.players', { white: playerText(g, 'white'), black: playerText(g, 'black') });
    $('#tv-result').hidden = true;
    $('#tv-spectators').hidden = true;
    // The switch is said first, then each move as the game page says it.
    $('#tv-announce').textContent = t('tv.now', { white: playerText(g, 'white'), black: playerText(g, 'black') });
    // What comes for a game no longer shown (a first state late) is
    // dropped.
    const mine = (fn) => (...args) => this.sync === sync && fn(...args);
    const sync = new GameSync(this.shown, {
      onState: mine((s, prev) => this.took(s, prev)),
      onConn: mine((status) => {
        $('#tv-conn').hidden = status === 'open';
      }),
      onChat: () => {},
      onSpectators: mine(({ n }) => {
        const el = $('#tv-spectators');
        el.hidden = !n;
        el.textContent = n ? t('game.spectators', { n }) : '';
      }),
    });
    this.sync = sync;
    sync.follow();
    sync.load().catch((e) => {
      if (this.sync === sync) $('#tv-message').textContent = e.message;
    });
  }

  /** took shows the state s of the game shown, prev the one before. */
  took(s, prev) {
    const animate = playedMove(prev, s);
    const key = `${s.id}|${s.version}`;
    if (key !== this.boardKey) {
      this.boardKey = key;
      this.board.update({ size: s.size, board: s.board, lastMove: s.moves[s.moves.length - 1] || null, interactive: false, animate });
    }
    for (const [box, colour] of [['#tv-top', 'black'], ['#tv-bottom', 'white']]) {
      this.clocks.attach(colour, renderPlayer($(box), s, null, colour));
    }
    this.clocks.sync(s);
    this.deadline.sync(s);
    $('#tv-status').textContent = statusLine(s, false).text;
    const r = resultText(s);
    const result = $('#tv-result');
    result.hidden = !r;
    result.replaceChildren(...(r ? [h('strong', {}, r.head), ' ', h('span', { class: 'score' }, r.score),
      h('div', { class: 'reason', hidden: !r.reason }, r.reason),
      h('div', { class: 'reason' }, t('tv.next'))] : []));
    const words = announcement(prev, s);
    if (words) $('#tv-announce').textContent = words;
    // A game that ends while shown: its result stays a moment, then the
    // TV looks for the next one. A game over when first taken (it ended
    // as it was chosen) is left at once.
    if (s.over && (!prev || !prev.over)) {
      this.latest.drop();
      this.later(prev ? RESULT_MS : 0);
    } else if (!prev && !s.over && !s.clock) {
      this.later(IDLE_MS);
    }
  }
}

/** tvPage starts the TV. */
export function tvPage() {
  document.title = `${t('tv.title')} · ${t('site.name')}`;
  new TvPage().start();
}
