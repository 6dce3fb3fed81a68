// Pure: what a game's page says of ratings and rematches, from the state
// alone (docs/api.md): the rating beside a player's name, the changes a
// rated game made, and where a rematch stands.

import { displayName } from './dom.js';
import { t } from './i18n.js';
import { colourName, other } from './text.js';

/** diffText writes a rating change as the result box shows it: "+12", "-12", "±0"; "" for none. */
export function diffText(d) {
  if (d === null || d === undefined) return '';
  if (d > 0) return `+${d}`;
  if (d < 0) return `-${-d}`;
  return '±0';
}

/**
 * ratingChanges are the lines of the result box of a rated game that has
 * changed its players' ratings: [{colour, name, rating, diff}], White
 * first; [] for any other game.
 */
export function ratingChanges(s) {
  if (!s.over || !s.rated) return [];
  const players = s.players || {};
  return ['white', 'black']
    .filter((c) => players[c] && players[c].ratingDiff !== undefined && players[c].ratingDiff !== null)
    .map((c) => ({ colour: c, name: displayName(players[c].name) || colourName(c), rating: players[c].rating || '', diff: diffText(players[c].ratingDiff) }));
}

/**
 * rematchView is the rematch box of a finished game between people, for a
 * player of it: {label, offer (the button to offer one), answer (accept
 * and decline buttons), cancel (to withdraw one's own), game (the new
 * game, once accepted)}; null for anyone else and any other game.
 */
export function rematchView(s) {
  const players = s.players || {};
  if (!s.over || !s.you || s.mode !== 'friend' || !players.white || !players.black ||
      players.white.engine || players.black.engine || !players.white.joined || !players.black.joined) {
    return null;
  }
  const opp = displayName(players[other(s.you)].name) || colourName(other(s.you));
  const r = s.rematch;
  const mine = r && r.by === s.you;
  const view = { label: '', offer: false, answer: false, cancel: false, game: null };
  if (r && r.status === 'accepted' && r.game) return { ...view, label: t('rematch.on'), game: r.game };
  if (r && r.status === 'pending') {
    return mine
      ? { ...view, label: t('rematch.you_offered', { name: opp }), cancel: true }
      : { ...view, label: t('rematch.offered', { name: opp }), answer: true };
  }
  if (r && r.status === 'declined') view.label = mine ? t('rematch.declined', { name: opp }) : t('rematch.you_declined');
  return { ...view, offer: true };
}

/**
 * playAgain is the request (api.createGame) for a new game against the
 * engine with the settings of the finished game s, for its player: the
 * same board, level, colour and clock; null for any other game and
 * anyone else.
 */
export function playAgain(s) {
  if (!s.over || !s.you || s.mode !== 'engine') return null;
  const body = { mode: 'engine', size: s.size, level: s.level, color: s.you };
  if (s.clock && s.clock.initial_ms > 0) {
    body.clock = { initial: Math.round(s.clock.initial_ms / 1000), increment: Math.round(s.clock.increment_ms / 1000) };
  }
  return body;
}

/**
 * rematchGame is the game a page goes to when it sees the rematch it was
 * showing pending (prev) accepted (next); null otherwise, so that opening
 * an old game does not jump to its rematch.
 */
export function rematchGame(prev, next) {
  const was = prev && prev.rematch;
  const now = next && next.rematch;
  if (!was || was.status !== 'pending' || !now || now.status !== 'accepted' || !now.game) return null;
  return now.game;
}

/** ratingText writes a rating with its deviation: "1623 ±85", provisional "1500? ±350". */
export const ratingText = (r) => `${r.rating}${r.provisional ? '?' : ''} ±${r.deviation}`;
