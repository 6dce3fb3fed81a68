// The engine's panel of the analysis board: the browser's engine
// (engine.js) analysing the position shown without end, and what it finds
// as it finds it: depth, nodes per second, the score from White's side
// with an evaluation bar, the best lines (several, as chosen), and the
// best move drawn as an arrow on the board. A button stops and starts it.

import { bestLine, scoreText } from './analysis.js';
import { h } from './dom.js';
import { formatNumber, t } from './i18n.js';
import { Latest } from './latest.js';
import { formatScore } from './text.js';

const NBSP = '\u00a0';

/** MAX_LINES is the most best lines the panel offers to show. */
export const MAX_LINES = 5;

/**
 * whiteShare is the part of the evaluation bar that is White's, from 0 to
 * 100, for a line {score, mate} of the side to move turn: half for a level
 * position, all or none for a forced win, and a man ahead worth about a
 * quarter of the bar beyond the middle (a logistic curve, never reaching
 * the ends without a forced win).
 */
export function whiteShare(line, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (line.mate) return line.mate * sign > 0 ? 100 : 0;
  const men = ((line.score || 0) * sign) / 100;
  return 100 / (1 + Math.exp(-men));
}

/**
 * keepLine puts a line the engine reported into lines (the best lines of
 * the deepest iteration, by their rank): a line of a new iteration starts
 * it over, the final ones included, and lines of an iteration overtaken
 * are dropped. It returns the lines to show.
 */
export function keepLine(lines, info) {
  const top = lines[0];
  if (top && info.depth < top.depth && !info.final) return lines;
  const next = top && info.depth === top.depth && info.multipv > 1 ? lines.slice() : [];
  next[info.multipv - 1] = info;
  return next.filter(Boolean);
}

/** startTurn is the side to move of a position text ("9x9 w 12/12 -"), white for none. */
export const startTurn = (position) => (/^\s*\d+x\d+\s+b\b/.test(position || '') ? 'black' : 'white');

/**
 * EnginePanel fills el with the engine's controls and findings and points
 * the engine at what show gives it. board, a board.js Board, gets the
 * best move as an arrow.
 */
export class EnginePanel {
  constructor(el, { engine, board = null }) {
    this.engine = engine;
    this.board = board;
    this.on = true; // the player's choice: the engine analyses what is shown
    this.running = false;
    this.game = null; // {position, moves, turn, over, size}
    this.lines = [];
    this.latest = new Latest(); // only the last search started is shown
    this.frame = 0;
    this.multipv = 1;
    this.starts = 0; // the analyses started: the last one's end says the engine is idle

    this.toggle = h('button', { type: 'button', 'data-testid': 'engine-toggle', onclick: () => this.setOn(!this.on) });
    const pick = h('select', { id: 'engine-multipv', 'data-testid': 'engine-multipv', onchange: () => this.setLines(Number(pick.value)) },
      Array.from({ length: MAX_LINES }, (_, i) => h('option', { value: i + 1 }, String(i + 1))));
    this.pick = pick;
    this.fill = h('div', { class: 'evalbar-white' });
    this.bar = h('div', { class: 'evalbar', 'data-testid': 'engine-bar', role: 'img' }, this.fill);
    this.score = h('span', { class: 'score', 'data-testid': 'engine-score' });
    this.note = h('span', { class: 'muted' });
    this.facts = h('p', { class: 'muted small', 'data-testid': 'engine-facts', 'aria-live': 'off' });
    this.best = h('p', { class: 'engine-best', 'data-testid': 'engine-best' });
    this.list = h('ol', { class: 'engine-lines', 'data-testid': 'engine-lines' });
    this.status = h('p', { class: 'muted', 'data-testid': 'engine-status', 'aria-live': 'polite' });
    this.root = h('div', { class: 'engine-panel', 'data-testid': 'engine-panel', 'data-searching': 'false' },
      h('div', { class: 'engine-controls' }, this.toggle,
        h('label', { for: 'engine-multipv' }, t('engine.lines'), ' ', pick)),
      h('div', { class: 'engine-view' }, this.bar,
        h('div', { class: 'engine-text' },
          h('p', { class: 'score-line' }, this.score, ' ', this.note), this.best, this.facts, this.status)),
      this.list);
    el.replaceChildren(this.root);
    this.render();
    // A page out of sight leaves the processor alone, and takes the
    // analysis up again when it is seen.
    this.away = false;
    document.addEventListener('visibilitychange', () => {
      if (document.hidden && this.running) {
        this.away = true;
        this.stop();
      } else if (!document.hidden && this.away) {
        this.away = false;
        if (this.on) this.start();
      }
    });
  }

