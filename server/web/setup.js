// Set-up positions of the analysis board: the position text of
// docs/notation.md read and written, and a set-up checked before it is
// played from, so that the page can say what is wrong in the player's
// words. A position is {size, turn, hands: {white, black}, board}, board
// as the API's list of columns {square, owner, top, prisoners}. Pure: no
// DOM.

import { FILES, isPlayable, parseSquare } from './notation.js';

/** MEN are the men of each player by board size (RULES 1.2). */
export const MEN = { 9: 12, 7: 8 };

/** startPosition is the empty board of size with every man in hand, White to move. */
export const startPosition = (size = 9) => ({ size, turn: 'white', hands: { white: MEN[size], black: MEN[size] }, board: [] });

/** clearPosition is the empty board of size with no man in hand either. */
export const clearPosition = (size = 9) => ({ size, turn: 'white', hands: { white: 0, black: 0 }, board: [] });

/** squareOrder sorts squares as the position text lists them: rank 1 first, files left to right. */
const squareOrder = (a, b) => {
  const p = parseSquare(a);
  const q = parseSquare(b);
  return p.r - q.r || p.f - q.f;
};

const letter = { white: 'W', black: 'B' };

/** columnText writes a column as the position text does: "W3", "B2w2". */
export function columnText(c) {
  const prisoners = c.prisoners > 0 ? `${c.owner === 'white' ? 'b' : 'w'}${c.prisoners}` : '';
  return `${letter[c.owner]}${c.top}${prisoners}`;
}

/** formatPosition is the canonical position text of p (notation.FormatPosition's). */
export function formatPosition(p) {
  const cols = [...p.board].sort((a, b) => squareOrder(a.square, b.square))
    .map((c) => `${c.square}:${columnText(c)}`);
  return `${p.size}x${p.size} ${p.turn === 'white' ? 'w' : 'b'} ${p.hands.white}/${p.hands.black} ${cols.length ? cols.join(' ') : '-'}`;
}

/** handKeys are the messages of a colour's problems with its men. */
const handKeys = {
  white: { hand: 'setup.hand_white', tooMany: 'setup.too_many_white' },
  black: { hand: 'setup.hand_black', tooMany: 'setup.too_many_black' },
};

/** menOnBoard are the men of each colour on p's board: on top of their columns, and prisoners under the other's. */
export function menOnBoard(p) {
  const count = { white: 0, black: 0 };
  for (const c of p.board) {
    count[c.owner] += c.top || 0;
    count[c.owner === 'white' ? 'black' : 'white'] += c.prisoners || 0;
  }
  return count;
}

/**
 * problems are what is wrong with p, by the rules of a position (RULES
 * 2.2, 1.2), each {key, params} of the catalogue: a column off the board
 * or on a light square, given twice, without a man of its owner on top,
 * with more men of a colour than the game has; a hand out of range; more
 * men of a colour on the board and in hand than the game has. None: the
 * position can be played from.
 */
export function problems(p) {
  const out = [];
  const men = MEN[p.size];
  if (!men) return [{ key: 'setup.size', params: {} }];
  const count = menOnBoard(p);
  const seen = new Set();
  for (const c of p.board) {
    const sq = parseSquare(c.square);
    if (!sq || sq.f >= p.size || sq.r >= p.size) {
      out.push({ key: 'setup.off_board', params: { square: c.square, size: p.size } });
      continue;
    }
    if (!isPlayable(sq.f, sq.r)) out.push({ key: 'setup.light_square', params: { square: c.square } });
    if (seen.has(c.square)) out.push({ key: 'setup.twice', params: { square: c.square } });
    seen.add(c.square);
    if (!(c.top >= 1)) out.push({ key: 'setup.no_top', params: { square: c.square } });
    if (c.top > men || c.prisoners > men) out.push({ key: 'setup.column_too_tall', params: { square: c.square, n: men } });
  }
  for (const [colour, keys] of Object.entries(handKeys)) {
    const hand = p.hands[colour];
    if (!Number.isInteger(hand) || hand < 0 || hand > men) {
      out.push({ key: keys.hand, params: { n: men } });
    } else if (count[colour] + hand > men) {
      out.push({ key: keys.tooMany, params: { board: count[colour], hand, n: men } });
    }
  }
  return out;
}

/** PositionTextError is a position text that cannot be read: the part, as a {key, params} of the catalogue. */
export class PositionTextError extends Error {
  constructor(key, params = {}) {
    super(`${key} ${JSON.stringify(params)}`);
    this.name = 'PositionTextError';
    this.key = key;
    this.params = params;
  }
}

const count = (s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : NaN);

/**
 * parsePosition reads a position text (canonical or not: commas between
 * columns, any order) into a position. It throws a PositionTextError for
 * a text that is not written as one; what it reads may still have
 * problems (problems).
 */
export function parsePosition(text) {
  const fields = String(text).trim().split(/\s+/);
  if (fields.length < 4 || fields[0] === '') throw new PositionTextError('setup.text_form');
  const [sizeText, side, hands, ...rest] = fields;
  const size = { '9x9': 9, '7x7': 7 }[sizeText];
  if (!size) throw new PositionTextError('setup.text_size', { text: sizeText });
  const turn = { w: 'white', b: 'black' }[side];
  if (!turn) throw new PositionTextError('setup.text_side', { text: side });
  const hm = /^([0-9]+)\/([0-9]+)$/.exec(hands);
  if (!hm || Number.isNaN(count(hm[1])) || Number.isNaN(count(hm[2]))) throw new PositionTextError('setup.text_hands', { text: hands });
  const board = [];
  const body = rest.join(' ');
  if (body !== '-') {
    for (const tok of body.split(/[\s,]+/).filter(Boolean)) {
      const m = /^([a-i][1-9]):([WB])([0-9]+)(?:([wb])([0-9]+))?$/.exec(tok);
      const owner = m && (m[2] === 'W' ? 'white' : 'black');
      if (!m || (m[4] && m[4] === m[2].toLowerCase()) || Number.isNaN(count(m[3])) || (m[5] && Number.isNaN(count(m[5])))) {
        throw new PositionTextError('setup.text_column', { text: tok });
      }
      board.push({ square: m[1], owner, top: count(m[3]), prisoners: m[5] ? count(m[5]) : 0 });
    }
  }
  return { size, turn, hands: { white: count(hm[1]), black: count(hm[2]) }, board };
}

/** squaresOf are the playable squares of a board of size, in the position text's order. */
export function squaresOf(size) {
  const out = [];
  for (let r = 0; r < size; r++) {
    for (let f = 0; f < size; f++) if (isPlayable(f, r)) out.push(FILES[f] + (r + 1));
  }
  return out;
}

/**
 * placed is p with the column c on square (c null: the square emptied),
 * the board kept in the position text's order.
 */
export function placed(p, square, c) {
  const board = p.board.filter((x) => x.square !== square);
  if (c) board.push({ square, owner: c.owner, top: c.top, prisoners: c.prisoners });
  board.sort((a, b) => squareOrder(a.square, b.square));
  return { ...p, board };
}

/**
 * resized is p on a board of size: the columns that stand on it kept,
 * the hands cut to the men of the game.
 */
export function resized(p, size) {
  const n = MEN[size];
  return {
    ...p, size,
    hands: { white: Math.min(p.hands.white, n), black: Math.min(p.hands.black, n) },
    board: p.board.filter((c) => {
      const sq = parseSquare(c.square);
      return sq.f < size && sq.r < size;
    }),
  };
}
