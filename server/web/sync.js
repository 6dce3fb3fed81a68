// The state of one game as this browser knows it. States come from the
// first request, from the live event stream and from the answers to the
// page's own requests, in any order; the version (raised by the server
// with every change) puts them in order.

import * as api from './api.js';

/**
 * accepts reports whether next replaces prev. A state older than the
 * current one is ignored. One of the same version is taken only when it
 * sees the viewer in another seat (joining changes who the browser is
 * without changing the game), or a newer rematch (offered, answered
 * after the game, which is not changed by it).
 */
export function accepts(prev, next) {
  if (!next) return false;
  if (!prev) return true;
  return next.version > prev.version ||
    (next.version === prev.version && (next.you !== prev.you || rematchOrder(next) > rematchOrder(prev)));
}

/**
 * rematchOrder orders the rematches of one game: by the time of their
 * offer or answer, and within a millisecond an answer after the offer.
 */
function rematchOrder(s) {
  if (!s.rematch) return 0;
  return s.rematch.at * 2 + (s.rematch.status === 'pending' ? 0 : 1);
}

/**
 * playedMove is the move that leads from prev to next when next is prev
 * and one more move, or null (no move, a take-back, several moves).
 */
export function playedMove(prev, next) {
  if (!prev || next.moves.length !== prev.moves.length + 1) return null;
  if (!prev.moves.every((m, i) => next.moves[i] === m)) return null;
  return next.moves[next.moves.length - 1];
}

/**
 * GameSync keeps the state of game id. onState(state, prev) hears of every
 * state taken; onConn hears "open" or "reconnecting" from the live
 * connection, onChat each chat line it brings (chat.js), onSpectators the
 * number of the game's spectators each time it changes. source is the API
 * (replaced in tests).
 */
export class GameSync {
  constructor(id, { onState, onConn, onChat, onSpectators }, source = api) {
    this.id = id;
    this.onState = onState;
    this.onConn = onConn;
    this.onChat = onChat;
    this.onSpectators = onSpectators;
    this.source = source;
    this.state = null;
    this.unfollow = null;
  }

  /** apply takes s if it is newer (accepts), and reports whether it did. */
  apply(s) {
    const prev = this.state;
    if (!accepts(prev, s)) return false;
    this.state = s;
    this.onState(s, prev);
    return true;
  }

  /**
   * follow opens the live connection. The server answers it as the viewer
   * the browser was when it opened, so it is opened again after joining.
   */
  follow() {
    if (this.unfollow) this.unfollow();
    this.unfollow = this.source.subscribe(this.id, (s) => this.apply(s), this.onConn, this.onChat, this.onSpectators);
  }

  /** load asks for the state; a refusal is thrown. */
  async load() {
    this.apply(await this.source.getGame(this.id));
  }

  /** refresh asks for the state again after a refused request. */
  async refresh() {
    try {
      await this.load();
    } catch {
      // The live connection brings the state as soon as it can.
    }
  }
}
