// The engine's annotations of a game on the analysis board: each
// position's evaluation from White's side, each move judged by what it
// lost (as lichess judges: by the fall of the mover's winning chances,
// ?! an inaccuracy, ? a mistake, ?? a blunder), and the evaluation chart
// whose points go to their move. The judging and the chart's geometry
// are pure; evalChart makes the SVG.

import { svgEl } from './dom.js';
import { formatScore } from './text.js';

/**
 * whiteEval is an engine answer {score, mate} for the side to move turn
 * as {score, mate} from White's side; a finished game's result instead
 * of a search: {result}.
 */
export function whiteEval(a, turn) {
  const sign = turn === 'white' ? 1 : -1;
  return { score: (a.score || 0) * sign, mate: (a.mate || 0) * sign };
}

/** overEval is the evaluation of a position where the game is over, from its result. */
export function overEval(result) {
  if (result === '1-0') return { score: 0, mate: 1, over: true };
  if (result === '0-1') return { score: 0, mate: -1, over: true };
  return { score: 0, mate: 0, over: true };
}

/**
 * SCALE turns the engine's score, in hundredths of a man, into winning
 * chances: lichess's curve for centipawns, 2/(1+e^(-k·cp))-1, with a man
 * as its pawn.
 */
export const SCALE = 0.00368208;

/** chances are White's winning chances of an evaluation, from -1 (Black wins) to 1 (White wins). */
export function chances(e) {
  if (e.mate) return e.mate > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-SCALE * e.score)) - 1;
}

/** MARKS are the judgements, worst first, with the fall of the mover's chances each needs. */
export const MARKS = [
  { mark: '??', key: 'ab.blunder', drop: 0.3 },
  { mark: '?', key: 'ab.mistake', drop: 0.2 },
  { mark: '?!', key: 'ab.inaccuracy', drop: 0.1 },
];

/**
 * judge is the judgement of a move by mover from a position evaluated
 * before to one evaluated after (both from White's side): a MARKS entry,
 * or null for a good enough move.
 */
export function judge(before, after, mover) {
  const sign = mover === 'white' ? 1 : -1;
  const drop = (chances(before) - chances(after)) * sign;
  return MARKS.find((m) => drop >= m.drop - 1e-9) || null;
}

/** evalText writes an evaluation as the page shows it: "+0.35", "#+3", "1-0". */
export function evalText(e) {
  if (e.over) return e.mate > 0 ? '1-0' : e.mate < 0 ? '0-1' : '½-½';
  if (e.mate) return `#${e.mate > 0 ? '+' : '−'}${Math.abs(e.mate)}`;
  return formatScore(e.score);
}

/** EVAL_CHART is the chart's drawing size, in SVG units. */
export const EVAL_CHART = { width: 600, height: 140, pad: 6 };

/**
 * evalPoints places the evaluations of positions 0..n (null where there
 * is none yet) in the chart: {ply, x, y}, x across the plies, y from
 * White winning (top) to Black winning (bottom), 0 in the middle.
 */
export function evalPoints(evals, c = EVAL_CHART) {
  const n = Math.max(evals.length - 1, 1);
  const w = c.width - 2 * c.pad;
  const mid = c.height / 2;
  const half = c.height / 2 - c.pad;
  const out = [];
  evals.forEach((e, ply) => {
    if (!e) return;
    out.push({ ply, x: Math.round((c.pad + (ply * w) / n) * 10) / 10, y: Math.round((mid - chances(e) * half) * 10) / 10 });
  });
  return out;
}

/**
 * evalChart draws the evaluations of positions 0..n as an SVG figure:
 * the area of White's advantage, a point per position (a button: onPick
 * (ply) goes to it), the shown ply marked; label names it for screen
 * readers and title(ply) is each point's tooltip.
 */
export function evalChart(evals, shown, { onPick, label, title }) {
  const c = EVAL_CHART;
  const pts = evalPoints(evals);
  const svg = svgEl('svg', { viewBox: `0 0 ${c.width} ${c.height}`, class: 'eval-chart', role: 'group', 'aria-label': label, 'data-testid': 'eval-chart' });
  svgEl('rect', { class: 'eval-bg', x: 0, y: 0, width: c.width, height: c.height }, svg);
  svgEl('line', { class: 'eval-mid', x1: 0, x2: c.width, y1: c.height / 2, y2: c.height / 2 }, svg);
  if (pts.length > 1) {
    const line = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join('');
    svgEl('path', { class: 'eval-area', d: `${line}L${pts[pts.length - 1].x} ${c.height / 2}L${pts[0].x} ${c.height / 2}Z` }, svg);
    svgEl('path', { class: 'eval-line', d: line }, svg);
  }
  for (const p of pts) {
    const g = svgEl('g', { class: `eval-point${p.ply === shown ? ' current' : ''}`, 'data-ply': p.ply, role: 'button', tabindex: '-1', 'aria-label': title(p.ply) }, svg);
    svgEl('rect', { class: 'eval-hit', x: p.x - 6, y: 0, width: 12, height: c.height }, g);
    svgEl('circle', { class: 'eval-dot', cx: p.x, cy: p.y, r: p.ply === shown ? 5 : 3 }, g);
    svgEl('title', {}, g).textContent = title(p.ply);
  }
  const pick = (e) => {
    const g = e.target.closest && e.target.closest('[data-ply]');
    if (g) onPick(Number(g.getAttribute('data-ply')));
  };
  svg.addEventListener('click', pick);
  svg.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(e);
    }
  });
  return svg;
}
