// What a game page says about a state, in words: whose turn it is and what
// the move must be, who is waited for, the result and why, the players'
// names, the open seats and the offers. Pure: every function takes the
// state as the API gives it.

import { nameText } from './dom.js';
import { t } from './i18n.js';
import { parseMove } from './notation.js';
import { colourName, other, reasonText, uncapital } from './text.js';

const heads = { '1-0': 'result.white_wins', '0-1': 'result.black_wins', '1/2-1/2': 'result.draw' };

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
export const title = (s) => (myTurn(s) ? t('title.your_move', { size: s.size }) : t('title.game', { size: s.size }));

/**
 * moveHint is what the viewer's move must be: an entry (of the shadow
 * piece, RULES 4.2), a capture of so many men (RULES 5), or any move.
 */
export function moveHint(s) {
  const legal = (s.legal || []).map(parseMove).filter(Boolean);
  if (legal.length && legal.every((m) => m.kind === 'entry')) {
    return s.shadow > 1 ? t('status.enter_shadow', { n: s.shadow }) : t('status.enter');
  }
  if (legal.length && legal[0].kind === 'capture') {
    return t('status.must_capture', { n: legal[0].squares.length - 1 });
  }
  return t('status.your_move');
}

/**
 * statusLine is the status line {text, cls} of a state (cls the element's
 * classes). While an earlier position is shown (viewing), it says that the
 * status is the live game's, not the board's. invite is the invitation the
 * page's link carries, if any.
 */
export function statusLine(s, viewing, invite = '') {
  if (s.over) return { text: aborted(s) ? t('status.aborted') : t('status.over'), cls: 'status over' };
  let text;
  let cls = 'status';
  if (s.thinking) {
    text = t('status.thinking');
    cls += ' thinking';
  } else if (myTurn(s)) {
    text = moveHint(s);
    cls += ' mine';
  } else if (s.you) {
    const opp = other(s.you);
    const op = (s.players || {})[opp] || {};
    const name = nameText(op.name, op.guest) || colourName(opp);
    if (!op.joined && !op.engine && s.mode === 'friend') text = t('status.wait_friend');
    else text = opp === 'white' ? t('status.waiting_white', { name }) : t('status.waiting_black', { name });
  } else if (s.invited && invite) {
    text = t('status.invited_you');
  } else if (s.invited) {
    text = t('status.invited_wait');
  } else {
    text = s.turn === 'white' ? t('status.to_move_white') : t('status.to_move_black');
    if (s.mode !== 'analysis') text += ` ${t('status.watching')}`;
  }
  if (viewing) text = t('status.live', { status: uncapital(text) });
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
    return { head: t('result.aborted'), score: '', reason: t('result.aborted_reason'), mine: '' };
  }
  let mine = '';
  if (s.you && s.result !== '1/2-1/2') {
    const winner = s.result === '1-0' ? 'white' : 'black';
    mine = s.you === winner ? t('result.you_won') : t('result.you_lost');
  }
  return { head: heads[s.result] ? t(heads[s.result]) : s.result, score: s.result, reason: reasonText(s.reason), mine };
}

/** playerName is the name shown for colour's seat, a guest's marked. */
export function playerName(s, colour) {
  const p = (s.players && s.players[colour]) || {};
  if (!p.joined && !p.engine && s.mode === 'friend') return t('player.waiting');
  return nameText(p.name, p.guest) || colourName(colour);
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
export const analysisNote = (s) => (s.analysis ? '' : t('analysis.closed_note'));

/**
 * idleNote tells the player of an engine game that goes on when the site
 * ends it for want of his moves (the state's idle, in milliseconds):
 * aborted while both sides have not moved, lost as abandoned once he
 * leaves his turn too long (not in a game on a clock, which the flag
 * ends). It tells the creator of a friend game waiting for its friend when
 * the site aborts it, in hours, or in days from two days on. "" for a
 * watcher and in other games.
 */
export function idleNote(s) {
  if (!s.idle || s.over || !s.you) return '';
  if (s.mode === 'friend') {
    const hours = Math.max(1, Math.round(s.idle.abort_ms / 3600000));
    return hours < 48 ? t('game.invitation_hours_note', { n: hours }) : t('game.invitation_days_note', { n: Math.round(hours / 24) });
  }
  const minutes = (ms) => Math.max(1, Math.round(ms / 60000));
  const parts = [];
  if (s.abortable && s.idle.abort_ms > 0) parts.push(t('game.engine_abort_note', { n: minutes(s.idle.abort_ms) }));
  if (s.idle.abandon_ms > 0) parts.push(t('game.engine_idle_note', { n: minutes(s.idle.abandon_ms) }));
  return parts.join(' ');
}

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
export const inviteTitle = (friendJoined) => (friendJoined ? t('invite.link') : t('invite.send'));

/** offerKeys are the messages of the offers: the viewer's own, and each colour's. */
const offerKeys = {
  draw: { mine: 'offer.you_draw', white: 'offer.draw_white', black: 'offer.draw_black' },
  takeback: { mine: 'offer.you_takeback', white: 'offer.takeback_white', black: 'offer.takeback_black' },
};

/** offerFields are the state's fields of the viewer's offers, by kind. */
const offerFields = { draw: 'drawOffer', takeback: 'takeback' };

/**
 * OfferWatch remembers the viewer's own offers that stand, so that one the
 * opponent declines can be told. It is told of every state the page sees,
 * in any order, including the answers it did not take: on a busy
 * connection the state in which the offer stood may come after its
 * decline, or never (the live stream sends only the newest state). An
 * offer gone in a newer state, with the game going on and the moves
 * unchanged, was declined; a move withdraws it, an accepted take-back
 * takes moves back, and an accepted draw ends the game.
 */
export class OfferWatch {
  constructor() {
    this.open = {};
    this.closed = {};
    this.ended = false;
  }

  /** see takes the state s and returns the offer it shows declined: "draw", "takeback" or null. */
  see(s) {
    if (s && s.over) this.ended = true;
    if (!s || !s.you || this.ended) return null;
    let no = null;
    const moves = s.moves.join(' ');
    for (const [what, field] of Object.entries(offerFields)) {
      const o = this.open[what];
      if (s[field] === s.you) {
        // An older answer does not open again an offer already closed.
        if (s.version > (o ? o.version : this.closed[what] || 0)) this.open[what] = { version: s.version, by: s.you, moves };
      } else if (o && s.version > o.version) {
        delete this.open[what];
        this.closed[what] = s.version;
        if (o.by === s.you && o.moves === moves) no = what;
      }
    }
    return no;
  }
}

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
    const label = t(mine ? offerKeys[what].mine : offerKeys[what][by]);
    offers.push({ what, label, answer: playing && !mine });
  };
  if (!s.over && s.drawOffer) offer('draw', s.drawOffer);
  if (!s.over && s.takeback) offer('takeback', s.takeback);
  return {
    playing,
    abort: playing && Boolean(s.abortable),
    draw: {
      disabled: !oppJoined || s.drawOffer === s.you,
      text: s.drawOffer === s.you ? t('game.draw_offered') : t('game.offer_draw'),
    },
    takeback: {
      disabled: !oppJoined || s.moves.length === 0 || s.takeback === s.you,
      text: s.takeback === s.you ? t('game.takeback_asked') : t('game.takeback'),
    },
    offers,
  };
}
