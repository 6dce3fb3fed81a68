// The opening explorer's pure parts: the position a page address names
// (a board size and the moves from its start), the address of a position,
// the line of moves kept for going forward again, and the shares of a
// move's games won, drawn and lost.

/** SIZES are the boards of the explorer. */
export const SIZES = [9, 7];

/**
 * MAX_MOVES is the most moves the explorer is asked about (the server's
 * limit, far beyond any opening): a longer address is read to there.
 */
export const MAX_MOVES = 300;

/** MOVE is the form of a move text (RULES 7): an entry, a step or a capture. */
const MOVE = /^[a-i][1-9](?:[-x][a-i][1-9])*$/;

/**
 * readQuery is the position a page address's query names: {size, moves},
 * size 9 or 7 (9 when it says neither), moves from its start, written
 * "c3,g7,a1". Anything that is not a move ends the list there, and so
 * does the MAX_MOVES-th move.
 */
export function readQuery(search) {
  const q = new URLSearchParams(search);
  const size = Number(q.get('size')) === 7 ? 7 : 9;
  const moves = [];
  for (const m of (q.get('moves') || '').split(',')) {
    const text = m.trim().toLowerCase();
    if (!MOVE.test(text) || moves.length === MAX_MOVES) break;
    moves.push(text);
  }
  return { size, moves };
}

/** explorerQuery is the query of a position, for the page's address and the API: "size=9&moves=c3,g7". */
export function explorerQuery({ size, moves }) {
  const q = `size=${size}`;
  return moves.length ? `${q}&moves=${moves.join(',')}` : q;
}

/**
 * lineAfter is the line of moves after playing move at ply of line: the
 * same line when it is the move the line goes on with (so that going
 * forward again still works), else the line cut at ply with the move.
 */
export function lineAfter(line, ply, move) {
  if (line[ply] === move) return line;
  return [...line.slice(0, ply), move];
}

/**
 * shares are a move's games as whole percentages {white, draws, black}
 * that add up to 100 (the largest remainders rounded up, the first on a
 * tie), all 0 without games.
 */
export function shares(m) {
  const total = m.white + m.draws + m.black;
  const keys = ['white', 'draws', 'black'];
  const out = { white: 0, draws: 0, black: 0 };
  if (total === 0) return out;
  // In whole numbers, so that equal remainders are equal: ties go to the
  // first of white, draws, black.
  let left = 100;
  for (const k of keys) {
    out[k] = Math.floor((m[k] * 100) / total);
    left -= out[k];
  }
  const order = keys.map((k, i) => [(m[k] * 100) % total, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let j = 0; j < left; j++) out[keys[order[j][1]]]++;
  return out;
}
