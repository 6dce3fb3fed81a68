// Pure: what the tournament pages say of the API's tournaments
// (docs/api.md, "Tournaments"): the list's rows, the head of a
// tournament (its system, time, status and countdown), the standings and
// the pairings as rows, the viewer's next game and when to open it, what
// the live region says of a change, what the viewer may do, and the body
// of the create form. No DOM: node tests it.

import { formatClock } from './clock.js';
import { timeText } from './deadline.js';
import { errorText, formatNumber, locale, t } from './i18n.js';

/** systemKeys name the three systems. */
const systemKeys = { arena: 'tournament.system_arena', swiss: 'tournament.system_swiss', roundrobin: 'tournament.system_roundrobin' };

/** statusKeys name where a tournament stands. */
const statusKeys = {
  created: 'tournament.status_created',
  running: 'tournament.status_running',
  paused: 'tournament.status_paused',
  finished: 'tournament.status_finished',
  cancelled: 'tournament.status_cancelled',
};

/** systemName is a system's name: "Arena", "Swiss", "Round robin". */
export const systemName = (system) => (systemKeys[system] ? t(systemKeys[system]) : String(system || ''));

/** statusText is a status's word: "Starting soon", "Running", … */
export const statusText = (status) => (statusKeys[status] ? t(statusKeys[status]) : String(status || ''));

/**
 * roundCount is a Swiss's number of rounds: a summary's "rounds", where
 * the whole tournament has its rounds played as a list instead.
 */
const roundCount = (tour) => (typeof tour.rounds === 'number' ? tour.rounds : Number(tour.roundCount) || 0);

/**
 * formatText says a tournament's system with its length: "Arena, 30
 * minutes", "Swiss, 5 rounds", "Double round robin".
 */
export function formatText(tour) {
  switch (tour.system) {
    case 'arena':
      return tour.minutes ? t('tournament.arena_minutes', { n: tour.minutes }) : systemName('arena');
    case 'swiss':
      return roundCount(tour) ? t('tournament.swiss_rounds', { n: roundCount(tour) }) : systemName('swiss');
    case 'roundrobin':
      return tour.double ? t('tournament.double_roundrobin') : systemName('roundrobin');
    default:
      return systemName(tour.system);
  }
}

/**
 * whenText writes a moment (a date text of the API) as the language
 * writes a date and a time of day, in the reader's time zone: "05/12/2026,
 * 15:00". Elefen has no data of its own in browsers and is written as
 * French, its dates in figures (i18n.js).
 */
