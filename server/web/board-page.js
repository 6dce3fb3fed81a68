// The analysis board, "/analysis": a position set up freely or a game's
// start, moves played for both sides with their variations (tree.js), the
// engine's analysis of the position shown, a game annotated by the
// engine, records and position texts read and written, and the link that
// restores the board. The rules and the engine are the browser's own when
// it runs WebAssembly (boardrules.js): then nothing after the page's load
// needs the server. "/analysis?game={id}" opens a game of the site.

import * as api from './api.js';
import { Analysis } from './analysis.js';
import { evalChart, evalText, judge, overEval, whiteEval } from './annotate.js';
import { Board, handStack } from './board.js';
import { exportPGN, linkHash, readLink, readRecord, RecordError } from './boardrecord.js';
import { annotator, loadEngine, MoveListError, rulesAtOnce } from './boardrules.js';
import { $, breakable, displayName, h, keepFocus, showMessage } from './dom.js';
import { Editor, problemText } from './editor.js';
import { t } from './i18n.js';
import { Latest } from './latest.js';
import { formatPosition, parsePosition, PositionTextError, problems, startPosition } from './setup.js';
import { resultText, statusLine } from './status.js';
import { colourName } from './text.js';
import {
  isMain, lastOf, listing, mainLine, movesTo, movetext, newTree, numbering, order, play, plyOf, promote,
  readMovetext, remove, rootOf, tokens, TreeTextError,
} from './tree.js';

/** ANNOTATE_DEPTH is how deep the engine looks at each position of a game it annotates. */
export const ANNOTATE_DEPTH = 7;

/** focusParts are the parts of the page drawn anew with the position shown; render keeps the focus within them (keepFocus). */
const focusParts = '#board, #ab-moves, .navbar, .tree-actions, .tools';

/** keyTarget is the node a key goes to from n: arrows along the line and across variations, Home and End. */
export function keyTarget(key, n) {
  switch (key) {
    case 'ArrowLeft':
      return n.parent;
    case 'ArrowRight':
      return n.children[0] || null;
    case 'Home':
      return n.parent ? rootOf(n) : null;
    case 'End': {
      const last = lastOf(n);
      return last === n ? null : last;
    }
    case 'ArrowUp':
    case 'ArrowDown': {
      if (!n.parent) return null;
      const sib = n.parent.children;
      const i = sib.indexOf(n) + (key === 'ArrowUp' ? -1 : 1);
      return sib[i] || null;
    }
    default:
      return null;
  }
}

/** BoardPage runs the analysis board. */
export class BoardPage {
  constructor() {
    this.start = startPosition(9);
    this.root = newTree();
    this.node = this.root;
    this.flipped = false;
    this.latest = new Latest(); // only the last position asked for is drawn
    this.state = null;
    this.game = '';
    this.names = { white: '', black: '' };
    this.annotating = null;
  }

  get startText() {
    return formatPosition(this.start);
  }

  async run() {
    const main = $('#board-page');
    main.hidden = false;
    this.msg = $('[data-testid="ab-message"]');
    this.board = new Board($('#board'), {
      onMove: (m) => this.play(m),
      onSquare: (sq) => this.editor.isOpen && this.editor.square(sq),
      label: t('board.label'),
    });
    this.editor = new Editor($('#setup'), {
      onChange: (p) => this.drawSetup(p),
      onDone: (p) => this.leaveSetup(p),
      onCancel: () => this.leaveSetup(null),
    });
    this.analysis = new Analysis(undefined, $('#ab-analysis'), (busy) => {
      $('#ab-analyse').disabled = busy || !this.state || this.state.over;
    });
    this.wire();
    // The board is drawn at once, on the server's rules; the browser's
    // rules and engine join when they have loaded (seconds on a slow
    // phone), and an annotation waits for the engine.
    this.rules = rulesAtOnce();
    this.engineLoad = loadEngine();
    $('#ab-source').textContent = t('ab.server');
    const restored = this.restore();
    [this.browser] = await Promise.all([this.engineLoad, this.rules.ready]);
    $('#ab-source').textContent = this.rules.local && this.browser ? t('ab.local') : t('ab.server');
    this.mountEngine();
    this.showEngine();
    await restored;
  }