  /** show analyses the game {position, moves, turn, over, size}, the position the board shows. */
  show(game) {
    this.game = game;
    this.lines = [];
    if (this.board) this.board.setArrow(null);
    if (this.on) this.start();
    else this.render();
  }

  /** stop stops the analysis for now (the next show starts it again while the panel is on). */
  stop() {
    this.latest.drop();
    if (this.running) this.engine.stop();
    this.running = false;
    this.render();
  }

  /** setOn starts or stops the engine, as the button does. */
  setOn(on) {
    this.on = on;
    if (on) this.start();
    else this.stop();
  }

  /** setLines chooses how many best lines the engine looks for. */
  setLines(n) {
    this.multipv = n;
    this.pick.value = String(n);
    if (this.running) this.start();
  }

  start() {
    const game = this.game;
    const current = this.latest.ask();
    this.lines = [];
    if (!game || game.over) {
      if (this.running) this.engine.stop();
      this.running = false;
      this.render();
      return;
    }
    this.running = true;
    this.render();
    const request = { position: game.position, size: game.size, moves: game.moves, multipv: this.multipv };
    const started = ++this.starts;
    this.root.dataset.searching = 'true';
    const search = this.engine.analyse(request, (info) => {
      if (!current()) return;
      this.lines = keepLine(this.lines, info);
      this.later();
    });
    // data-searching says whether the engine searches (for tests): until
    // the end of the last analysis started, stopped or not.
    search.finally(() => {
      if (started === this.starts) this.root.dataset.searching = 'false';
    }).catch(() => {});
    search.then(() => {
      if (!current()) return;
      this.running = false;
      this.render();
    }, (e) => {
      if (!current()) return;
      this.running = false;
      // A failure the page knows is said in its language; another, as it came.
      this.failure = e.code ? t(e.code) : e.message;
      this.render();
    });
  }

  // Reports come faster than a screen shows them: the panel is drawn once
  // a frame at most.
  later() {
    if (this.frame) return;
    const draw = () => {
      this.frame = 0;
      this.render();
    };
    this.frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(draw) : setTimeout(draw, 16);
  }

  // Every part of the panel keeps its line, filled or not, so that the
  // page does not move under the player's pointer as the engine reports.
  render() {
    const game = this.game;
    const turn = game ? game.turn : 'white';
    const top = this.lines[0];
    const fill = (el, text) => {
      el.textContent = text || NBSP;
    };
    this.toggle.textContent = t(this.on ? 'engine.stop' : 'engine.start');
    this.toggle.setAttribute('aria-pressed', String(this.on));
    if (this.failure) fill(this.status, t('engine.failed', { reason: this.failure }));
    else if (game && game.over) fill(this.status, t('analysis.no_moves'));
    else if (!this.on) fill(this.status, t('engine.off'));
    else fill(this.status, this.running && !top ? t('engine.thinking') : '');
    this.failure = '';
    const rows = Array.from({ length: Math.max(this.multipv, this.lines.length) }, (_, i) => this.lines[i]);
    const ply = game ? game.moves.length : 0;
    const first = startTurn(game && game.position);
    this.list.replaceChildren(...rows.map((l) => (l
      ? h('li', { 'data-testid': 'engine-line' }, h('span', { class: 'score' }, scoreText(l, turn).head), ' ',
        ...bestLine(l, ply, first).flatMap((w, i) => [i ? ' ' : '', w.number ?? h(w.best ? 'strong' : 'span', {}, w.move)]))
      : h('li', { 'aria-hidden': 'true' }, NBSP))));
    this.setBar(top || null, turn);
    if (!top) {
      fill(this.note, '');
      for (const el of [this.score, this.best, this.facts]) fill(el, '');
      return;
    }
    const { head, note } = scoreText(top, turn);
    this.score.textContent = head;
    this.note.textContent = note;
    const move = top.pv[0];
    fill(this.best, move ? t('engine.best', { move }) : '');
    fill(this.facts, [
      t('analysis.depth', { depth: top.depth }),
      t('analysis.nodes', { n: top.nodes }),
      t('engine.nps', { nps: formatNumber(top.nps) }),
    ].join(' · '));
    if (this.board) this.board.setArrow(move || null, move ? t('engine.arrow', { move }) : '');
  }

  setBar(line, turn) {
    const share = line ? whiteShare(line, turn) : 50;
    this.fill.style.height = `${share}%`;
    const score = line ? scoreText(line, turn).head : formatScore(0);
    this.bar.setAttribute('aria-label', t('engine.bar', { score }));
    this.bar.dataset.white = String(Math.round(share));
  }
}