export function whenText(when) {
  const d = new Date(when);
  if (!when || Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(locale(), {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).format(d);
}

/**
 * summaryRow is what the list says of a tournament's summary s: {href,
 * name, system, board, time, rated, players, start, status}.
 */
export function summaryRow(s) {
  return {
    href: `/t/${encodeURIComponent(s.id)}`,
    name: s.name,
    system: formatText(s),
    board: `${s.size}×${s.size}`,
    time: timeText(s),
    rated: t(s.rated ? 'lobby.rated' : 'lobby.casual'),
    players: formatNumber(s.players || 0),
    start: whenText(s.start),
    status: statusText(s.status),
  };
}

/** SECOND is a second in ms. */
const SECOND = 1000;

/**
 * headLine is what the head of a tournament's page says of its time, now
 * being the reader's clock in ms: {when, countdown}. when: "Starts 05/12/2026,
 * 15:00", "Ends …", "Ended"; countdown, for an arena (or any tournament
 * before its start, while the start is under a day away), the time left
 * as a clock shows it ("12:34"), else "".
 */
export function headLine(tour, now) {
  const start = Date.parse(tour.start);
  const ends = Date.parse(tour.ends);
  switch (tour.status) {
    case 'created': {
      if (Number.isNaN(start)) return { when: t('tournament.starts_by_creator'), countdown: '' };
      const left = start - now;
      return { when: t('tournament.starts', { when: whenText(tour.start) }), countdown: left > 0 && left < 86400 * SECOND ? formatClock(left) : '' };
    }
    case 'running':
    case 'paused':
      if (tour.system === 'arena' && !Number.isNaN(ends)) {
        return { when: t('tournament.ends', { when: whenText(tour.ends) }), countdown: formatClock(ends - now) };
      }
      return { when: Number.isNaN(start) ? '' : t('tournament.started', { when: whenText(tour.start) }), countdown: '' };
    default:
      return { when: Number.isNaN(ends) ? '' : t('tournament.ended', { when: whenText(tour.ends) }), countdown: '' };
  }
}

/** tiebreakKeys name the tie-break columns, in the standings' order. */
const tiebreakKeys = {
  buchholz: 'tournament.tb_buchholz',
  buchholzCut1: 'tournament.tb_buchholz_cut1',
  sonnebornBerger: 'tournament.tb_sonneborn_berger',
  wins: 'tournament.tb_wins',
};

/** tiebreakTitles say each tie-break in full, for the column's title. */
const tiebreakTitles = {
  buchholz: 'tournament.tb_buchholz_title',
  buchholzCut1: 'tournament.tb_buchholz_cut1_title',
  sonnebornBerger: 'tournament.tb_sonneborn_berger_title',
  wins: 'tournament.tb_wins_title',
};

/**
 * tiebreakColumns are the tie-breaks a system's standings show, each
 * {key, label, title}: Buchholz, Buchholz cut 1, Sonneborn-Berger and wins
 * for a Swiss; Sonneborn-Berger and wins for a round robin (where every
 * Buchholz is the same); none for an arena.
 */
export function tiebreakColumns(system) {
  const keys = { swiss: ['buchholz', 'buchholzCut1', 'sonnebornBerger', 'wins'], roundrobin: ['sonnebornBerger', 'wins'] }[system] || [];
  return keys.map((key) => ({ key, label: t(tiebreakKeys[key]), title: t(tiebreakTitles[key]) }));
}

/** points writes a score: whole arena points, or halves ("2.5", "2,5"). */
const points = (n) => formatNumber(Number(n) || 0, { maximumFractionDigits: 2 });

/**
 * standingsRows are the standings of tour as the table shows them, each
 * {rank, name, bot, rating, score, games, tiebreaks (texts, in the order
 * of tiebreakColumns), streak, withdrawn, sheet, me}; viewer is the
 * reader's name (or "").
 */
export function standingsRows(tour, viewer = '') {
  const cols = tiebreakColumns(tour.system);
  return (tour.standings || []).map((s) => ({
    rank: s.rank,
    name: s.name,
    bot: Boolean(s.bot),
    rating: s.rating ? String(s.rating) : '',
    score: points(s.score),
    games: formatNumber(s.games || 0),
    tiebreaks: cols.map((c) => points(s.tiebreaks ? s.tiebreaks[c.key] : 0)),
    streak: tour.system === 'arena' && Boolean(s.streak),
    withdrawn: Boolean(s.withdrawn),
    sheet: (s.sheet || []).join(' '),
    me: Boolean(viewer) && s.name === viewer,
  }));
}

/** resultKeys say a pairing's result in words, for screen readers and titles. */
const resultKeys = {
  '1-0': 'tournament.result_white',
  '0-1': 'tournament.result_black',
  '1/2-1/2': 'tournament.result_draw',
  '*': 'tournament.result_playing',
  '+-': 'tournament.result_white_forfeit',
  '-+': 'tournament.result_black_forfeit',
};

/** resultMarks are the results as the tables write them. */
const resultMarks = { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½', '*': '…', '+-': '+ –', '-+': '– +' };

/**
 * pairingRows are a round's pairings as the table shows them, each {board,
 * white, black, game (the game's page, or ""), result (the mark), words
 * (the result in words), bye, playing, me}; viewer is the reader's name.
 */
export function pairingRows(round, viewer = '') {
  return (round.pairings || []).map((p) => pairingRow({ ...p, bye: Boolean(p.bye) || p.result === 'bye' }, viewer));
}

/** pairingRow is pairingRows' row of pairing p. */
function pairingRow(p, viewer) {
  return {
    board: p.board,
    white: p.white || '',
    black: p.bye ? '' : p.black || '',
    game: p.game ? `/g/${encodeURIComponent(p.game)}` : '',
    result: p.bye ? t('tournament.bye') : resultMarks[p.result] || p.result || '',
    words: p.bye ? t('tournament.bye_title') : resultKeys[p.result] ? t(resultKeys[p.result]) : '',
    bye: Boolean(p.bye),
    playing: !p.bye && p.result === '*',
    me: Boolean(viewer) && (p.white === viewer || p.black === viewer),
  };
}

/** roundTitle is a round's heading: "Round 3", or an arena's "Games". */
export const roundTitle = (tour, round) => (tour.system === 'arena' ? t('tournament.arena_games') : t('tournament.round', { n: round.number }));

/**
 * nextGame is the viewer's line about his next game, {game, text}: his
 * game in progress (game its page), else what he waits for ("Waiting for
 * an opponent", "Waiting for round 3"); null when he plays no part now.
 */
export function nextGame(tour) {
  const me = tour.me;
  if (!me || !me.joined || me.withdrawn) return null;
  if (me.game) return { game: `/g/${encodeURIComponent(me.game)}`, text: t('tournament.your_game') };
  if (tour.status === 'created') return { game: '', text: t('tournament.wait_start') };
  if (tour.status === 'paused') return { game: '', text: t('tournament.wait_paused') };
  if (tour.status !== 'running') return null;
  if (tour.system === 'arena') return { game: '', text: t('tournament.wait_opponent') };
  return { game: '', text: t('tournament.wait_round', { n: (tour.round || 0) + 1 }) };
}

/**
 * gameToOpen is the viewer's game to go to when a tournament's view
 * changes from before to after: a game of his that appeared while the
 * page was open (as the lobby opens a challenge's game once accepted). A
 * game already there when the page opened is linked, not opened; null if
 * none.
 */
export function gameToOpen(before, after) {
  const game = after && after.me ? after.me.game : null;
  if (!before || !game) return null;
  return before.me && before.me.game === game ? null : game;
}

/** statusNews are what the live region says when a tournament comes to a status. */
const statusNews = {
  running: 'tournament.news_started',
  paused: 'tournament.news_paused',
  finished: 'tournament.news_finished',
  cancelled: 'tournament.news_cancelled',
};

/**
 * news is what the live region says of the change from before to after,
 * once: the tournament started, paused, finished or cancelled; round N
 * paired; the viewer's game starting. "" when nothing is worth saying
 * (and on the first view).
 */
export function news(before, after) {
  if (!before || !after) return '';
  const out = [];
  if (before.status !== after.status && statusNews[after.status]) {
    out.push(t(after.status === 'running' && before.status === 'paused' ? 'tournament.news_resumed' : statusNews[after.status]));
  }
  if (after.system !== 'arena' && (after.round || 0) > (before.round || 0)) out.push(t('tournament.news_paired', { n: after.round }));
  if (gameToOpen(before, after)) out.push(t('tournament.news_your_game'));
  return out.join(' ');
}

/** creatorActions are the creator's actions by status. */
const creatorActions = {
  created: ['start', 'cancel'],
  running: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
};

/**
 * actions are what viewer (a name, or "" for a guest) may do in tour:
 * {join, withdraw, password (a password to give when joining), why (why he
 * may not join, in words, or ""), creator (the creator's actions:
 * "start", "pause", "resume", "cancel")}.
 */
export function actions(tour, viewer = '') {
  const me = tour.me;
  const open = tour.status === 'created' || tour.status === 'running' || tour.status === 'paused';
  const out = { join: false, withdraw: false, password: false, why: '', creator: [] };
  if (viewer && viewer === tour.creator) out.creator = creatorActions[tour.status] || [];
  if (!open) return out;
  if (!me) {
    out.why = t('tournament.log_in_to_join');
    return out;
  }
  const playing = me.joined && !me.withdrawn;
  out.withdraw = playing;
  if (playing) return out;
  if (me.canJoin) {
    out.join = true;
    out.password = Boolean(tour.conditions && tour.conditions.password);
  } else {
    out.why = errorText(me.why || '') || t('tournament.cannot_join');
  }
  return out;
}

/**
 * conditionTexts are a tournament's entry conditions in words: the rating
 * range, the rated games needed, the invitation, the password.
 */
export function conditionTexts(tour) {
  const c = tour.conditions || {};
  const out = [];
  if (c.minRating && c.maxRating) out.push(t('tournament.cond_rating_range', { min: c.minRating, max: c.maxRating }));
  else if (c.minRating) out.push(t('tournament.cond_rating_min', { min: c.minRating }));
  else if (c.maxRating) out.push(t('tournament.cond_rating_max', { max: c.maxRating }));
  if (c.minRatedGames) out.push(t('tournament.cond_rated_games', { n: c.minRatedGames }));
  if (c.invited && c.invited.length) out.push(t('tournament.cond_invited', { names: c.invited.join(', ') }));
  if (c.password) out.push(t('tournament.cond_password'));
  return out;
}

/** MAX_ROUNDS and MAX_ARENA_MINUTES are the API's bounds on a Swiss's rounds and an arena's length. */
export const MAX_ROUNDS = 11;
export const MAX_ARENA_MINUTES = 1440;

/** names splits a list of usernames typed with commas or spaces. */
const names = (text) => String(text || '').split(/[\s,;]+/).filter(Boolean);

/** whole reads a form's number: an integer of at least min, or NaN; "" is 0. */
function whole(text, min = 0) {
  const s = String(text ?? '').trim();
  if (s === '') return 0;
  const n = Number(s);
  return Number.isInteger(n) && n >= min ? n : NaN;
}

/**
 * createRequest is the body of POST /api/tournaments from the create
 * form's values f (strings; rated and double booleans): {body}, or
 * {error} saying what to fix first. f.start is a datetime-local value
 * (the reader's time), "" to start when the creator says; speed is "live"
 * (minutes and increment) or "correspondence" (days per move).
 */
export function createRequest(f) {
  const name = String(f.name || '').trim();
  if (!name) return { error: t('tournament.name_missing') };
  const system = f.system in systemKeys ? f.system : 'arena';
  const body = { name, system, size: Number(f.size) === 7 ? 7 : 9, rated: Boolean(f.rated) };
  if (f.speed === 'correspondence') {
    if (system === 'arena') return { error: t('tournament.arena_live') };
    body.days = Number(f.days);
    if (!(body.days > 0)) return { error: t('lobby.choose_days') };
  } else {
    const minutes = Number(f.minutes);
    const inc = Number(f.increment);
    if (!(minutes > 0) || !(inc >= 0)) return { error: t('form.clock_invalid') };
    body.clock = { initial: Math.round(minutes * 60), increment: Math.round(inc) };
  }
  if (system === 'arena') {
    body.minutes = whole(f.arenaMinutes, 1);
    if (!(body.minutes > 0 && body.minutes <= MAX_ARENA_MINUTES)) return { error: t('tournament.minutes_invalid', { max: MAX_ARENA_MINUTES }) };
  } else if (system === 'swiss') {
    body.rounds = whole(f.rounds, 1);
    if (!(body.rounds > 0 && body.rounds <= MAX_ROUNDS)) return { error: t('tournament.rounds_invalid', { max: MAX_ROUNDS }) };
  } else {
    body.double = Boolean(f.double);
  }
  if (f.start) {
    const start = new Date(f.start);
    if (Number.isNaN(start.getTime())) return { error: t('tournament.start_invalid') };
    body.start = start.toISOString();
  }
  const minRating = whole(f.minRating);
  const maxRating = whole(f.maxRating);
  const minRatedGames = whole(f.minRatedGames);
  if ([minRating, maxRating, minRatedGames].some(Number.isNaN)) return { error: t('tournament.conditions_invalid') };
  if (minRating && maxRating && minRating > maxRating) return { error: t('tournament.rating_range_invalid') };
  const conditions = {};
  if (minRating) conditions.minRating = minRating;
  if (maxRating) conditions.maxRating = maxRating;
  if (minRatedGames) conditions.minRatedGames = minRatedGames;
  const invited = names(f.invited);
  if (invited.length) conditions.invited = invited;
  if (f.password) conditions.password = String(f.password);
  if (Object.keys(conditions).length) body.conditions = conditions;
  return { body };
}

/**
 * listSections are the list's three parts in order, each {key (upcoming,
 * running, finished), title, rows}.
 */
export function listSections(list) {
  return [
    ['upcoming', 'tournament.upcoming'],
    ['running', 'tournament.running'],
    ['finished', 'tournament.finished'],
  ].map(([key, title]) => ({ key, title: t(title), rows: (list[key] || []).map(summaryRow) }));
}
