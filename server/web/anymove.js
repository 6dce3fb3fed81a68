// Any move, legal or not, chosen square by square: the board's input when
// it must let the learner try a move the rules refuse, to be told which
// rule refuses it (the lessons). Pure: the board gives it the squares
// chosen so far and the columns, and asks what a click does.

import { parseSquare, squareName } from './notation.js';

/** diagonal is how many squares b lies from a along a diagonal, or 0 if it does not. */
export function diagonal(a, b) {
  const p = parseSquare(a);
  const q = parseSquare(b);
  const df = Math.abs(p.f - q.f);
  return df === Math.abs(p.r - q.r) ? df : 0;
}

/** between is the square a jump from a to b passes over. */
function between(a, b) {
  const p = parseSquare(a);
  const q = parseSquare(b);
  return squareName((p.f + q.f) / 2, (p.r + q.r) / 2);
}

/**
 * during is the board in the middle of a capture along path (RULES 3.2,
 * 3.4): the start square empty, each jumped column a man shorter, freed
 * prisoners the mover's. columns maps a square to {owner, top, prisoners}.
 */
function during(path, columns) {
  const cols = new Map(columns);
  const mover = cols.get(path[0])?.owner;
  cols.delete(path[0]);
  for (let i = 1; i < path.length; i++) {
    const over = between(path[i - 1], path[i]);
    const c = cols.get(over);
    if (!c) continue;
    if (c.top > 1) cols.set(over, { ...c, top: c.top - 1 });
    else if (c.prisoners > 0) cols.set(over, { owner: mover, top: c.prisoners, prisoners: 0 });
    else cols.delete(over);
  }
  return cols;
}

/**
 * jumpsOn says whether the column capturing along path could jump again
 * from its last square (RULES 3.1-3.4): over an opponent-topped column
 * onto an empty square of the board of size, never straight back, and
 * only if its last leg was a jump.
 */
export function jumpsOn(path, columns, size) {
  const mover = columns.get(path[0])?.owner;
  if (path.length > 1) {
    const jumped = during(path.slice(0, -1), columns).get(between(path[path.length - 2], path[path.length - 1]));
    if (!jumped || jumped.owner === mover) return false; // the last leg took nothing: no capture goes on from it
  }
  const cols = during(path, columns);
  const last = parseSquare(path[path.length - 1]);
  const back = path.length > 1 ? path[path.length - 2] : '';
  for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    const f = last.f + 2 * df;
    const r = last.r + 2 * dr;
    if (f < 0 || r < 0 || f >= size || r >= size) continue;
    const land = squareName(f, r);
    const over = cols.get(squareName(last.f + df, last.r + dr));
    if (land !== back && over && over.owner !== mover && !cols.has(land)) return true;
  }
  return false;
}

/**
 * anyMoveClick says what a click on sq does, path being the squares chosen
 * so far on the board of size with columns (square -> {owner, top,
 * prisoners}): {path, move}, the squares chosen after it and the move text
 * to try, or null.
 *
 * With nothing chosen, an empty square is an entry and a column is chosen.
 * From a chosen column, a square two diagonal steps away is a jump; any
 * other square a step (a step's wrong length is for the rules to name),
 * except that another column is chosen instead. A capture goes on jump by
 * jump while its column could jump again, and is tried when it could not;
 * clicking its last square again tries it as it stands.
 */
export function anyMoveClick({ path, sq, columns, size }) {
  if (path.length === 0) return columns.has(sq) ? { path: [sq], move: null } : { path: [], move: sq };
  const last = path[path.length - 1];
  if (sq === last) return { path: [], move: path.length > 1 ? path.join('x') : null };
  if (diagonal(last, sq) === 2) {
    const next = [...path, sq];
    return jumpsOn(next, columns, size) ? { path: next, move: null } : { path: [], move: next.join('x') };
  }
  if (path.length > 1) return { path: [], move: null };
  if (columns.has(sq) && diagonal(last, sq) !== 1) return { path: [sq], move: null };
  return { path: [], move: `${last}-${sq}` };
}
