// Move notation (RULES 7) as the pages need it: square names, move texts
// read into their kind and squares, and move numbers. Pure: no DOM.

/** FILES are the files of the largest board, a to i. */
export const FILES = 'abcdefghi';

/** squareName is the name of the square on file f and rank r, both from 0. */
export const squareName = (f, r) => FILES[f] + (r + 1);

/** parseSquare is {f, r} of a square name, or null. */
export function parseSquare(s) {
  const m = /^([a-i])([1-9])$/.exec(s);
  return m ? { f: FILES.indexOf(m[1]), r: Number(m[2]) - 1 } : null;
}

/** isPlayable reports whether a square is dark (used): file + rank even. */
export const isPlayable = (f, r) => (f + r) % 2 === 0;

/**
 * normalizeMove is a typed move as the server reads it: trimmed, in lower
 * case, without the "@" some records put before an entry.
 */
export const normalizeMove = (text) => String(text).trim().toLowerCase().replace(/^@/, '');

/**
 * parseMove reads a move in notation: {kind: "entry"|"step"|"capture",
 * squares, text}, or null. A leading "@" is accepted on entries.
 */
export function parseMove(text) {
  const t = normalizeMove(text);
  if (/^[a-i][1-9]$/.test(t)) return { kind: 'entry', squares: [t], text: t };
  if (/^[a-i][1-9]-[a-i][1-9]$/.test(t)) return { kind: 'step', squares: t.split('-'), text: t };
  if (/^[a-i][1-9](x[a-i][1-9])+$/.test(t)) return { kind: 'capture', squares: t.split('x'), text: t };
  return null;
}

/**
 * moveParts splits a move's text after each "x" and "-": the places where
 * a long capture may wrap, between squares and never inside one.
 */
export const moveParts = (m) => m.split(/(?<=[x-])/);

/**
 * moveNumber is the number of the move that holds ply j, counting plies
 * from 0 at a White move: plies 0 and 1 are move 1.
 */
export const moveNumber = (j) => Math.floor(j / 2) + 1;
