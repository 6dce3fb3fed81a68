// A tournament's page, /t/{id}, the entry module of tournament.html (boot
// first): its head (system, time, status, start or end with an arena's
// countdown, entry conditions), joining and withdrawing (with the
// password when one is needed; a refusal said in the page's language),
// the creator's start, pause, resume and cancel, the viewer's next game,
// the standings and the pairings by round, each game linked, and the
// records to download. The stream GET /api/tournaments/{id}/stream keeps
// it live; a polite live region says when a round is paired or the
// viewer's game starts, and the page goes to a game of the viewer's that
// appears while it is open, as the lobby does when a challenge is
// accepted.

import * as api from './api.js';
import { boot } from './boot.js';
import { ChatPanel } from './chat.js';
import { $, botTag, decoded, h, keepFocus, playerLink, showMessage } from './dom.js';
import { t } from './i18n.js';
import { timeText } from './deadline.js';
import {
  actions, conditionTexts, formatText, gameToOpen, headLine, nextGame, news, pairingRows, roundTitle,
  standingsRows, statusText, tiebreakColumns,
} from './tournamentview.js';

/** CREATOR_ACTIONS are the creator's buttons, by their data-action. */
const CREATOR_ACTIONS = ['start', 'pause', 'resume', 'cancel'];

class TournamentPage {
  constructor(id) {
    this.id = id;
    this.view = null; // the latest tournament shown
    this.viewer = ''; // the reader's name, "" for a guest
    this.msg = $('[data-testid="tournament-message"]');
    this.form = $('#tournament-actions');
    this.password = $('[data-testid="tournament-password"]');
    this.stop = () => {};
  }

