// Premoves: a move chosen on the opponent's turn, kept until the turn
// comes and then played at once if it is legal, else forgotten. Pure.

import { parseMove } from './notation.js';

/**
 * canPremove says whether the viewer may queue a premove in the state s
 * shown live (view null): he is seated, both seats are taken, the game is
 * not over, and it is the opponent's turn.
 */
export function canPremove(s, view) {
  if (!s || view || s.over || !s.you || s.turn === s.you) return false;
  const players = s.players || {};
  return Boolean(players.white?.joined && players.black?.joined);
}

/**
 * legalPremove is the move of legal that the premove text is, written as
 * the server writes it, or null when none is.
 */
export function legalPremove(text, legal) {
  const p = parseMove(text);
  return (p && (legal || []).find((m) => parseMove(m)?.text === p.text)) || null;
}
