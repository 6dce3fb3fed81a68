// Replay: stepping through the positions of a game. The index logic is pure
// (which ply a button or key goes to, what the move list holds); Replay
// keeps the position shown and fetches earlier ones, so that only the last
// choice is shown when answers come back out of order.

import { t } from './i18n.js';
import { Latest } from './latest.js';
import { moveNumber } from './notation.js';
import { other } from './text.js';

/**
 * navTarget is the ply that where ("first", "prev", "next", "last") goes to
 * from ply current in a game of n moves, or null when it goes nowhere.
 */
export function navTarget(where, current, n) {
  const to = { first: 0, prev: current - 1, next: current + 1, last: n }[where];
  if (to === undefined || to < 0 || to > n || to === current) return null;
  return to;
}

/** navDisabled says which of the navigation buttons go nowhere from current. */
export function navDisabled(current, n) {
  return { first: current === 0, prev: current === 0, next: current >= n, last: current >= n };
}

/**
 * firstSide is the colour that made the first move of a game of n moves
 * with turn to move: a record may start from a set-up position with Black
 * to move, and turns strictly alternate.
 */
export const firstSide = (n, turn) => (n % 2 === 0 ? turn : other(turn));

/**
 * moveRows lays out a move list as it is read: rows of a move number and
 * the White and Black plies, {number, plies}, where a ply is {ply, text,
 * label} (ply is the number of moves after it) or null for the White half
 * of a game that starts with Black.
 */
export function moveRows(moves, first) {
  const offset = first === 'white' ? 0 : 1;
  const rows = [];
  let row = null;
  moves.forEach((text, i) => {
    const j = i + offset;
    if (j % 2 === 0 || !row) {
      row = { number: moveNumber(j), plies: [] };
      if (j % 2 === 1) row.plies.push(null);
      rows.push(row);
    }
    row.plies.push({ ply: i + 1, text, label: `${moveNumber(j)}${j % 2 ? '…' : '.'} ${text}` });
  });
  return rows;
}

/** viewText says which earlier position is shown, of a game of n moves. */
export function viewText(ply, n) {
  return ply === 0 ? t('replay.start', { n }) : t('replay.after', { ply, n });
}

/**
 * shownSide is what the player bars show of the position on the board:
 * {hands, turn, shadow, over}, from the live state or from view, an earlier
 * position ({ply, data} with data as the API's position after ply moves).
 * The shadow piece (RULES 4.2) is the size of the column entered when the
 * opponent has no men in hand.
 */
export function shownSide(state, view) {
  if (view) {
    const d = view.data;
    const hands = d.hands || { white: 0, black: 0 };
    const turn = d.turn;
    const shadow = hands[turn] > 1 && hands[other(turn)] === 0 ? hands[turn] : 0;
    return { hands, turn, shadow, over: view.ply === state.moves.length && Boolean(state.over) };
  }
  return {
    hands: state.hands || { white: 0, black: 0 },
    turn: state.turn,
    shadow: state.shadow || 0,
    over: Boolean(state.over),
  };
}

/**
 * Replay holds the earlier position shown (view: {ply, data}, or null for
 * the live one) and the ply on its way (pending). positionAt(ply) fetches
 * a position; positions are kept per move sequence, so a take-back that
 * changes the moves fetches anew.
 */
export class Replay {
  constructor(positionAt) {
    this.positionAt = positionAt;
    this.view = null;
    this.pending = null;
    this.latest = new Latest(); // only the last choice is shown
    this.cache = new Map();
  }

  /** shown is the ply on the board, in a game of n moves. */
  shown(n) {
    return this.view ? this.view.ply : n;
  }

  /** target is the ply where goes to; steps taken while a position is on its way count from it. */
  target(where, n) {
    return navTarget(where, this.pending ?? this.shown(n), n);
  }

  /** live goes back to the live position, forgetting any on its way, and returns the view left. */
  live() {
    const left = this.view;
    this.view = null;
    this.latest.drop();
    this.pending = null;
    return left;
  }

  /** fit forgets a view past the end of a game of n moves (after a take-back). */
  fit(n) {
    if (this.view && this.view.ply >= n) this.view = null;
  }

  /**
   * fetch is the position after ply moves of moves, or null when another
   * choice was made before it came. An error is thrown only for the last
   * choice.
   */
  async fetch(ply, moves) {
    const current = this.latest.ask();
    this.pending = ply;
    const key = `${ply}|${moves.slice(0, ply).join(' ')}`;
    let data = this.cache.get(key);
    if (!data) {
      try {
        data = await this.positionAt(ply);
      } catch (e) {
        if (!current()) return null;
        this.pending = null;
        throw e;
      }
      this.cache.set(key, data);
    }
    if (!current()) return null;
    this.pending = null;
    return data;
  }
}
