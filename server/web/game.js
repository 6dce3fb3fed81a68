// The page of one game, "/g/{id}": it wires the state (sync.js), the board
// (board.js), the panel (panel.js), the clocks (clock.js) or the days per
// move (deadline.js), replay (replay.js), analysis (analysis.js) and the
// chat (chat.js) to the markup and to each other, and sends the player's
// actions: his moves and premoves (premove.js) among them. It makes the
// sounds of play (sound.js).

import * as api from './api.js';
import { Analysis } from './analysis.js';
import { announcement } from './announce.js';
import { Board } from './board.js';
import { ChatPanel } from './chat.js';
import { Clocks } from './clock.js';
import { Deadline } from './deadline.js';
import { showVacationNotes } from './vacation.js';
import { $, focusable, h, keepFocus, showMessage } from './dom.js';
import { t, tParts } from './i18n.js';
import { normalizeMove } from './notation.js';
import { closeResign, renderAnalysis, renderControls, renderMoves, renderPlayer, renderRematch, renderSeats, renderStatus } from './panel.js';
import { storedName, storeName } from './prefs.js';
import { canPremove, legalPremove } from './premove.js';
import { rematchGame } from './rated.js';
import { firstSide, Replay } from './replay.js';
import { OfferWatch, inviteFromHash, myTurn, title } from './status.js';
import { soundOf, Sounds } from './sound.js';
import { GameSync, playedMove } from './sync.js';
import { other } from './text.js';
import { uploadFile } from './upload.js';

/** focusParts are the parts of the game page that are drawn anew from the state; keepFocus keeps the focus within them. */
const focusParts = '#board, #move-form, #moves, #controls, #offers, #rematch-box, .navbar, #join-box, #invite-box, .view-bar, .tools, .board-col';


/** GamePage runs the page of one game: board, panel, live updates. */
export class GamePage {
  constructor(id) {
    this.id = id;
    // The invitation the link carries, if it does (status.js).
    this.invite = inviteFromHash(location.hash);
    this.offers = new OfferWatch();
    this.sync = new GameSync(id, {
      onState: (s, prev) => this.took(s, prev),
      onConn: (status) => {
        $('#conn').hidden = status === 'open';
      },
      onChat: (line) => this.chat && this.chat.take(line),
      onSpectators: ({ n }) => {
        const el = $('#spectators');
        el.hidden = !n;
        el.textContent = n ? t('game.spectators', { n }) : '';
      },
    });
    this.replay = new Replay((ply) => api.positionAt(id, ply));
    this.clocks = new Clocks();
    this.sounds = new Sounds();
    this.clocks.onLow = (colour) => {
      if (this.state && colour === this.state.you) this.sounds.play('low');
    };
    this.flipped = false;
    this.userFlipped = false;
    this.busy = false; // a move is on its way to the server
    this.boardKey = '';
    this.animateNext = null;
  }

  /** state is the game as last taken. */
  get state() {
    return this.sync.state;
  }

  start() {
    const main = $('#game');
    main.hidden = false;
    this.msg = $('[data-testid="message"]', main);
    this.board = new Board($('#board'), {
      onMove: (m) => this.play(m),
      onPremove: (m) => {
        $('#announce').textContent = m ? t('game.premove_set', { move: m }) : t('game.premove_cancelled');
      },
      label: t('board.label'),
    });
    this.deadline = new Deadline($('#deadline'));
    this.chat = new ChatPanel($('#chat'), this.id);
    this.analysis = new Analysis(this.id, $('#analysis'), (busy) => {
      if (this.state) this.keepFocus(() => renderAnalysis(this.state, busy));
    });
    this.wire();
    this.load();
    this.sync.follow();
  }

  async load() {
    try {
      await this.sync.load();
    } catch (e) {
      if (e.status === 404) {
        $('[data-testid="status"]').replaceChildren(...tParts('game.none', { link: h('a', { href: '/' }, t('game.start_new')) }));
      }
      this.error(e.message);
    }
  }

  error(text) {
    showMessage(this.msg, text, 'error');
  }

