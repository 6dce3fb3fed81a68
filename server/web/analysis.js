// Analysis of the position on the board: the request, and the engine's
// answer in words. The engine scores for the side to move; the page shows
// the score from White's side, as the move list is read, and says who is
// to move.

import * as api from './api.js';
import { breakable, h } from './dom.js';
import { t } from './i18n.js';
import { Latest } from './latest.js';
import { moveNumber } from './notation.js';
import { formatScore } from './text.js';

/**
 * LEVEL is the margin, in hundredths of a man, within which a position is
 * called about level.
 */
export const LEVEL = 25;


/**
 * scoreText is the engine's verdict {head, note} from White's side: a
 * forced win as #+N (White) or #−N (Black) in N moves, else the score.
 */
export function scoreText(a, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (a.mate) {
    const white = a.mate * sign > 0;
    const n = Math.abs(a.mate);
    return { head: `#${white ? '+' : '−'}${n}`, note: t(white ? 'analysis.win_white' : 'analysis.win_black', { n }) };
  }
  const w = (a.score || 0) * sign;
  const note = t(w > LEVEL ? 'analysis.better_white' : w < -LEVEL ? 'analysis.better_black' : 'analysis.level');
  return { head: formatScore(w), note };
}

/**
 * bestLine is the engine's line after ply moves of a game whose first move
 * was first's, as numbered words: {number} before a White move (and before
 * the first move when it is Black's, as "5…"), {move, best} for a move,
 * best on the first. Without a line, the best move alone.
 */
export function bestLine(a, ply, first) {
  const pv = a.pv && a.pv.length ? a.pv : a.best ? [a.best] : [];
  const offset = first === 'white' ? 0 : 1;
  const words = [];
  pv.forEach((move, i) => {
    const j = ply + offset + i;
    if (j % 2 === 0) words.push({ number: `${moveNumber(j)}.` });
    else if (i === 0) words.push({ number: `${moveNumber(j)}…` });
    words.push({ move, best: i === 0 });
  });
  return words;
}

/**
 * tableText says what the endgame tables know of the position {outcome,
 * plies}: solved, and the end so many plies away, or a draw.
 */
export function tableText(table) {
  if (!table.outcome) return t('analysis.table_draw');
  return t('analysis.table', { n: table.plies });
}

/** searchFacts is how far the engine looked: "depth 8 · 123,456 nodes", or "". */
export function searchFacts(a) {
  const facts = [];
  if (a.depth) facts.push(t('analysis.depth', { depth: a.depth }));
  if (a.nodes) facts.push(t('analysis.nodes', { n: Number(a.nodes) }));
  return facts.join(' · ');
}

/** analysisView is the answer a as elements, for the position after ply moves. */
export function analysisView(a, turn, ply, first) {
  const { head, note } = scoreText(a, turn);
  const parts = [h('p', { class: 'score-line' },
    h('span', { class: 'score', 'data-testid': 'analysis-score' }, head), ' ', note,
    h('span', { class: 'muted' }, ` ${t(turn === 'white' ? 'analysis.white_to_move' : 'analysis.black_to_move')}`))];
  const words = bestLine(a, ply, first).map((w) =>
    w.number ?? h(w.best ? 'strong' : 'span', {}, breakable(w.move)));
  if (words.length) {
    const spaced = words.flatMap((x, i) => (i ? [' ', x] : [x]));
    parts.push(h('p', { class: 'pv', 'data-testid': 'analysis-line' }, `${t('analysis.best_line')} `, ...spaced));
  } else {
    parts.push(h('p', { class: 'muted' }, t('analysis.no_moves')));
  }
  if (a.table) parts.push(h('p', { 'data-testid': 'analysis-table' }, tableText(a.table)));
  const facts = searchFacts(a);
  if (facts) parts.push(h('p', { class: 'muted small' }, facts));
  return parts;
}

/**
 * Analysis runs the analyse button of game: it asks for the position shown
 * and puts the answer in out, unless another was asked for meanwhile.
 * onBusy(busy) is told when a request leaves and when its answer is in.
 */
export class Analysis {
  constructor(game, out, onBusy) {
    this.game = game;
    this.out = out;
    this.onBusy = onBusy;
    this.latest = new Latest(); // only the last analysis asked for is shown
    this.busy = false;
  }

  /** run analyses position, with turn to move after ply moves of a game first began. */
  async run(position, turn, ply, first) {
    const current = this.latest.ask();
    this.setBusy(true);
    this.out.replaceChildren(h('p', { class: 'muted' }, t('analysis.busy')));
    try {
      // The game goes with the position, so that the server refuses while
      // the game is played.
      const a = await api.analyze({ game: this.game, position });
      if (!current()) return;
      this.out.replaceChildren(...analysisView(a, turn, ply, first));
    } catch (e) {
      if (current()) this.out.replaceChildren(h('p', { class: 'message error' }, e.message));
    } finally {
      this.setBusy(false);
    }
  }

  setBusy(busy) {
    this.busy = busy;
    this.onBusy(busy);
  }
}
