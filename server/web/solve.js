// Pure: what the puzzles page (/puzzles) makes of a puzzle of the API
// (docs/api.md, "Puzzles"): the filters' query, whether a move is the
// solution's, what the page says to the solver at each step, and the
// explanation of a wrong move, in the page's language.

import { t } from './i18n.js';
import { diffText, ratingText } from './rated.js';
import { formatScore } from './text.js';

/** THEMES are the puzzles' themes, in the order the filter lists them. */
export const THEMES = ['majority', 'freeing', 'shadow', 'blocking', 'win'];

const themeKeys = {
  majority: 'puzzles.theme.majority',
  freeing: 'puzzles.theme.freeing',
  shadow: 'puzzles.theme.shadow',
  blocking: 'puzzles.theme.blocking',
  win: 'puzzles.theme.win',
};

/** themeName is a theme as the page names it; an unknown one as it is. */
export const themeName = (theme) => (themeKeys[theme] ? t(themeKeys[theme]) : theme);

/** nextQuery is the query of GET /api/puzzles/next for the filters {size, theme}, after the puzzle after (its id, or ''). */
export function nextQuery({ size, theme }, after = '') {
  const q = new URLSearchParams({ size: String(size) });
  if (theme) q.set('theme', theme);
  if (after) q.set('after', after);
  return `?${q}`;
}

/** readFilters reads the filters from a page address's query: {size: 9 or 7, theme: one of THEMES or ''}. */
export function readFilters(search) {
  const q = new URLSearchParams(search);
  const size = q.get('size') === '7' ? 7 : 9;
  const theme = THEMES.includes(q.get('theme')) ? q.get('theme') : '';
  return { size, theme };
}

/** isRight reports whether move is a right answer at ply i of the puzzle's line (a solver's ply). */
export const isRight = (puzzle, i, move) => puzzle.line[i].accept.includes(move);

/** solverMoves are the moves the solver played up to ply i, his alone: what an attempt sends. */
export const solverMoves = (puzzle, i) => puzzle.line.slice(0, i).filter((_, j) => j % 2 === 0).map((p) => p.move);

/** isLast reports whether ply i is the solver's last move. */
export const isLast = (puzzle, i) => i === puzzle.line.length - 1;

/** instruction is what the page asks at ply i: the first move, or the next one. */
export function instruction(puzzle, i) {
  if (i > 0) return t('puzzles.find_next');
  return t(puzzle.solver === 'white' ? 'puzzles.find_white' : 'puzzles.find_black');
}

/**
 * howText is the help under the board for the solver in a position
 * (view): how to enter a man only while the solver holds one.
 */
export function howText(view, solver) {
  const hands = (view && view.hands) || {};
  return t(hands[solver] > 0 ? 'learn.how' : 'puzzles.how_board');
}

/**
 * wrongLines explain a wrong move from the attempt's answer {wrong: {move,
 * best, refutation, score, mate}}: that it is not the move, the move that
 * wins, and what the engine answers to it.
 */
export function wrongLines(w) {
  const lines = [t('puzzles.best', { move: w.best })];
  if (w.refutation.length > 0) {
    lines.push(t('puzzles.refutation', { line: w.refutation.join(' ') }));
    if (w.mate < 0) lines.push(t('puzzles.lose_in', { n: -w.mate }));
    else lines.push(t('puzzles.stand', { score: formatScore(w.score) }));
  }
  return lines;
}

/** ratingLine says what an attempt did to the solver's rating: "Your puzzle rating: 1523? ±290 (+23)", or that it was not rated. */
export function ratingLine(res) {
  if (!res.rated) return t('puzzles.not_rated', { rating: ratingText(res.you) });
  return t('puzzles.rating_after', { rating: ratingText(res.you), diff: diffText(res.diff) });
}

/** puzzleFacts are the puzzle's rating and plays, and, once it is over, its themes. */
export function puzzleFacts(puzzle, over) {
  const facts = [t('puzzles.puzzle_rating', { rating: puzzle.rating, n: puzzle.plays })];
  if (over) {
    const themes = puzzle.themes.map(themeName).join(', ');
    facts.push(themes ? t('puzzles.themes', { themes }) : t('puzzles.no_theme'));
  }
  return facts;
}

/** solutionPlies are the line's plies as the solution list shows them: {ply, move, solver}. */
export const solutionPlies = (puzzle) => puzzle.line.map((p, i) => ({ ply: i + 1, move: p.move, solver: i % 2 === 0 }));
