// What a game page says about a state, in words: whose turn it is and what
// the move must be, who is waited for, the result and why, the players'
// names, the open seats and the offers. Pure: every function takes the
// state as the API gives it.

import { parseMove } from './notation.js';
import { capital, men, other, uncapital } from './text.js';

const heads = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' };

/**
 * myTurn reports whether the viewer may move now. The server refuses moves
 * until both seats are taken, so a friend game waits for the friend.
 */
export function myTurn(s) {
  if (!s || s.over || !s.you || s.you !== s.turn || (s.legal || []).length === 0) return false;
  const opp = s.players && s.players[other(s.you)];
  return !opp || Boolean(opp.joined);
}

/** title is the page's title: the board, and "Your move" when it is. */
export const title = (s) => `${myTurn(s) ? 'Your move · ' : ''}Emergo ${s.size}×${s.size}`;

/**
 * moveHint is what the viewer's move must be: an entry (of the shadow
 * piece, RULES 4.2), a capture of so many men (RULES 5), or any move.
 */
export function moveHint(s) {
  const legal = (s.legal || []).map(parseMove).filter(Boolean);
  if (legal.length && legal.every((m) => m.kind === 'entry')) {
    return s.shadow > 1
      ? `Your move: enter your shadow piece (${s.shadow} men as one column).`
      : 'Your move: enter a man on a marked square.';
  }
  if (legal.length && legal[0].kind === 'capture') {
    return `Your move: you must capture (${men(legal[0].squares.length - 1)}).`;
  }
  return 'Your move.';
}

/**
 * statusLine is the status line {text, cls} of a state (cls the element's
 * classes). While an earlier position is shown (viewing), it says that the
 * status is the live game's, not the board's. invite is the invitation the
 * page's link carries, if any.
 */
export function statusLine(s, viewing, invite = '') {
  if (s.over) return { text: aborted(s) ? 'Game aborted.' : 'Game over.', cls: 'status over' };
  let text;
  let cls = 'status';
  if (s.thinking) {
    text = 'Emergo is thinking…';
    cls += ' thinking';
  } else if (myTurn(s)) {
    text = moveHint(s);
    cls += ' mine';
  } else if (s.you) {
    const opp = other(s.you);
    const op = (s.players || {})[opp] || {};
    text = !op.joined && !op.engine && s.mode === 'friend'
      ? 'Waiting for your friend to join. Send them the link below.'
      : `Waiting for ${op.name || capital(opp)} (${capital(opp)}).`;
  } else if (s.invited && invite) {
    text = 'You are invited to play: take your seat below.';
  } else if (s.invited) {
    text = 'Waiting for the invited friend to join. You are watching.';
  } else {
    text = `${s.turn === 'white' ? 'White' : 'Black'} to move.`;
    if (s.mode !== 'analysis') text += ' You are watching.';
  }
  if (viewing) text = `Live game: ${uncapital(text)}`;
  return { text, cls };
}

/** aborted reports whether the game was called off, without a result. */
const aborted = (s) => s.over && s.reason === 'aborted';

/**
 * resultText is the result box of a finished game: {head, score, reason,
 * mine}, mine saying whether the viewer won or lost ("" for a watcher or a
 * draw). It is null while the game goes on.
 */
export function resultText(s) {
  if (!s.over) return null;
  if (aborted(s)) {
    return { head: 'Aborted', score: '', reason: 'No result: the game was called off before both players had moved.', mine: '' };
  }
  let mine = '';
  if (s.you && s.result !== '1/2-1/2') {
    const winner = s.result === '1-0' ? 'white' : 'black';
    mine = s.you === winner ? 'You won.' : 'You lost.';
  }
  return { head: heads[s.result] || s.result, score: s.result, reason: s.reason ? capital(s.reason) : '', mine };
}

/** playerName is the name shown for colour's seat. */
export function playerName(s, colour) {
  const p = (s.players && s.players[colour]) || {};
  if (!p.joined && !p.engine && s.mode === 'friend') return 'waiting for a player…';
  return p.name || capital(colour);
}

/**
 * openSeats are the colours a watcher may take a seat as, White first. A
 * seat kept for an invited friend is open only to the holder of the
 * invitation (invite, from the link).
 */
export function openSeats(s, invite = '') {
  if (s.you || s.over || s.mode === 'analysis' || (s.invited && !invite)) return [];
  const players = s.players || {};
  return ['white', 'black'].filter((c) => players[c] && !players[c].joined && !players[c].engine);
}

/**
 * analysisNote says why the engine's analysis is closed ("" when it is
 * open, as the state's analysis says): no engine help for anyone while
 * the game is played.
 */
export const analysisNote = (s) => (s.analysis ? '' : 'The engine analyses this game once it has ended.');

/**
 * inviteFromHash is the invitation a link carries after '#' ("#invite=…"),
 * or "". Browsers send no part of the link after '#' to the server, so the
 * secret reaches it only with the request to join.
 */
export function inviteFromHash(hash) {
  const m = /^#(?:.*&)?invite=([A-Za-z0-9_-]+)/.exec(hash || '');
  return m ? m[1] : '';
}

/** gameLink is the link of a game that a player sends: his invitation in it while it stands. */
export function gameLink(origin, s) {
  const link = `${origin}/g/${encodeURIComponent(s.id)}`;
  return s.invite ? `${link}#invite=${s.invite}` : link;
}

/** inviteTitle heads the link of a friend game: an invitation until the friend is there. */
export const inviteTitle = (friendJoined) =>
  friendJoined ? 'Link to this game (others can watch)' : 'Invite a friend: send this link';

/**
 * controls are the seated player's buttons and the open offers: {playing,
 * abort (the game may still be called off), draw: {disabled, text},
 * takeback: {disabled, text}, offers}, an offer being {what:
 * "draw"|"takeback", label, answer} (answer: the viewer may accept or
 * decline it). Everything here comes from the state, so nothing stays
 * after the offer is answered or the game ends.
 */
export function controls(s) {
  const playing = Boolean(s.you) && !s.over;
  const players = s.players || {};
  const oppJoined = Boolean(s.you) && Boolean((players[other(s.you)] || {}).joined);
  const offers = [];
  const offer = (what, by) => {
    const mine = by === s.you;
    const label = mine
      ? `You ${what === 'draw' ? 'offered a draw' : 'asked to take back a move'}; waiting for an answer.`
      : `${capital(by)} ${what === 'draw' ? 'offers a draw' : 'asks to take back a move'}.`;
    offers.push({ what, label, answer: playing && !mine });
  };
  if (!s.over && s.drawOffer) offer('draw', s.drawOffer);
  if (!s.over && s.takeback) offer('takeback', s.takeback);
  return {
    playing,
    abort: playing && Boolean(s.abortable),
    draw: {
      disabled: !oppJoined || s.drawOffer === s.you,
      text: s.drawOffer === s.you ? 'Draw offered' : 'Offer draw',
    },
    takeback: {
      disabled: !oppJoined || s.moves.length === 0 || s.takeback === s.you,
      text: s.takeback === s.you ? 'Take-back asked' : 'Take back',
    },
    offers,
  };
}
