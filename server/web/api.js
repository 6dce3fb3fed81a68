// The HTTP API of `emergo serve` (docs/api.md), as small functions that
// return parsed JSON or throw an ApiError whose message is meant for the
// player, in the page's language.

import { errorText, t } from './i18n.js';
import { capital } from './text.js';

/**
 * ApiError is a refused request: the HTTP status, the server's error code
 * and its parameters, and the message for the player.
 */
export class ApiError extends Error {
  constructor(status, message, code = '', params = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

// Messages for answers that carry no {"error"} of their own (a proxy in the
// way, the network gone), in the player's words.
const fallback = {
  400: 'error.request.invalid',
  403: 'api.forbidden',
  404: 'error.game.not_found',
  409: 'api.conflict',
  413: 'error.request.too_large',
  429: 'error.request.too_many',
  503: 'api.unavailable',
};

/**
 * failureText is what the page says of a refused request: the message of
 * the server's code in the page's language; the server's own text for a
 * code the page does not know; a word for the status when the answer says
 * nothing.
 */
export function failureText(status, data) {
  const code = data && typeof data.code === 'string' ? data.code : '';
  const params = data && data.params && typeof data.params === 'object' ? data.params : {};
  const own = errorText(code, params);
  if (own) return own;
  // The server's own text starts in lower case, as Go errors do.
  if (data && typeof data.error === 'string' && data.error) return capital(data.error);
  return fallback[status] ? t(fallback[status]) : t('api.status', { status });
}

async function request(method, path, body, contentType = 'application/json') {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = contentType;
    init.body = contentType === 'application/json' ? JSON.stringify(body) : body;
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, t('api.unreachable'));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    throw new ApiError(res.status, failureText(res.status, data), (data && data.code) || '', (data && data.params) || {});
  }
  return data;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

/**
 * createGame starts a game. opts: {mode, size, level, color, name, clock,
 * days} with clock {initial, increment} in seconds, or absent; or days per
 * move (a friend game by correspondence) instead of a clock.
 */
export const createGame = (opts) => request('POST', '/api/games', opts);

/** listGames is the list of the most recent games. */
export const listGames = () => request('GET', '/api/games');

/**
 * myGames are the games in which this browser holds a seat, those where it
 * is its turn first (docs/api.md).
 */
export const myGames = () => request('GET', '/api/my-games');

/** getGame is the state of a game as this browser sees it. */
export const getGame = (id) => request('GET', game(id));

/** positionAt is the board after ply moves of a game (0: the start). */
export const positionAt = (id, ply) => request('GET', `${game(id)}/at/${ply}`);

/** join takes the open seat of a game, with the invitation that keeps it ("" for none). */
export const join = (id, name, invite = '') => request('POST', `${game(id)}/join`, { name, invite });

/** move plays a move; ply is the number of moves the client has seen. */
export const move = (id, text, ply) => request('POST', `${game(id)}/move`, { move: text, ply });

/** resign gives up the game for this browser's seat. */
export const resign = (id) => request('POST', `${game(id)}/resign`, {});

/** abort calls the game off, without a result, before both players have moved. */
export const abort = (id) => request('POST', `${game(id)}/abort`, {});

/** draw offers, accepts or declines a draw. */
export const draw = (id, action) => request('POST', `${game(id)}/draw`, { action });

/** takeback requests, accepts or declines a take-back. */
export const takeback = (id, action) => request('POST', `${game(id)}/takeback`, { action });

/** uploadRecord sends the text of a record and returns the new analysis game. */
export const uploadRecord = (text) => request('POST', '/api/records', text, 'text/plain; charset=utf-8');

/** explorer is the opening explorer's answer for a position, a query "size=9&moves=c3,g7". */
export const explorer = (query) => request('GET', `/api/explorer?${query}`);

/** tv is the best game going on of each board size: {channels: [{size, game}]}. */
export const tv = () => request('GET', '/api/tv');

/** analyze asks the engine about a position: {position, moves, depth}. */
export const analyze = (body) => request('POST', '/api/analyze', body);

/**
 * position plays moves from a start by the rules: {position, size,
 * moves}, the position text or the empty board of size; the answer is
 * where they lead, with its legal moves (the analysis board without
 * WebAssembly).
 */
export const position = (body) => request('POST', '/api/position', body);

/** recordURL is where the record of a game is downloaded, kind "pgn" or "json". */
export const recordURL = (id, kind) => `${game(id)}/record.${kind}`;

/** signup creates an account {username, password} and logs it in; the answer is the user {name}. */
export const signup = (body) => request('POST', '/api/account/signup', body);

/** login logs in with {username, password}; the answer is the user {name}. */
export const login = (body) => request('POST', '/api/account/login', body);

/** logout ends this browser's session. */
export const logout = () => request('POST', '/api/account/logout', {});

/** me is the account this browser is logged in as, or null. */
export const me = () => request('GET', '/api/account/me');

/** tokens lists the viewer's API tokens; createToken makes one (its secret shown once); revokeToken ends one. */
export const tokens = () => request('GET', '/api/account/tokens');
export const createToken = (body) => request('POST', '/api/account/tokens', body);
export const revokeToken = (id) => request('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`);

/**
 * startVacation begins a vacation of the viewer's of days whole days from
 * now, endVacation ends it early: each answers {until, daysLeft} (until
 * null once ended).
 */
export const startVacation = (days) => request('POST', '/api/account/vacation', { days });
export const endVacation = () => request('DELETE', '/api/account/vacation');

const user = (name) => `/api/users/${encodeURIComponent(name)}`;

/** profile is a player's profile: {name, created, games, ratings}. */
export const profile = (name) => request('GET', user(name));

/**
 * playerGames is a page of a player's games, {games, next}: query is the
 * filters and the cursor as a query string (gamesQuery in profile.js).
 */
export const playerGames = (name, query) => request('GET', `${user(name)}/games${query ? `?${query}` : ''}`);

/** ratingHistory is a player's rating after each rated game: {history: [{size, speed, points}]}. */
export const ratingHistory = (name) => request('GET', `${user(name)}/rating-history`);

/** playerPGN is where a player's finished games, those query selects, are downloaded as one PGN file. */
export const playerPGN = (name, query) => `${user(name)}/games.pgn${query ? `?${query}` : ''}`;

/**
 * subscribe follows a game's live state. onState gets every state; onStatus
 * gets "open" or "reconnecting"; onChat each chat line, onSpectators the
 * number of spectators ({n}) when it changes. The returned function stops it.
 */
export const subscribe = (id, onState, onStatus, onChat, onSpectators) => {
  const more = {};
  if (onChat) more.chat = onChat;
  if (onSpectators) more.spectators = onSpectators;
  return follow(`${game(id)}/events`, 'state', onState, onStatus, more);
};

/** postChat writes text in a room of game id ("players" or "spectators"); the answer is the line {id, user, room, text, time}. */
export const postChat = (id, text, room) => request('POST', `${game(id)}/chat`, { text, room });

/** block hides the chat and the challenges of the account name from the viewer; unblock shows them again. */
export const block = (name) => request('POST', `${user(name)}/block`, {});
export const unblock = (name) => request('POST', `${user(name)}/unblock`, {});

/**
 * follow follows the Server-Sent Events at path: onData gets the parsed data
 * of every event named name, and each handler of others that of the event
 * it is named for; onStatus gets "open" or "reconnecting".
 * EventSource reconnects by itself after a dropped connection; when it gives
 * up (a refused answer), a new one is opened after a pause that grows up to
 * half a minute. The returned function stops everything.
 */
function follow(path, name, onData, onStatus, others = {}) {
  let es = null;
  let timer = 0;
  let delay = 1000;
  let stopped = false;

  const open = () => {
    es = new EventSource(path);
    es.addEventListener('open', () => {
      delay = 1000;
      onStatus('open');
    });
    es.addEventListener(name, (ev) => {
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return;
      }
      onStatus('open');
      onData(data);
    });
    for (const [other, handle] of Object.entries(others)) {
      es.addEventListener(other, (ev) => {
        try {
          handle(JSON.parse(ev.data));
        } catch {
          // Not JSON: skipped.
        }
      });
    }
    es.addEventListener('error', () => {
      if (stopped) return;
      onStatus('reconnecting');
      if (es.readyState === EventSource.CLOSED) {
        es = null;
        clearTimeout(timer);
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, 30000);
      }
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (es) es.close();
  };
}

/** rematch offers, accepts, declines or withdraws ("cancel") a rematch of a finished game. */
export const rematch = (id, action) => request('POST', `${game(id)}/rematch`, { action });

/** lobby is the lobby as this browser sees it: {me, challenges}. */
export const lobby = () => request('GET', '/api/lobby');

/** followLobby follows the lobby's live list, as subscribe does a game. */
export const followLobby = (onLobby, onStatus) => follow('/api/lobby/events', 'lobby', onLobby, onStatus);

/**
 * postChallenge posts a challenge {size, clock | days, rated, color, to}: to
 * a player by username, or open to all without one.
 */
export const postChallenge = (body) => request('POST', '/api/challenges', body);

/** answerChallenge accepts (the answer is {game}), declines or withdraws ("cancel") a challenge. */
export const answerChallenge = (id, action) => request('POST', `/api/challenges/${encodeURIComponent(id)}/${action}`, {});

const tournament = (id) => `/api/tournaments/${encodeURIComponent(id)}`;

/** tournaments is the list of tournaments: {upcoming, running, finished}, each a list of summaries. */
export const tournaments = () => request('GET', '/api/tournaments');

/** createTournament makes a tournament (docs/api.md, "Tournaments") and answers it. */
export const createTournament = (body) => request('POST', '/api/tournaments', body);

/** getTournament is a tournament with its standings, rounds and the viewer's part ("me"). */
export const getTournament = (id) => request('GET', tournament(id));

/**
 * tournamentAction joins (body {password}, if one is needed), withdraws,
 * or, for its creator, starts, pauses, resumes or cancels tournament id,
 * and answers the tournament.
 */
export const tournamentAction = (id, action, body = {}) => request('POST', `${tournament(id)}/${action}`, body);

/** postTournamentChat writes text in a tournament's chat, and answers the line. */
export const postTournamentChat = (id, text) => request('POST', `${tournament(id)}/chat`, { text });

/** followTournament follows a tournament's live changes, as subscribe does a game's. */
export const followTournament = (id, onTournament, onStatus) => follow(`${tournament(id)}/stream`, 'tournament', onTournament, onStatus);

/** tournamentFile is the address of a tournament's records: "trf" (a Swiss's TRF-16) or "pgn" (its games). */
export const tournamentFile = (id, kind) => `${tournament(id)}/${kind}`;

/** pools are the quick pairing's pools: {pools: [{id, size, clock, days, rated, seeking}], me}. */
export const pools = () => request('GET', '/api/pools');

/**
 * seekPool puts this browser's player in the pool id while it lasts: onState
 * gets {status: "waiting" | "paired" | "refused", window, seeking, game,
 * error}, as subscribe's onState gets a game's state.
 */
export const seekPool = (id, onState, onStatus) => follow(`/api/pools/${encodeURIComponent(id)}/seek`, 'pool', onState, onStatus);

/** setLang makes code this browser's language, and the account's if one is logged in. */
export const setLang = (code) => request('POST', '/api/lang', { lang: code });

/**
 * setPrefs keeps the reader's choices of prefs ({theme, board, sound}, any
 * of them) in this browser, and in the account if one is logged in; it
 * answers all of them as they now stand.
 */
export const setPrefs = (prefs) => request('POST', '/api/prefs', prefs);

/** engines are the engine's levels with their estimated ratings: {levels: [{level, rating}]}. */
export const engines = () => request('GET', '/api/engines');

/** lessons is the course of the /learn page: {lessons: [...]}, its texts keys of the catalogues. */
export const lessons = () => request('GET', '/api/lessons');

/** positionWhy judges any move in any position: {legal, move, after} or {legal: false, move, code, params, error}. */
export const positionWhy = (position, move) => request('POST', '/api/position/why', { position, move });

/** nextPuzzle is a puzzle near the solver's rating (docs/api.md, "Puzzles"); query as solve.js's nextQuery writes it. */
export const nextPuzzle = (query) => request('GET', `/api/puzzles/next${query}`);

/** puzzle is the puzzle of id. */
export const puzzle = (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}`);

/** puzzleAttempt sends the solver's moves at puzzle id, his alone, and whether he gave up: {solved, rated, diff, you, rating, wrong}. */
export const puzzleAttempt = (id, moves, giveUp = false) =>
  request('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, { moves, giveUp });

/**
 * notifications are the viewer's notifications, the latest first:
 * {notifications: [{id, type, game, from, created, read}], unread}.
 */
export const notifications = () => request('GET', '/api/notifications');

/** readNotifications marks some read ({ids}) or all ({all: true}); it answers as notifications does. */
export const readNotifications = (body) => request('POST', '/api/notifications/read', body);

/** pushKey is the server's VAPID public key, {key}, that a browser subscribes to push with. */
export const pushKey = () => request('GET', '/api/push/key');

/** pushSubscribe sends a browser's PushSubscription (its toJSON) to the server. */
export const pushSubscribe = (sub) => request('POST', '/api/push/subscribe', sub);

/** pushUnsubscribe tells the server to push no more to the endpoint. */
export const pushUnsubscribe = (endpoint) => request('POST', '/api/push/unsubscribe', { endpoint });

/** followUser and unfollowUser start and end the viewer's follow of a player: {following}. */
export const followUser = (name) => request('POST', `${user(name)}/follow`, {});
export const unfollowUser = (name) => request('POST', `${user(name)}/unfollow`, {});

/** followersOf and followingOf list a player's followers, {followers: [{name, since}]}, and whom he follows, {following}. */
export const followersOf = (name) => request('GET', `${user(name)}/followers`);
export const followingOf = (name) => request('GET', `${user(name)}/following`);

/** followedGames are the games going on of the players the viewer follows: {games}. */
export const followedGames = () => request('GET', '/api/following/games');
