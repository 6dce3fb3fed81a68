// The pages of the site: the home page (new game, record upload, recent
// games) at "/", and a game at "/g/{id}". index.html holds the markup of
// both; the one that is not wanted is removed, so every data-testid names
// one element.

import * as api from '/api.js';
import { Board, handStack, parseMove } from '/board.js';

const $ = (sel, root = document) => root.querySelector(sel);
const other = (c) => (c === 'white' ? 'black' : 'white');
const Cap = (c) => c.charAt(0).toUpperCase() + c.slice(1);

/** h makes an HTML element: h('button', {class: 'x', onclick}, 'text', child). */
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

const NAME_KEY = 'emergo.name';
const PREFS_KEY = 'emergo.newgame';

function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

function storeName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
  } catch {
    // Private windows may refuse storage; the name is then asked again.
  }
}

function showMessage(el, text, kind = 'error') {
  // The server's messages start in lower case, as Go errors do.
  el.textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : '';
  el.className = `message ${text ? kind : ''}`;
}

async function uploadFile(input, messageEl) {
  const file = input.files && input.files[0];
  if (!file) return;
  try {
    if (file.size > 1 << 20) throw new Error('The record is larger than 1 MiB.');
    const text = await file.text();
    showMessage(messageEl, 'Reading the record…', 'info');
    const s = await api.uploadRecord(text);
    location.assign(`/g/${encodeURIComponent(s.id)}`);
  } catch (e) {
    showMessage(messageEl, e.message);
  } finally {
    input.value = '';
  }
}

// ---------------------------------------------------------------- home page