  async start() {
    await this.who();
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.act('join', this.password.value ? { password: this.password.value } : {});
    });
    $('[data-testid="tournament-withdraw"]').addEventListener('click', () => this.act('withdraw'));
    for (const a of CREATOR_ACTIONS.filter((x) => x !== 'cancel')) {
      $(`[data-testid="tournament-${a}"]`).addEventListener('click', () => this.act(a));
    }
    this.askCancel();
    // The tournament's one room: every account writes in it, its lines
    // come with the tournament.
    this.chat = new ChatPanel($('#chat'), this.id, { post: (text) => api.postTournamentChat(this.id, text), title: t('tournament.chat') });
    this.chat.setState(null);
    $('#download-pgn').href = api.tournamentFile(this.id, 'pgn');
    $('#download-trf').href = api.tournamentFile(this.id, 'trf');
    try {
      this.show(await api.getTournament(this.id));
    } catch (e) {
      this.title(t('tournament.not_found'));
      showMessage(this.msg, e.message);
      return;
    }
    this.follow();
    setInterval(() => this.tick(), 1000);
  }

  /**
   * askCancel makes cancelling ask first, in the page, as resigning
   * does: yes cancels, no or Escape takes the question back.
   */
  askCancel() {
    const ask = $('#tournament-cancel-ask');
    const cancel = $('[data-testid="tournament-cancel"]');
    const keep = () => {
      ask.hidden = true;
      cancel.focus();
    };
    cancel.addEventListener('click', () => {
      ask.hidden = false;
      $('[data-testid="tournament-cancel-keep"]').focus();
    });
    $('[data-testid="tournament-cancel-keep"]').addEventListener('click', keep);
    $('[data-testid="tournament-cancel-confirm"]').addEventListener('click', () => {
      ask.hidden = true;
      this.act('cancel');
    });
    ask.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') keep();
    });
  }

  /** who learns the reader's name, which the creator's buttons and the tables' marks need. */
  async who() {
    try {
      const user = await api.me();
      this.viewer = user ? user.name : '';
    } catch {
      this.viewer = '';
    }
  }

  follow() {
    this.stop();
    this.stop = api.followTournament(this.id, (v) => this.show(v), (status) => {
      $('#tournament-conn').hidden = status === 'open';
    });
  }

  async act(action, body = {}) {
    try {
      this.show(await api.tournamentAction(this.id, action, body));
      showMessage(this.msg, '');
      if (action === 'join') this.password.value = '';
    } catch (e) {
      showMessage(this.msg, e.message);
    }
  }

  /** show draws tour, unless an older version than the one shown. */
  show(tour) {
    const before = this.view;
    if (before && tour.version < before.version) return;
    this.view = tour;
    const open = gameToOpen(before, tour);
    const said = news(before, tour);
    if (said) $('#tournament-announce').textContent = said;
    if (open) {
      location.assign(`/g/${encodeURIComponent(open)}`);
      return;
    }
    keepFocus(() => {
      this.head(tour);
      this.buttons(tour);
      this.standings(tour);
      this.rounds(tour);
    }, '.tournament-head, #standings, #rounds', () => $('#tournament-name'));
    for (const line of tour.chat || []) this.chat.take(line);
    document.documentElement.dataset.tournamentVersion = String(tour.version);
  }

  /** title names the page, no longer "Loading…". */
  title(text) {
    const name = $('#tournament-name');
    name.removeAttribute('data-i18n');
    name.textContent = text;
  }

  head(tour) {
    this.title(tour.name);
    document.title = t('tournament.title_of', { name: tour.name });
    $('#tournament-format').textContent = formatText(tour);
    $('#tournament-time').textContent = timeText(tour);
    $('#tournament-rated').textContent = t(tour.rated ? 'lobby.rated' : 'lobby.casual');
    $('#tournament-board').textContent = `${tour.size}×${tour.size}`;
    const status = $('#tournament-status');
    status.textContent = statusText(tour.status);
    status.dataset.status = tour.status;
    const conds = conditionTexts(tour);
    const list = $('#tournament-conditions');
    list.replaceChildren(...conds.map((c) => h('li', {}, c)));
    list.hidden = conds.length === 0;
    $('#tournament-creator').textContent = tour.creator ? t('tournament.made_by', { name: tour.creator }) : '';
    const next = nextGame(tour);
    const box = $('#next-game');
    box.hidden = !next;
    if (next) {
      box.replaceChildren(next.game
        ? h('a', { class: 'button primary', href: next.game, 'data-testid': 'next-game-link' }, next.text)
        : h('span', {}, next.text));
    }
    $('#download-trf').hidden = tour.system !== 'swiss' || tour.status === 'created';
    $('#download-pgn').hidden = tour.status === 'created';
    this.tick();
  }

  /** tick counts the head's time down. */
  tick() {
    if (!this.view) return;
    const line = headLine(this.view, Date.now());
    $('#tournament-when').textContent = line.when;
    const down = $('#tournament-countdown');
    down.hidden = !line.countdown;
    down.textContent = line.countdown;
  }

  buttons(tour) {
    const can = actions(tour, this.viewer);
    $('[data-testid="tournament-join"]').hidden = !can.join;
    $('#tournament-password-field').hidden = !can.password;
    const withdraw = $('[data-testid="tournament-withdraw"]');
    withdraw.hidden = !can.withdraw;
    withdraw.textContent = t(tour.system === 'arena' ? 'tournament.leave' : 'tournament.withdraw');
    for (const a of CREATOR_ACTIONS) $(`[data-testid="tournament-${a}"]`).hidden = !can.creator.includes(a);
    if (!can.creator.includes('cancel')) $('#tournament-cancel-ask').hidden = true;
    const why = $('#tournament-why');
    why.textContent = can.why;
    why.hidden = !can.why;
  }

  standings(tour) {
    const box = $('#standings');
    const rows = standingsRows(tour, this.viewer);
    if (rows.length === 0) {
      box.replaceChildren(h('p', { class: 'muted', 'data-testid': 'standings-empty' }, t('tournament.no_players')));
      return;
    }
    const cols = tiebreakColumns(tour.system);
    const arena = tour.system === 'arena';
    const col = (text, attrs = {}) => h('th', { scope: 'col', ...attrs }, text);
    box.replaceChildren(h('table', { class: 'games standings', 'data-testid': 'standings-table' },
      h('caption', { class: 'sr-only' }, t('tournament.standings_caption', { name: tour.name })),
      h('thead', {}, h('tr', {},
        col(t('tournament.col_rank'), { class: 'num' }), col(t('list.player')), col(t('tournament.col_rating'), { class: 'num hide-narrow' }),
        col(t('tournament.col_score'), { class: 'num' }), col(t('tournament.col_games'), { class: 'num' }),
        cols.map((c) => col(h('abbr', { title: c.title }, c.label), { class: 'num hide-narrow' })),
        arena ? col(t('tournament.col_sheet'), { class: 'hide-narrow' }) : null)),
      h('tbody', {}, rows.map((r) => h('tr', {
        'data-testid': 'standing', 'data-name': r.name, 'data-score': r.score, class: [r.me ? 'me' : '', r.withdrawn ? 'withdrawn' : ''].join(' ').trim() || null,
      },
      h('td', { class: 'num' }, r.rank),
      h('th', { scope: 'row', class: 'players' }, playerLink(r.name, true), botTag(r.bot),
        r.streak ? h('span', { class: 'tag streak', 'data-testid': 'streak', title: t('tournament.streak_title') },
          h('span', { 'aria-hidden': 'true' }, '×2'), h('span', { class: 'sr-only' }, t('tournament.streak_title'))) : null,
        r.withdrawn ? h('span', { class: 'muted small' }, ` ${t('tournament.withdrawn')}`) : null),
      h('td', { class: 'num hide-narrow' }, r.rating),
      h('td', { class: 'num score', 'data-testid': 'standing-score' }, r.score),
      h('td', { class: 'num' }, r.games),
      r.tiebreaks.map((v) => h('td', { class: 'num hide-narrow' }, v)),
      arena ? h('td', { class: 'sheet hide-narrow' }, r.sheet) : null)))));
  }

  rounds(tour) {
    const box = $('#rounds');
    const rounds = [...(tour.rounds || [])];
    if (tour.system !== 'arena') rounds.sort((a, b) => b.number - a.number);
    if (rounds.length === 0 || rounds.every((r) => !(r.pairings || []).length)) {
      box.replaceChildren(h('p', { class: 'muted', 'data-testid': 'rounds-empty' }, t('tournament.no_pairings')));
      return;
    }
    box.replaceChildren(...rounds.map((round) => {
      const title = roundTitle(tour, round);
      const rows = pairingRows(round, this.viewer);
      const name = (n) => (n ? playerLink(n, true) : '');
      return h('table', { class: 'games pairings', 'data-testid': 'round', 'data-round': round.number },
        h('caption', {}, title),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, t('tournament.col_board')), h('th', { scope: 'col' }, t('colour.white')),
          h('th', { scope: 'col', class: 'pair-result' }, t('tournament.col_result')), h('th', { scope: 'col' }, t('colour.black')))),
        h('tbody', {}, rows.map((r) => h('tr', { 'data-testid': 'pairing', class: r.me ? 'me' : null },
          h('td', { class: 'num' }, r.board),
          h('td', {}, name(r.white)),
          h('td', { class: 'pair-result' }, r.game
            ? h('a', { href: r.game, 'data-testid': 'pairing-game', title: r.words, 'aria-label': t('tournament.game_label', { white: r.white, black: r.black, result: r.words }) },
              r.result)
            : h('span', { title: r.words }, r.result)),
          h('td', {}, name(r.black))))));
    }));
  }
}

const match = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
const page = new TournamentPage(decoded(match ? match[1] : ''));
// What the page shows depends on who looks: a login or a logout loads it again.
await boot(() => location.reload());
page.start();