  info(text) {
    showMessage(this.msg, text, 'info');
  }

  wire() {
    $('#flip').addEventListener('click', () => {
      this.flipped = !this.flipped;
      this.userFlipped = true;
      this.board.setFlipped(this.flipped);
      this.renderPlayers();
    });
    for (const b of document.querySelectorAll('[data-nav]')) {
      b.addEventListener('click', () => this.nav(b.dataset.nav));
    }
    $('#live').addEventListener('click', () => this.goLive());
    $('#moves').addEventListener('click', (e) => {
      const b = e.target.closest('[data-ply]');
      if (b) this.showPly(Number(b.dataset.ply));
    });
    // The move list is one Tab stop: its arrow keys, Home and End go from
    // move to move, and the board shows each (panel.js renderMoves).
    $('#moves').addEventListener('keydown', (e) => {
      const keys = { ArrowUp: 'prev', ArrowLeft: 'prev', ArrowDown: 'next', ArrowRight: 'next', Home: 'first', End: 'last' };
      if (!keys[e.key] || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      this.nav(keys[e.key]);
    });
    $('#move-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.typedMove();
    });
    $('#copy-invite').addEventListener('click', () => this.copyInvite());
    $('#resign').addEventListener('click', () => {
      $('#resign').hidden = true;
      $('#resign-confirm-box').hidden = false;
      $('#resign-no').focus();
    });
    // The confirmation goes away: the focus goes back to Resign, and from
    // there, once the game is over, to the result (keepFocus).
    $('#resign-no').addEventListener('click', () => {
      closeResign();
      $('#resign').focus();
    });
    $('#resign-confirm-box').addEventListener('keydown', (e) => {
      if (e.key === 'Escape') $('#resign-no').click();
    });
    $('#resign-yes').addEventListener('click', () => {
      closeResign();
      $('#resign').focus();
      this.act(() => api.resign(this.id));
    });
    $('#abort').addEventListener('click', () => this.act(() => api.abort(this.id)));
    // What an offer stands at shows in the panel from the state (status.js
    // controls), so it goes away when the offer is answered or the game ends.
    const idle = (b) => b.getAttribute('aria-disabled') === 'true';
    $('#draw').addEventListener('click', (e) => idle(e.currentTarget) || this.act(() => api.draw(this.id, 'offer')));
    $('#takeback').addEventListener('click', (e) => idle(e.currentTarget) || this.act(() => api.takeback(this.id, 'request')));
    $('#analyse').addEventListener('click', () => this.analyse());
    $('[data-testid="upload"]', $('#game')).addEventListener('change', (e) => uploadFile(e.target, this.msg));
    $('#join-name').value = storedName();
    $('#open-board').href = `/analysis?game=${encodeURIComponent(this.id)}`;
    $('#dl-pgn').href = api.recordURL(this.id, 'pgn');
    $('#dl-json').href = api.recordURL(this.id, 'json');

    document.addEventListener('keydown', (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable]')) return;
      const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
      if (keys[e.key]) {
        e.preventDefault();
        this.nav(keys[e.key]);
      } else if (e.key === 'Escape') {
        if (this.board.path.length) this.board.clearSelection();
        else this.board.cancelPremove();
      }
    });
    // A premove is cancelled by a click anywhere off the board (on the
    // board, by the board itself).
    document.addEventListener('pointerdown', (e) => {
      if (!e.target.closest || !e.target.closest('#board')) this.board.cancelPremove();
    });
    // A man of the player's hand is dragged onto the board for an entry.
    for (const box of [$('#player-top'), $('#player-bottom')]) {
      box.addEventListener('pointerdown', (e) => {
        if (e.target.closest('.hand')) this.board.handDrag(e, box.dataset.testid.replace('player-', ''));
      });
    }
  }

  // took shows a state the sync has just taken, prev the one before.
  took(s, prev) {
    // A rematch this page saw offered has been accepted: both players go.
    const next = rematchGame(prev, s);
    if (next) location.assign(`/g/${encodeURIComponent(next)}`);
    this.seeOffers(s);
    if (!this.replay.view) {
      const m = playedMove(prev, s);
      if (m) this.animateNext = m;
    }
    this.chat.setState(s);
    $('#dl-json-note').hidden = s.size !== 7;
    if (!this.userFlipped) {
      const want = s.you === 'black';
      if (want !== this.flipped) {
        this.flipped = want;
        this.board.setFlipped(want);
      }
    }
    this.replay.fit(s.moves.length);
    this.render();
    const words = announcement(prev, s);
    if (words) $('#announce').textContent = words;
    this.sounds.play(soundOf(prev, s));
  }

  /**
   * seeOffers shows the state s, taken or not, to the watch of the
   * viewer's offers: an offer that only goes away from the panel would
   * leave its maker wondering, so he is told it was declined.
   */
  seeOffers(s) {
    const no = this.offers.see(s);
    if (no) this.info(no === 'draw' ? t('offer.draw_declined') : t('offer.takeback_declined'));
  }

  /**
   * keepFocus runs fn, which redraws part of the page, and keeps the focus
   * within the part of the page that had it (dom.js), else on the result
   * or the status.
   */
  keepFocus(fn) {
    keepFocus(fn, focusParts, () => {
      const result = $('[data-testid="result"]');
      return focusable(result) ? result : $('[data-testid="status"]');
    });
  }

  render() {
    this.keepFocus(() => this.draw());
    this.playPremove();
  }

  /**
   * playPremove plays the premove kept once the player may move: at once
   * if it is legal then, else it is forgotten without a word, as it is
   * when the game ends.
   */
  playPremove() {
    const s = this.state;
    if (!this.board.premove || !s) return;
    if (s.over) this.board.takePremove();
    if (!this.canMove()) return;
    const m = legalPremove(this.board.takePremove(), s.legal);
    if (m) this.play(m);
  }

  draw() {
    const s = this.state;
    if (!s) return;
    this.renderBoard();
    this.renderPlayers();
    renderStatus(s, this.replay.view, this.invite);
    renderMoves(s, this.replay.view);
    renderSeats(s, this.invite, () => this.join());
    renderControls(s, (what, action) => this.act(() => api[what](this.id, action)));
    renderRematch(s, (action) => this.act(() => api.rematch(this.id, action)), (body) => this.playAgain(body));
    renderAnalysis(s, this.analysis.busy);
    this.clocks.sync(s);
    this.deadline.sync(s);
    showVacationNotes($('#vacation-note'), s);
    document.title = title(s);
  }

  canMove() {
    return !this.replay.view && !this.busy && myTurn(this.state);
  }

  renderBoard() {
    const s = this.state;
    const view = this.replay.view;
    const interactive = this.canMove();
    const premove = canPremove(s, view);
    const key = `${s.version}|${view ? view.ply : 'live'}|${interactive}|${premove}`;
    if (key === this.boardKey && !this.animateNext) return;
    this.boardKey = key;
    const animate = this.animateNext;
    this.animateNext = null;
    if (view) {
      const d = view.data;
      this.board.update({ size: s.size, board: d.board, lastMove: d.lastMove, interactive: false, animate });
    } else {
      this.board.update({
        size: s.size, board: s.board, lastMove: s.moves[s.moves.length - 1] || null,
        legal: s.legal || [], interactive, premove, you: s.you, animate,
      });
    }
    // The field stays in the tab order while the move is sent and while
    // the opponent thinks, so that its focus is not lost: it is read-only.
    const input = $('#move-input');
    input.readOnly = !interactive;
    input.setAttribute('aria-disabled', String(!interactive));
    $('[data-testid="move-submit"]').disabled = !interactive;
  }

  renderPlayers() {
    const s = this.state;
    if (!s) return;
    const bottom = this.flipped ? 'black' : 'white';
    for (const [box, colour] of [['#player-top', other(bottom)], ['#player-bottom', bottom]]) {
      this.clocks.attach(colour, renderPlayer($(box), s, this.replay.view, colour));
    }
    this.clocks.tick();
  }

  // ------------------------------------------------------------ actions

  /** playAgain starts the game of body (rated.js playAgain) and goes to it. */
  async playAgain(body) {
    const name = storedName();
    try {
      const ns = await api.createGame(name ? { ...body, name } : body);
      location.assign(`/g/${encodeURIComponent(ns.id)}`);
    } catch (e) {
      this.error(e.message);
    }
  }

  /**
   * act runs a request that answers with the state, and shows what failed.
   * What it did shows from the state, not as a message.
   */
  async act(fn) {
    // The message goes before the request: the state may bring one (an
    // offer declined) before its answer comes.
    showMessage(this.msg, '');
    try {
      const ns = await fn();
      // An answer older than the state taken still tells of the offer it
      // made, and the state taken may be its decline.
      if (ns && ns.id && !this.sync.apply(ns)) {
        this.seeOffers(ns);
        this.seeOffers(this.state);
      }
    } catch (e) {
      this.error(e.message);
      if (e.status === 409) this.sync.refresh();
    }
  }

  async play(text) {
    const s = this.state;
    if (this.busy || !s) return;
    this.busy = true;
    showMessage(this.msg, '');
    this.keepFocus(() => this.renderBoard());
    try {
      const ns = await api.move(this.id, text, s.moves.length);
      this.busy = false;
      $('#move-input').value = '';
      if (!this.sync.apply(ns)) this.keepFocus(() => this.renderBoard());
    } catch (e) {
      this.busy = false;
      this.error(e.message);
      this.board.clearSelection();
      this.keepFocus(() => this.renderBoard());
      if (e.status === 409) this.sync.refresh();
    }
  }

  typedMove() {
    const raw = $('#move-input').value.trim();
    if (!raw) return;
    if (this.replay.view) {
      this.error(t('game.not_live'));
      return;
    }
    if (!myTurn(this.state)) {
      this.error(this.state && this.state.over ? t('error.game.over') : t('error.game.not_your_turn'));
      return;
    }
    this.play(normalizeMove(raw));
  }

  async join() {
    const name = $('#join-name').value.trim();
    storeName(name);
    try {
      const ns = await api.join(this.id, name, this.invite);
      // The invitation is spent: the address keeps no secret to pass on.
      this.invite = '';
      history.replaceState(null, '', location.pathname + location.search);
      this.sync.follow();
      this.sync.apply(ns);
      this.info(t('game.joined'));
    } catch (e) {
      this.error(e.message);
      if (e.status === 409) this.sync.refresh();
    }
  }

  async copyInvite() {
    const input = $('#invite-link');
    const btn = $('#copy-invite');
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    btn.textContent = t('game.copied');
    setTimeout(() => {
      btn.textContent = t('game.copy');
    }, 1500);
  }

  // ------------------------------------------------------------ replay

  nav(where) {
    const s = this.state;
    if (!s) return;
    const to = this.replay.target(where, s.moves.length);
    if (to !== null) this.showPly(to);
  }

  goLive() {
    const s = this.state;
    const left = this.replay.live();
    if (!left) return;
    if (left.ply === s.moves.length - 1) this.animateNext = s.moves[s.moves.length - 1];
    this.render();
  }

  async showPly(ply) {
    if (ply >= this.state.moves.length) {
      this.goLive();
      return;
    }
    let data;
    try {
      data = await this.replay.fetch(ply, this.state.moves);
    } catch (e) {
      this.error(e.message);
      return;
    }
    // Another choice came first, or a take-back took the ply away.
    if (!data || this.state.moves.length <= ply) return;
    const from = this.replay.shown(this.state.moves.length);
    this.board.clearSelection();
    this.replay.view = { ply, data };
    if (ply === from + 1 && data.lastMove) this.animateNext = data.lastMove;
    this.render();
  }

  // ------------------------------------------------------------ analysis

  analyse() {
    const s = this.state;
    if (!s || !s.analysis) return;
    const view = this.replay.view;
    const n = s.moves.length;
    this.analysis.run(view ? view.data.position : s.position, view ? view.data.turn : s.turn,
      this.replay.shown(n), firstSide(n, s.turn));
  }
}