  error(text) {
    showMessage(this.msg, text, 'error');
  }

  info(text) {
    showMessage(this.msg, text, 'info');
  }

  wire() {
    for (const b of document.querySelectorAll('[data-nav]')) {
      b.addEventListener('click', () => {
        const key = { first: 'Home', prev: 'ArrowLeft', next: 'ArrowRight', last: 'End' }[b.dataset.nav];
        this.go(keyTarget(key, this.node));
      });
    }
    $('#flip').addEventListener('click', () => {
      this.flipped = !this.flipped;
      this.board.setFlipped(this.flipped);
      this.renderSides();
    });
    document.addEventListener('keydown', (e) => this.key(e));
    $('#ab-moves').addEventListener('click', (e) => {
      const b = e.target.closest('[data-at]');
      if (b) this.go(this.nodeAt(Number(b.dataset.at)));
    });
    $('#ab-takeback').addEventListener('click', () => this.takeBack());
    $('#ab-promote').addEventListener('click', () => {
      if (promote(this.node)) this.go(this.node);
    });
    $('#ab-delete').addEventListener('click', () => {
      if (this.node.parent) this.go(remove(this.node));
    });
    $('#ab-edit').addEventListener('click', () => this.enterSetup());
    $('#ab-analyse').addEventListener('click', () => this.analyseServer());
    $('#ab-annotate').addEventListener('click', () => this.annotate());
    $('#position-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.loadPositionText($('#position-text').value);
    });
    $('#copy-position').addEventListener('click', () => this.copy($('#position-text').value));
    $('#record-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.loadRecord($('#record-text').value);
    });
    $('#record-file').addEventListener('change', async (e) => {
      const file = e.target.files && e.target.files[0];
      if (file) this.loadRecord(await file.text());
      e.target.value = '';
    });
    $('#copy-pgn').addEventListener('click', async () => this.copy(await this.pgn()));
    $('#download-pgn').addEventListener('click', async () => {
      const url = URL.createObjectURL(new Blob([await this.pgn()], { type: 'text/plain' }));
      const a = h('a', { href: url, download: 'emergo-analysis.pgn' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    });
    $('#copy-link').addEventListener('click', () => this.copy($('#board-link').value));
  }

  /** key steps through the moves with the arrows, Home and End, unless a field or the board has the key. */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || this.editor.isOpen) return;
    const tag = e.target.tagName;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.target.closest && e.target.closest('#board'))) return;
    const to = keyTarget(e.key, this.node);
    if (!to && !['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    if (to) this.go(to, Boolean(e.target.closest && e.target.closest('#ab-moves')));
  }

  /** nodeAt is the node at place k of the tree's movetext (0: the start). */
  nodeAt(k) {
    return k > 0 ? order(this.root)[k - 1] || this.root : this.root;
  }

  /** placeOf is n's place in the tree's movetext (0: the start). */
  placeOf(n) {
    return n === this.root ? 0 : order(this.root).indexOf(n) + 1;
  }

  /** restore sets the board up from the page's address: a game of the site, the link's board, or the start. */
  async restore() {
    const q = new URLSearchParams(location.search);
    if (q.get('game')) {
      await this.openGame(q.get('game'));
      return;
    }
    let link = null;
    try {
      link = readLink(location.hash);
    } catch (e) {
      this.error(e instanceof PositionTextError ? t(e.key, e.params) : e.message);
    }
    if (link) {
      const ok = await this.setLine(link.position, tokens(link.line));
      this.go(ok ? this.nodeAt(link.at) : this.root);
    } else {
      this.go(this.root);
    }
  }

  /**
   * setLine makes position the start and words (moves with variations)
   * its tree, after the rules have checked every line: a line with a move
   * that cannot be played is cut before it, and the page says why.
   */
  async setLine(position, words) {
    const bad = problems(position);
    if (bad.length) {
      this.error(bad.map(problemText).join(' '));
      return false;
    }
    try {
      // The rules have the last word on the position too.
      await this.rules.state(formatPosition(position), []);
    } catch (e) {
      if (!(e instanceof MoveListError)) throw e;
      this.error(e.message);
      return false;
    }
    let root;
    try {
      root = readMovetext(words);
    } catch (e) {
      if (!(e instanceof TreeTextError)) throw e;
      this.error(t('ab.bad_line', { token: e.token }));
      return false;
    }
    this.start = position;
    this.root = root;
    this.node = root;
    this.clearEvals();
    const leaves = [root, ...order(root)].filter((n) => n.children.length === 0);
    for (const leaf of leaves) {
      try {
        await this.rules.state(this.startText, movesTo(leaf));
      } catch (e) {
        if (!(e instanceof MoveListError)) throw e;
        let n = leaf;
        while (plyOf(n) > e.index + 1) n = n.parent;
        const { number, white } = numbering(e.index, this.start.turn);
        this.error(t('ab.bad_move', { number: white ? `${number}.` : `${number}…`, move: n.move, reason: e.message }));
        remove(n);
      }
    }
    return true;
  }

  /**
   * openGame loads a game of the site that may be analysed (it has ended,
   * or is a record): its start, its moves, its players; then the engine
   * annotates it.
   */
  async openGame(id) {
    $('#ab-status').textContent = t('common.loading');
    try {
      const [s, first] = await Promise.all([api.getGame(id), api.positionAt(id, 0)]);
      if (!s.analysis) {
        // No engine for a game being played, as on its own page.
        this.error(t('analysis.closed_note'));
        this.go(this.root);
        return;
      }
      this.game = id;
      this.names = { white: s.players?.white?.name || '', black: s.players?.black?.name || '' };
      await this.setLine(parsePosition(first.position), s.moves);
      $('#ab-game').replaceChildren(h('a', { href: `/g/${encodeURIComponent(id)}`, 'data-testid': 'ab-game-link' }, t('ab.back_to_game')));
      this.go(this.root);
      await this.annotate();
    } catch (e) {
      this.error(e.message);
      this.go(this.root);
    }
  }

  /** go shows node n (the tree may have changed too); focusList keeps the focus in the move list. */
  go(n, focusList = false) {
    if (!n) return;
    this.node = n;
    this.board.clearSelection();
    this.render().then(() => {
      if (focusList) $('#ab-moves [aria-current="true"]')?.focus();
    });
  }

  play(move) {
    const next = play(this.node, move);
    this.animate = move;
    this.go(next);
  }

  /** takeBack steps back a move, and forgets it when nothing follows it. */
  takeBack() {
    const n = this.node;
    const back = n.parent;
    if (!back) return;
    if (n.children.length === 0) remove(n);
    this.go(back);
  }

  /** render draws the position shown and everything that depends on it; only the last call draws. */
  async render() {
    const current = this.latest.ask();
    const n = this.node;
    let st;
    try {
      st = await this.rules.state(this.startText, movesTo(n));
    } catch (e) {
      if (current()) this.error(e.message);
      return;
    }
    if (!current()) return;
    this.state = st;
    if (this.editor.isOpen) return;
    keepFocus(() => this.draw(n), focusParts, () => $('#ab-moves [tabindex="0"]') || $('#board [tabindex="0"]'));
  }

  /** draw draws node n, the position shown, and everything that depends on it. */
  draw(n) {
    const st = this.state;
    const animate = this.animate === n.move ? n.move : null;
    this.animate = null;
    this.board.update({
      size: st.size, board: st.board, lastMove: n.move, legal: st.legal, interactive: !st.over, animate,
    });
    this.renderSides();
    this.renderStatus();
    this.renderMoves();
    this.renderChart();
    const ply = plyOf(n);
    for (const [where, off] of Object.entries({ first: ply === 0, prev: ply === 0, next: !n.children.length, last: !n.children.length })) {
      $(`[data-nav="${where}"]`).disabled = off;
    }
    $('#ab-takeback').disabled = !n.parent;
    $('#ab-delete').disabled = !n.parent;
    $('#ab-promote').disabled = isMain(n);
    $('#position-text').value = st.position;
    const hash = linkHash({ position: this.start, line: movetext(this.root), at: this.placeOf(n) });
    const url = `${location.pathname}${hash ? `#${hash}` : ''}`;
    if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url);
    $('#board-link').value = `${location.origin}${url}`;
    $('#ab-analyse').disabled = this.analysis.busy || st.over;
    this.showEngine();
  }

  renderSides() {
    const st = this.state;
    if (!st) return;
    const bottom = this.flipped ? 'black' : 'white';
    for (const [id, colour] of [['#ab-top', bottom === 'white' ? 'black' : 'white'], ['#ab-bottom', bottom]]) {
      const box = $(id);
      const n = st.hands[colour] ?? 0;
      box.dataset.testid = `ab-side-${colour}`;
      box.classList.toggle('to-move', !st.over && st.turn === colour);
      // A record's names, unless they are only the colours', in the page's
      // language where the server gave them (a nameless guest, the engine).
      const name = /^(white|black|\?)?$/i.test(this.names[colour] || '') ? '' : displayName(this.names[colour]);
      box.replaceChildren(h('div', { class: 'player-main' },
        h('div', { class: 'who' },
          h('span', { class: `swatch ${colour}`, 'aria-hidden': 'true' }),
          h('span', { class: 'name' }, name ? `${colourName(colour)}: ${name}` : colourName(colour))),
        h('div', { class: 'hand', title: t(colour === 'white' ? 'player.hand_white' : 'player.hand_black', { n }) },
          handStack(colour, n),
          h('span', { class: 'hand-count', 'data-testid': `ab-hand-${colour}` }, String(n)),
          h('span', { class: 'hand-label' }, t('player.in_hand')))),
      !st.over && st.turn === colour && st.shadow > 1 ? h('div', { class: 'shadow' }, t('player.shadow', { n: st.shadow })) : '');
    }
  }

  renderStatus() {
    const st = this.state;
    const r = resultText(st);
    const status = $('#ab-status');
    if (r) {
      status.replaceChildren(h('strong', {}, r.head), ' ', r.reason);
      status.className = 'status over';
    } else {
      const line = statusLine({ ...st, mode: 'analysis' }, false);
      status.textContent = line.text;
      status.className = line.cls;
    }
  }

  /** mark is the judgement of the move that led to n, from the evaluations before and after it. */
  mark(n) {
    if (!n.parent || !n.eval || !n.parent.eval) return null;
    const { white } = numbering(plyOf(n) - 1, this.start.turn);
    return judge(n.parent.eval, n.eval, white ? 'white' : 'black');
  }

  renderMoves() {
    const box = $('#ab-moves');
    const cur = this.node;
    const places = new Map(order(this.root).map((n, i) => [n, i + 1]));
    const line = (items, depth) => items.flatMap((it) => {
      const m = this.mark(it.node);
      const current = it.node === cur;
      // An annotated move says its mark in words and the evaluation after it.
      const judged = [m ? t(m.key) : '', it.node.eval ? evalText(it.node.eval) : ''].filter(Boolean).join(', ');
      const label = [it.number, it.node.move, judged].filter(Boolean).join(' ');
      const parts = [
        it.number ? h('span', { class: 'no' }, it.number) : null,
        h('button', {
          type: 'button', class: `mv${current ? ' current' : ''}${m ? ` judged ${m.key.slice(3)}` : ''}`, 'data-at': places.get(it.node),
          'aria-current': current ? 'true' : null, 'aria-label': label, title: judged || null, tabindex: current ? '0' : '-1',
        }, breakable(it.node.move), m ? h('span', { class: 'mark', 'aria-hidden': 'true' }, m.mark) : null),
      ];
      for (const v of it.variations) {
        parts.push(h('div', { class: `variation depth-${Math.min(depth + 1, 4)}`, role: 'group', 'aria-label': t('ab.variation') }, line(v, depth + 1)));
      }
      return parts;
    });
    const items = listing(this.root, this.start.turn);
    const children = items.length ? [h('div', { class: 'line' }, line(items, 0))] : [h('p', { class: 'muted' }, t('ab.no_moves'))];
    box.replaceChildren(...children);
    if (cur === this.root) box.querySelector('button.mv')?.setAttribute('tabindex', '0');
    const c = box.querySelector('.current');
    if (c) {
      const top = c.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - c.offsetHeight) box.scrollTop = top - box.clientHeight / 2;
    }
  }

  /** evals are the evaluations of the main line's positions, from the start. */
  evals() {
    return [this.root, ...mainLine(this.root)].map((n) => n.eval || null);
  }

  renderChart() {
    const box = $('#ab-chart');
    const evals = this.evals();
    if (!evals.some(Boolean)) {
      box.replaceChildren();
      return;
    }
    const line = [this.root, ...mainLine(this.root)];
    const shown = line.indexOf(this.node);
    box.replaceChildren(evalChart(evals, shown, {
      onPick: (ply) => this.go(line[ply]),
      label: t('ab.chart'),
      title: (ply) => {
        const e = evals[ply];
        const m = line[ply].move;
        const { number, white } = numbering(ply - 1, this.start.turn);
        const where = ply === 0 ? t('ab.start') : `${number}${white ? '.' : '…'} ${m}`;
        return `${where}: ${evalText(e)}`;
      },
    }));
  }

  clearEvals() {
    for (const n of [this.root, ...order(this.root)]) delete n.eval;
    this.annotating = null;
    $('#ab-progress').hidden = true;
  }

  /**
   * annotate has the engine evaluate every position of the main line to
   * ANNOTATE_DEPTH, marking the moves and drawing the chart as the
   * evaluations come in; another call, or a new tree, stops it.
   */
  async annotate() {
    const run = {};
    this.stopEngine();
    this.annotating = run;
    const line = [this.root, ...mainLine(this.root)];
    const ask = annotator(await this.engineLoad, this.game);
    if (this.annotating !== run) return;
    const progress = $('#ab-progress');
    const bar = $('progress', progress);
    const text = $('#ab-progress-text');
    progress.hidden = false;
    bar.max = line.length;
    $('#ab-annotate').disabled = true;
    try {
      for (const [i, n] of line.entries()) {
        if (this.annotating !== run) return;
        bar.value = i;
        text.textContent = t('ab.annotating', { done: i, n: line.length });
        if (n.eval) continue;
        const moves = movesTo(n);
        const st = await this.rules.state(this.startText, moves);
        n.eval = st.over ? overEval(st.result) : whiteEval(await ask({ position: this.startText, moves, depth: ANNOTATE_DEPTH }), st.turn);
        if (this.annotating !== run) return;
        this.renderMoves();
        this.renderChart();
      }
      bar.value = line.length;
      text.textContent = t('ab.annotated', { n: line.length - 1, summary: this.summary(line) });
      $('#ab-progress').dataset.done = 'true';
    } catch (e) {
      if (this.annotating === run) this.error(e.message);
    } finally {
      if (this.annotating === run) {
        $('#ab-annotate').disabled = false;
        this.annotating = null;
        this.showEngine();
      }
    }
  }

  /** summary counts the marks of each side in line: "White 1 ?!, 0 ?, 1 ??; Black …". */
  summary(line) {
    const count = { white: { '?!': 0, '?': 0, '??': 0 }, black: { '?!': 0, '?': 0, '??': 0 } };
    for (const n of line.slice(1)) {
      const m = this.mark(n);
      if (m) count[numbering(plyOf(n) - 1, this.start.turn).white ? 'white' : 'black'][m.mark]++;
    }
    return ['white', 'black'].map((c) => `${colourName(c)}: ${count[c]['?!']} ?!, ${count[c]['?']} ?, ${count[c]['??']} ??`).join('; ');
  }

  enterSetup() {
    this.annotating = null;
    this.stopEngine();
    $('#ab-play').hidden = true;
    this.editor.open(this.state ? parsePosition(this.state.position) : this.start);
  }

  drawSetup(p) {
    this.board.update({ size: p.size, board: p.board, interactive: false });
    $('#ab-status').textContent = t('ab.setting_up');
    $('#ab-status').className = 'status';
    this.renderSetupSides(p);
  }

  renderSetupSides(p) {
    this.state = { ...p, over: true, shadow: 0, legal: [], position: formatPosition(p) };
    this.renderSides();
  }

  /** leaveSetup plays on from position (null: as before the set-up). */
  async leaveSetup(position) {
    this.editor.close();
    $('#ab-play').hidden = false;
    if (position) {
      await this.setLine(position, []);
      this.game = '';
      this.names = { white: '', black: '' };
      $('#ab-game').replaceChildren();
    }
    this.go(this.node);
    $('#ab-edit').focus();
  }

  loadPositionText(text) {
    let p;
    try {
      p = parsePosition(text);
    } catch (e) {
      if (!(e instanceof PositionTextError)) throw e;
      this.error(t(e.key, e.params));
      return;
    }
    this.game = '';
    this.setLine(p, []).then((ok) => {
      if (ok) {
        this.info('');
        this.go(this.root);
      }
    });
  }

  async loadRecord(text) {
    let r;
    try {
      r = readRecord(text);
    } catch (e) {
      if (e instanceof RecordError || e instanceof PositionTextError) {
        this.error(t(e.key, e.params));
        return;
      }
      throw e;
    }
    this.game = '';
    this.names = { white: r.white, black: r.black };
    this.info('');
    if (await this.setLine(r.position, r.moves)) this.go(lastOf(this.root));
  }

  /** pgn is the main line as a PGN-style record. */
  async pgn() {
    const line = mainLine(this.root);
    const moves = line.map((n) => n.move);
    const end = await this.rules.state(this.startText, moves);
    // An annotated move's comment: its mark and the evaluation after it.
    const comments = line.map((n) => (n.eval ? [this.mark(n)?.mark, evalText(n.eval)].filter(Boolean).join(' ') : ''));
    return exportPGN({
      position: this.start, moves, comments, result: end.result, reason: end.reason, white: this.names.white, black: this.names.black,
    });
  }

  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      this.info(t('ab.copied'));
    } catch {
      this.info(t('ab.copy_by_hand'));
    }
  }

  /** analyseServer asks the server's engine about the position shown (a browser without the engine). */
  analyseServer() {
    const st = this.state;
    if (!st || st.over) return;
    this.analysis.run(st.position, st.turn, plyOf(this.node), this.start.turn);
  }

  /**
   * mountEngine puts the browser's engine's panel (enginepanel.js) in the
   * analysis box when the engine runs here; without it the server's
   * analysis stays, a position at a time.
   */
  mountEngine() {
    const Panel = this.browser && this.browser.panel && this.browser.panel.EnginePanel;
    if (!Panel) return;
    $('#ab-server-analysis').hidden = true;
    this.panel = new Panel($('#ab-engine'), { engine: this.browser.engine, board: this.board });
    // A page out of sight leaves the processor alone.
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) this.stopEngine();
      else this.showEngine();
    });
  }

  /**
   * showEngine points the engine at the position shown, to analyse it
   * without end until the position changes or the player stops it; an
   * annotation under way has the engine first.
   */
  showEngine() {
    const st = this.state;
    if (!this.panel || !st || this.editor.isOpen || this.annotating) return;
    this.panel.show({ position: this.startText, size: st.size, moves: movesTo(this.node), turn: st.turn, over: st.over });
  }

  stopEngine() {
    if (this.panel) this.panel.stop();
  }
}

/** boardPage starts the analysis board. */
export function boardPage() {
  return new BoardPage().run();
}

