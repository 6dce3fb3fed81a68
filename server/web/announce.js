// What the game page tells a screen reader as the game goes on: each move
// in words (who played what, what it took or freed, whose turn it is now),
// a take-back, the friend's arrival and the end, each once, from the
// state before and the state after. Pure: the page puts the words in its
// live region (game.js), and the status names the last move (lastMoveText).

import { t } from './i18n.js';
import { parseMove } from './notation.js';
import { firstSide, moveRows } from './replay.js';
import { moveHint, myTurn, resultText } from './status.js';
import { displayName } from './dom.js';
import { colourName, other } from './text.js';

/** moveKeys are the messages of a move by its kind, for each colour that plays it. */
const moveKeys = {
  entry: { white: 'a11y.entry_white', black: 'a11y.entry_black' },
  shadow: { white: 'a11y.shadow_white', black: 'a11y.shadow_black' },
  step: { white: 'a11y.step_white', black: 'a11y.step_black' },
  capture: { white: 'a11y.capture_white', black: 'a11y.capture_black' },
};

/** freedKeys say how many men of a colour a capture freed. */
const freedKeys = { white: 'a11y.freed_white', black: 'a11y.freed_black' };

/** prisonersOf counts colour's men held prisoner on board (the API's column list). */
function prisonersOf(board, colour) {
  return (board || []).filter((c) => c.owner !== colour).reduce((n, c) => n + c.prisoners, 0);
}

/**
 * moveWords is move, played by mover, in words: an entry (of the shadow
 * piece, RULES 4.2, when the column entered is taller than one man), a
 * step, or a capture with the men it took and those of the mover's it
 * freed (RULES 3.2). before and after are the boards around it.
 */
export function moveWords(move, mover, before, after) {
  const m = parseMove(move);
  if (!m) return move;
  const sq = m.squares;
  if (m.kind === 'entry') {
    const col = (after || []).find((c) => c.square === sq[0]);
    if (col && col.top > 1) return t(moveKeys.shadow[mover], { square: sq[0], n: col.top });
    return t(moveKeys.entry[mover], { square: sq[0] });
  }
  if (m.kind === 'step') return t(moveKeys.step[mover], { from: sq[0], to: sq[1] });
  const words = [t(moveKeys.capture[mover], { move, n: sq.length - 1 })];
  const freed = prisonersOf(before, mover) - prisonersOf(after, mover);
  if (freed > 0) words.push(t(freedKeys[mover], { n: freed }));
  return words.join(' ');
}

/** turnWords say what comes next: the result of a game over, the viewer's move and what it must be, or whose turn it is. */
export function turnWords(s) {
  if (s.over) {
    const r = resultText(s);
    return [r.head, r.reason, r.mine].filter(Boolean).map((x) => (/[.!?…]$/.test(x) ? x : `${x}.`)).join(' ');
  }
  if (myTurn(s)) return moveHint(s);
  return s.turn === 'white' ? t('status.to_move_white') : t('status.to_move_black');
}

/**
 * announcement is what the page says of the state s taken after prev, ""
 * when nothing is to be said: the move played (one more move than before,
 * or two),
 * a take-back (fewer moves), the opponent who took his seat, or the end
 * of the game; each followed by what comes next. The first state of a
 * page, and a state that changes nothing of these, say nothing.
 */
export function announcement(prev, s) {
  if (!prev || !s) return '';
  const n = s.moves.length;
  const was = prev.moves.length;
  const grew = n > was && prev.moves.every((m, i) => s.moves[i] === m);
  if (grew && n === was + 1) {
    return `${moveWords(s.moves[n - 1], prev.turn, prev.board, s.board)} ${turnWords(s)}`;
  }
  // Two moves at once (the opponent's reply came before the answer to
  // one's own): both are said, without what the first freed, since the
  // board between them is not known.
  if (grew && n === was + 2) {
    return `${moveWords(s.moves[was], prev.turn, [], [])} ${moveWords(s.moves[n - 1], other(prev.turn), [], s.board)} ${turnWords(s)}`;
  }
  const same = n === was && prev.moves.every((m, i) => s.moves[i] === m);
  if (n < was && prev.moves.slice(0, n).every((m, i) => s.moves[i] === m)) {
    return `${t('a11y.taken_back', { n: was - n })} ${turnWords(s)}`;
  }
  if (!same) return '';
  if (s.over && !prev.over) return turnWords(s);
  if (s.you && !s.over) {
    const opp = other(s.you);
    const before = (prev.players || {})[opp] || {};
    const now = (s.players || {})[opp] || {};
    if (!before.joined && now.joined) {
      return `${t('a11y.joined', { name: displayName(now.name) || colourName(opp) })} ${turnWords(s)}`;
    }
  }
  return '';
}

/** lastMoveText names the last move of the game, numbered as the move list numbers it, and who played it; "" before the first. */
export function lastMoveText(s) {
  const n = s.moves.length;
  if (n === 0) return '';
  const rows = moveRows(s.moves, firstSide(n, s.turn));
  const last = rows[rows.length - 1].plies.at(-1);
  const mover = n % 2 === 1 ? firstSide(n, s.turn) : other(firstSide(n, s.turn));
  return t(mover === 'white' ? 'a11y.last_white' : 'a11y.last_black', { move: last.label });
}