function homePage() {
  $('#game').remove();
  const main = $('#home');
  main.hidden = false;
  const form = $('#new-game');
  const msg = $('[data-testid="message"]', main);
  const f = form.elements;

  f.name.value = storedName();
  try {
    const prefs = JSON.parse(localStorage.getItem(PREFS_KEY) || '{}');
    for (const k of ['size', 'color', 'level', 'minutes', 'increment']) {
      if (prefs[k] !== undefined) f[k].value = prefs[k];
    }
    if (prefs.clock) f.clock.checked = true;
  } catch {
    // Unreadable preferences: keep the defaults.
  }
  const syncClock = () => {
    f.minutes.disabled = !f.clock.checked;
    f.increment.disabled = !f.clock.checked;
  };
  const syncLevel = () => {
    $('#level-out').textContent = f.level.value;
  };
  f.clock.addEventListener('change', syncClock);
  f.level.addEventListener('input', syncLevel);
  syncClock();
  syncLevel();

  const create = async (mode) => {
    const name = f.name.value.trim();
    const body = { mode, size: Number(f.size.value), color: f.color.value };
    if (name) body.name = name;
    if (mode === 'engine') body.level = Number(f.level.value);
    if (f.clock.checked) {
      const minutes = Number(f.minutes.value);
      const inc = Number(f.increment.value);
      if (!(minutes > 0) || !(inc >= 0)) {
        showMessage(msg, 'Give the clock a positive number of minutes and of seconds per move.');
        return;
      }
      body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
    }
    storeName(name);
    try {
      localStorage.setItem(PREFS_KEY, JSON.stringify({
        size: f.size.value, color: f.color.value, level: f.level.value,
        minutes: f.minutes.value, increment: f.increment.value, clock: f.clock.checked,
      }));
    } catch {
      // Storage refused: nothing to remember.
    }
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

const modeNames = { engine: 'vs engine', friend: 'friends', analysis: 'record' };

function resultText(r) {
  return { '1-0': 'White won', '0-1': 'Black won', '1/2-1/2': 'Draw' }[r] || 'Playing';
}

function ago(when) {
  const t = typeof when === 'number' ? (when < 1e12 ? when * 1000 : when) : Date.parse(when);
  if (!Number.isFinite(t)) return String(when ?? '');
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 14) return `${Math.floor(s / 86400)} d ago`;
  return new Date(t).toLocaleDateString();
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
    const live = g.result === '*';
    return h('tr', {},
      h('td', { class: 'players' }, h('a', { href }, `${g.white || '?'} – ${g.black || '?'}`)),
      h('td', {}, `${g.size}×${g.size}`),
      h('td', { class: 'hide-narrow' }, modeNames[g.mode] || g.mode || ''),
      h('td', { class: 'num' }, String(g.plies ?? '')),
      h('td', {}, live ? h('span', { class: 'live-dot' }, 'playing') : `${resultText(g.result)}`),
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

// ---------------------------------------------------------------- game page

function fmtClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(ms / 1000);
  const hrs = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return hrs > 0 ? `${hrs}:${String(min).padStart(2, '0')}:${sec}` : `${min}:${sec}`;
}

// breakable is a move's text with line-break chances after each "x" and
// "-", so that a long capture wraps between squares, never inside one.
function breakable(m) {
  return m.split(/(?<=[x-])/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
}

function fmtScore(score) {
  const v = score / 100;
  if (v === 0) return '0.00';
  return (v > 0 ? '+' : '−') + Math.abs(v).toFixed(2);
}

/** GamePage runs the page of one game: board, panel, live updates. */
class GamePage {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.view = null; // {ply, data} while an earlier position is shown
    this.viewToken = 0;
    this.cache = new Map();
    this.flipped = false;
    this.userFlipped = false;
    this.busy = false;
    this.boardKey = '';
    this.animateNext = null;
    this.clockBase = null;
    this.clockTimer = 0;
    this.clockEls = {};
    this.analysisToken = 0;
    this.unfollow = null;
    this.pendingPly = null;
  }

  start() {
    $('#home').remove();
    const main = $('#game');
    main.hidden = false;
    this.msg = $('[data-testid="message"]', main);
    this.board = new Board($('#board'), { onMove: (m) => this.play(m), label: 'Emergo board' });
    this.wire();
    this.load();
    this.follow();
  }

  // follow opens the live connection. The server answers it as the viewer
  // the browser was when it opened, so it is opened again after joining.
  follow() {
    if (this.unfollow) this.unfollow();
    this.unfollow = api.subscribe(this.id, (s) => this.setState(s), (status) => {
      $('#conn').hidden = status === 'open';
    });
  }

  async load() {
    try {
      this.setState(await api.getGame(this.id));
    } catch (e) {
      if (e.status === 404) {
        $('[data-testid="status"]').replaceChildren('There is no such game. ', h('a', { href: '/' }, 'Start a new one.'));
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
    $('#resign-no').addEventListener('click', () => this.closeResign());
    $('#resign-yes').addEventListener('click', () => {
      this.closeResign();
      this.act(() => api.resign(this.id));
    });
    $('#draw').addEventListener('click', () => this.act(() => api.draw(this.id, 'offer'), this.state?.mode === 'engine' ? '' : 'Draw offered.'));
    $('#takeback').addEventListener('click', () =>
      this.act(() => api.takeback(this.id, 'request'), this.state?.mode === 'engine' ? '' : 'Take-back asked.'));
    $('#analyse').addEventListener('click', () => this.analyse());
    $('[data-testid="upload"]', $('#game')).addEventListener('change', (e) => uploadFile(e.target, this.msg));
    $('#join-name').value = storedName();
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
        this.board.clearSelection();
      }
    });
  }

  closeResign() {
    $('#resign-confirm-box').hidden = true;
    $('#resign').hidden = false;
  }

  /**
   * setState takes a state from any source; older ones are ignored. A
   * state of the same version is taken when it sees the viewer in another
   * seat: joining changes who the browser is without changing the game.
   */
  setState(s) {
    const prev = this.state;
    if (!s || (prev && (s.version < prev.version || (s.version === prev.version && s.you === prev.you)))) {
      return false;
    }
    if (prev && !this.view && s.moves.length === prev.moves.length + 1 &&
        prev.moves.every((m, i) => s.moves[i] === m)) {
      this.animateNext = s.moves[s.moves.length - 1];
    }
    this.state = s;
    $('#dl-json-note').hidden = s.size !== 7;
    if (!this.userFlipped) {
      const want = s.you === 'black';
      if (want !== this.flipped) {
        this.flipped = want;
        this.board.setFlipped(want);
      }
    }
    if (this.view && this.view.ply >= s.moves.length) this.view = null;
    this.render();
    return true;
  }

  render() {
    const s = this.state;
    if (!s) return;
    this.renderBoard();
    this.renderPlayers();
    this.renderStatus();
    this.renderMoves();
    this.renderSeat();
    this.renderControls();
    this.syncClock();
    document.title = `${this.myTurn() ? 'Your move · ' : ''}Emergo ${s.size}×${s.size}`;
  }

  // myTurn: the viewer may move now. The server refuses moves until both
  // seats are taken, so a friend game waits for the friend.
  myTurn() {
    const s = this.state;
    if (!s || s.result !== '*' || !s.you || s.you !== s.turn || (s.legal || []).length === 0) return false;
    const opp = s.players && s.players[other(s.you)];
    return !opp || Boolean(opp.joined);
  }

  canMove() {
    return !this.view && !this.busy && this.myTurn();
  }

  renderBoard() {
    const s = this.state;
    const interactive = this.canMove();
    const key = `${s.version}|${this.view ? this.view.ply : 'live'}|${interactive}`;
    if (key === this.boardKey && !this.animateNext) return;
    this.boardKey = key;
    const animate = this.animateNext;
    this.animateNext = null;
    if (this.view) {
      const d = this.view.data;
      this.board.update({ size: s.size, board: d.board, lastMove: d.lastMove, interactive: false, animate });
    } else {
      this.board.update({
        size: s.size, board: s.board, lastMove: s.moves[s.moves.length - 1] || null,
        legal: s.legal || [], interactive, animate,
      });
    }
    $('#move-input').disabled = !interactive;
    $('[data-testid="move-submit"]').disabled = !interactive;
  }

  // What the player bars show: the viewed position's hands and turn.
  shown() {
    const s = this.state;
    if (this.view) {
      const d = this.view.data;
      const hands = d.hands || { white: 0, black: 0 };
      const t = d.turn;
      const shadow = hands[t] > 1 && hands[other(t)] === 0 ? hands[t] : 0;
      return { hands, turn: t, shadow, over: this.view.ply === s.moves.length && s.result !== '*' };
    }
    return { hands: s.hands || { white: 0, black: 0 }, turn: s.turn, shadow: s.shadow || 0, over: s.result !== '*' };
  }

  renderPlayers() {
    const s = this.state;
    if (!s) return;
    const bottom = this.flipped ? 'black' : 'white';
    this.fillPlayer($('#player-top'), other(bottom));
    this.fillPlayer($('#player-bottom'), bottom);
    this.tickClock();
  }

  fillPlayer(box, colour) {
    const s = this.state;
    const v = this.shown();
    const p = (s.players && s.players[colour]) || {};
    const n = v.hands[colour] ?? 0;
    box.dataset.testid = `player-${colour}`;
    box.classList.toggle('to-move', !v.over && v.turn === colour);
    let name = p.name || Cap(colour);
    if (!p.joined && !p.engine && s.mode === 'friend') name = 'waiting for a player…';
    const who = h('div', { class: 'who' },
      h('span', { class: `swatch ${colour}`, 'aria-hidden': 'true' }),
      h('span', { class: 'name' }, name),
      p.engine ? h('span', { class: 'tag' }, 'engine') : null,
      s.you === colour ? h('span', { class: 'tag you' }, 'you') : null);
    const hand = h('div', { class: 'hand', title: `${Cap(colour)} has ${n} ${n === 1 ? 'man' : 'men'} in hand` },
      handStack(colour, n),
      h('span', { class: 'hand-count', 'data-testid': `hand-${colour}` }, String(n)),
      h('span', { class: 'hand-label' }, 'in hand'));
    const shadow = !v.over && v.turn === colour && v.shadow > 1
      ? h('div', { class: 'shadow', 'data-testid': `shadow-${colour}` },
        `Shadow piece: ${v.shadow} men enter as one column`)
      : null;
    const clock = h('div', { class: 'clock', 'data-testid': `clock-${colour}`, role: 'timer', 'aria-label': `${Cap(colour)}'s clock` });
    clock.hidden = !s.clock;
    this.clockEls[colour] = clock;
    box.replaceChildren(h('div', { class: 'player-main' }, who, hand), shadow || '', clock);
  }

  syncClock() {
    const s = this.state;
    clearInterval(this.clockTimer);
    this.clockTimer = 0;
    if (!s.clock) {
      this.clockBase = null;
      return;
    }
    const running = s.result === '*' ? s.clock.running : null;
    this.clockBase = { white: s.clock.white_ms, black: s.clock.black_ms, running, t0: performance.now() };
    this.tickClock();
    if (running) this.clockTimer = setInterval(() => this.tickClock(), 100);
  }

  tickClock() {
    const b = this.clockBase;
    if (!b) return;
    const now = performance.now();
    for (const c of ['white', 'black']) {
      const el = this.clockEls[c];
      if (!el) continue;
      const ms = b[c] - (b.running === c ? now - b.t0 : 0);
      el.textContent = fmtClock(ms);
      el.classList.toggle('running', b.running === c);
      el.classList.toggle('low', b.running === c && ms < 20000);
    }
  }

  renderStatus() {
    const s = this.state;
    const status = $('[data-testid="status"]');
    const result = $('[data-testid="result"]');
    const moving = s.turn === 'white' ? 'White' : 'Black';
    if (s.result !== '*') {
      const head = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' }[s.result] || s.result;
      let mine = '';
      if (s.you && s.result !== '1/2-1/2') {
        const winner = s.result === '1-0' ? 'white' : 'black';
        mine = s.you === winner ? 'You won.' : 'You lost.';
      }
      result.replaceChildren(
        h('strong', {}, head), ' ', h('span', { class: 'score' }, s.result),
        h('div', { class: 'reason', hidden: !s.reason }, s.reason ? s.reason.charAt(0).toUpperCase() + s.reason.slice(1) : ''),
        h('div', { class: 'mine', hidden: !mine }, mine));
      result.hidden = false;
      status.textContent = 'Game over.';
      status.className = 'status over';
    } else {
      result.hidden = true;
      result.replaceChildren();
      const players = s.players || {};
      let text;
      let cls = 'status';
      if (s.thinking) {
        text = 'Emergo is thinking…';
        cls += ' thinking';
      } else if (this.myTurn()) {
        cls += ' mine';
        const legal = (s.legal || []).map(parseMove).filter(Boolean);
        if (legal.length && legal.every((m) => m.kind === 'entry')) {
          text = s.shadow > 1 ? `Your move: enter your shadow piece (${s.shadow} men as one column).` : 'Your move: enter a man on a marked square.';
        } else if (legal.length && legal[0].kind === 'capture') {
          const jumps = legal[0].squares.length - 1;
          text = `Your move: you must capture (${jumps} ${jumps === 1 ? 'man' : 'men'}).`;
        } else {
          text = 'Your move.';
        }
      } else if (s.you) {
        const opp = other(s.you);
        const op = players[opp] || {};
        text = !op.joined && !op.engine && s.mode === 'friend'
          ? 'Waiting for your friend to join. Send them the link below.'
          : `Waiting for ${op.name || Cap(opp)} (${Cap(opp)}).`;
      } else {
        text = `${moving} to move.`;
        if (s.mode !== 'analysis') text += ' You are watching.';
      }
      // While an earlier position is shown, say that the status is the
      // live game's, not the board's.
      if (this.view) text = `Live game: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
      status.textContent = text;
      status.className = cls;
    }
    const vb = $('#view-bar');
    if (this.view) {
      const n = s.moves.length;
      $('#view-text').textContent = this.view.ply === 0
        ? `Start position (of ${n} moves). Read-only.`
        : `After move ${this.view.ply} of ${n}. Read-only.`;
      vb.hidden = false;
    } else {
      vb.hidden = true;
    }
  }

  // The side that made the first move of the game: a record may start from
  // a set-up position with Black to move, and turns strictly alternate.
  firstSide() {
    const s = this.state;
    return s.moves.length % 2 === 0 ? s.turn : other(s.turn);
  }

  renderMoves() {
    const s = this.state;
    const box = $('#moves');
    const offset = this.firstSide() === 'white' ? 0 : 1;
    const current = this.view ? this.view.ply : s.moves.length;
    const rows = [];
    let row = null;
    s.moves.forEach((m, i) => {
      const j = i + offset;
      if (j % 2 === 0 || !row) {
        row = h('div', { class: 'row' }, h('span', { class: 'no' }, `${Math.floor(j / 2) + 1}.`));
        if (j % 2 === 1) row.append(h('span', { class: 'mv empty' }, '…'));
        rows.push(row);
      }
      const ply = i + 1;
      row.append(h('button', {
        type: 'button', class: `mv${ply === current ? ' current' : ''}`, 'data-ply': ply,
        'aria-current': ply === current ? 'true' : null,
        'aria-label': `${Math.floor(j / 2) + 1}${j % 2 ? '…' : '.'} ${m}`,
      }, breakable(m)));
    });
    if (rows.length === 0) rows.push(h('p', { class: 'muted' }, 'No moves yet.'));
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    box.replaceChildren(...rows);
    const cur = box.querySelector('.current');
    if (this.view && cur) {
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) {
        box.scrollTop = top - box.clientHeight / 2;
      }
    } else if (atEnd || !this.view) {
      box.scrollTop = box.scrollHeight;
    }
    const n = s.moves.length;
    $('[data-nav="first"]').disabled = current === 0;
    $('[data-nav="prev"]').disabled = current === 0;
    $('[data-nav="next"]').disabled = current >= n;
    $('[data-nav="last"]').disabled = current >= n;
  }

  renderSeat() {
    const s = this.state;
    const players = s.players || {};
    const open = ['white', 'black'].filter((c) => players[c] && !players[c].joined && !players[c].engine);
    const joinBox = $('#join-box');
    if (!s.you && s.result === '*' && open.length > 0 && s.mode !== 'analysis') {
      const buttons = open.map((c, i) => h('button', {
        type: 'button', class: 'primary', 'data-testid': i === 0 ? 'join' : `join-${c}`, 'data-seat': c,
        onclick: () => this.join(),
      }, `Join as ${Cap(c)}`));
      $('#join-buttons').replaceChildren(...buttons);
      joinBox.hidden = false;
    } else {
      joinBox.hidden = true;
    }
    const invite = $('#invite-box');
    if (s.mode === 'friend' && s.you) {
      const opp = players[other(s.you)] || {};
      $('#invite-title').textContent = opp.joined
        ? 'Link to this game (others can watch)'
        : 'Invite a friend: send this link';
      $('#invite-link').value = `${location.origin}/g/${encodeURIComponent(s.id)}`;
      invite.hidden = false;
    } else {
      invite.hidden = true;
    }
  }

  renderControls() {
    const s = this.state;
    const seated = Boolean(s.you);
    const playing = seated && s.result === '*';
    const controls = $('#controls');
    controls.hidden = !playing;
    if (!playing) this.closeResign();
    const players = s.players || {};
    const oppJoined = seated && (players[other(s.you)] || {}).joined;
    const mine = s.moves.length > 0;
    const draw = $('#draw');
    draw.disabled = !oppJoined || s.drawOffer === s.you;
    draw.textContent = s.drawOffer === s.you ? 'Draw offered' : 'Offer draw';
    const tb = $('#takeback');
    tb.disabled = !oppJoined || !mine || s.takeback === s.you;
    tb.textContent = s.takeback === s.you ? 'Take-back asked' : 'Take back';

    const offers = $('#offers');
    const items = [];
    const offer = (what, by, accept, decline, testid) => {
      const mineOffer = by === s.you;
      const label = mineOffer
        ? `You ${what === 'draw' ? 'offered a draw' : 'asked to take back a move'}; waiting for an answer.`
        : `${Cap(by)} ${what === 'draw' ? 'offers a draw' : 'asks to take back a move'}.`;
      const canAnswer = playing && !mineOffer;
      items.push(h('div', { class: 'offer' }, h('span', {}, label),
        canAnswer ? h('span', { class: 'actions' },
          h('button', { type: 'button', class: 'primary', 'data-testid': `${testid}-accept`, onclick: accept }, 'Accept'),
          h('button', { type: 'button', 'data-testid': `${testid}-decline`, onclick: decline }, 'Decline')) : null));
    };
    if (s.result === '*' && s.drawOffer) {
      offer('draw', s.drawOffer,
        () => this.act(() => api.draw(this.id, 'accept')),
        () => this.act(() => api.draw(this.id, 'decline')), 'draw');
    }
    if (s.result === '*' && s.takeback) {
      offer('takeback', s.takeback,
        () => this.act(() => api.takeback(this.id, 'accept')),
        () => this.act(() => api.takeback(this.id, 'decline')), 'takeback');
    }
    offers.replaceChildren(...items);
    offers.hidden = items.length === 0;
    $('#move-form').hidden = !seated || s.result !== '*';
  }

  // ------------------------------------------------------------ actions

  /** act runs a request that answers with the state, and shows what failed. */
  async act(fn, okText = '') {
    try {
      const ns = await fn();
      showMessage(this.msg, okText, 'info');
      if (ns && ns.id) this.setState(ns);
    } catch (e) {
      this.error(e.message);
      if (e.status === 409) this.refresh();
    }
  }

  async refresh() {
    try {
      this.setState(await api.getGame(this.id));
    } catch {
      // The live connection brings the state as soon as it can.
    }
  }

  async play(text) {
    const s = this.state;
    if (this.busy || !s) return;
    this.busy = true;
    showMessage(this.msg, '');
    this.renderBoard();
    try {
      const ns = await api.move(this.id, text, s.moves.length);
      this.busy = false;
      $('#move-input').value = '';
      if (!this.setState(ns)) this.renderBoard();
    } catch (e) {
      this.busy = false;
      this.error(e.message);
      this.board.clearSelection();
      this.renderBoard();
      if (e.status === 409) this.refresh();
    }
  }

  typedMove() {
    const input = $('#move-input');
    const raw = input.value.trim();
    if (!raw) return;
    const text = raw.toLowerCase().replace(/^@/, '');
    if (this.view) {
      this.error('You are looking at an earlier position: go back to live to play.');
      return;
    }
    if (!this.myTurn()) {
      this.error(this.state && this.state.result !== '*' ? 'The game is over.' : 'It is not your turn.');
      return;
    }
    this.play(text);
  }

  async join() {
    const name = $('#join-name').value.trim();
    storeName(name);
    try {
      const ns = await api.join(this.id, name);
      this.follow();
      this.setState(ns);
      this.info('You have joined the game.');
    } catch (e) {
      this.error(e.message);
      if (e.status === 409) this.refresh();
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
    btn.textContent = 'Copied';
    setTimeout(() => {
      btn.textContent = 'Copy';
    }, 1500);
  }

  // ------------------------------------------------------------ replay

  nav(where) {
    const s = this.state;
    if (!s) return;
    const n = s.moves.length;
    // Steps taken while a position is still on its way count from it.
    const cur = this.pendingPly ?? (this.view ? this.view.ply : n);
    const to = { first: 0, prev: cur - 1, next: cur + 1, last: n }[where];
    if (to === undefined || to < 0 || to > n || to === cur) return;
    this.showPly(to);
  }

  goLive() {
    if (!this.view) return;
    const s = this.state;
    if (this.view.ply === s.moves.length - 1) this.animateNext = s.moves[s.moves.length - 1];
    this.view = null;
    this.viewToken++;
    this.pendingPly = null;
    this.render();
  }

  async showPly(ply) {
    const s = this.state;
    const n = s.moves.length;
    if (ply >= n) {
      this.pendingPly = null;
      this.goLive();
      return;
    }
    const token = ++this.viewToken;
    this.pendingPly = ply;
    const key = `${ply}|${s.moves.slice(0, ply).join(' ')}`;
    let data = this.cache.get(key);
    if (!data) {
      try {
        data = await api.positionAt(this.id, ply);
      } catch (e) {
        if (token === this.viewToken) {
          this.pendingPly = null;
          this.error(e.message);
        }
        return;
      }
      this.cache.set(key, data);
    }
    if (token !== this.viewToken) return;
    this.pendingPly = null;
    if (this.state.moves.length <= ply) return;
    const from = this.view ? this.view.ply : this.state.moves.length;
    this.board.clearSelection();
    this.view = { ply, data };
    if (ply === from + 1 && data.lastMove) this.animateNext = data.lastMove;
    this.render();
  }

  // ------------------------------------------------------------ analysis

  async analyse() {
    const s = this.state;
    if (!s) return;
    const out = $('#analysis');
    const position = this.view ? this.view.data.position : s.position;
    const turn = this.view ? this.view.data.turn : s.turn;
    const ply = this.view ? this.view.ply : s.moves.length;
    const token = ++this.analysisToken;
    const btn = $('#analyse');
    btn.disabled = true;
    out.replaceChildren(h('p', { class: 'muted' }, 'Analysing…'));
    try {
      const a = await api.analyze({ position });
      if (token !== this.analysisToken) return;
      out.replaceChildren(...this.describeAnalysis(a, turn, ply));
    } catch (e) {
      if (token === this.analysisToken) out.replaceChildren(h('p', { class: 'message error' }, e.message));
    } finally {
      btn.disabled = false;
    }
  }

  // The engine's score is for the side to move; it is shown from White's
  // side, as the list of a game is read, with the side to move said.
  describeAnalysis(a, turn, ply) {
    const sign = turn === 'white' ? 1 : -1;
    let head;
    let note;
    if (a.mate) {
      const winner = a.mate * sign > 0 ? 'White' : 'Black';
      head = `#${a.mate * sign > 0 ? '+' : '−'}${Math.abs(a.mate)}`;
      note = `${winner} wins by force (in ${Math.abs(a.mate)}).`;
    } else {
      const w = (a.score || 0) * sign;
      head = fmtScore(w);
      note = w > 25 ? 'White is better.' : w < -25 ? 'Black is better.' : 'About level.';
    }
    const parts = [h('p', { class: 'score-line' },
      h('span', { class: 'score', 'data-testid': 'analysis-score' }, head), ' ', note,
      h('span', { class: 'muted' }, ` ${Cap(turn)} to move`))];
    const pv = a.pv && a.pv.length ? a.pv : a.best ? [a.best] : [];
    if (pv.length) {
      const offset = this.firstSide() === 'white' ? 0 : 1;
      const line = [];
      pv.forEach((m, i) => {
        const j = ply + offset + i;
        if (j % 2 === 0) line.push(`${Math.floor(j / 2) + 1}.`);
        else if (i === 0) line.push(`${Math.floor(j / 2) + 1}…`);
        line.push(h(i === 0 ? 'strong' : 'span', {}, breakable(m)));
      });
      const spaced = line.flatMap((x, i) => (i ? [' ', x] : [x]));
      parts.push(h('p', { class: 'pv', 'data-testid': 'analysis-line' }, 'Best line: ', ...spaced));
    } else {
      parts.push(h('p', { class: 'muted' }, 'No moves: the game is over in this position.'));
    }
    const facts = [];
    if (a.depth) facts.push(`depth ${a.depth}`);
    if (a.nodes) facts.push(`${Number(a.nodes).toLocaleString()} nodes`);
    if (facts.length) parts.push(h('p', { class: 'muted small' }, facts.join(' · ')));
    return parts;
  }
}

// ---------------------------------------------------------------- start

const route = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
if (route) new GamePage(decodeURIComponent(route[1])).start();
else homePage();
