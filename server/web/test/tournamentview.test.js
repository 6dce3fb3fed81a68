import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  actions, conditionTexts, createRequest, formatText, gameToOpen, headLine, listSections, news, nextGame,
  pairingRows, roundTitle, standingsRows, statusText, summaryRow, tiebreakColumns, whenText,
} from '../tournamentview.js';
import { inLanguage } from './lang.js';

inLanguage('en');

// swiss is a running Swiss of 3 rounds at its second round, seen by Ann,
// who plays in it.
const swiss = (over = {}) => ({
  id: 'sw1', name: 'Autumn Swiss', system: 'swiss', size: 9, clock: { initial: 300, increment: 3 }, days: 0,
  rated: true, status: 'running', start: '2026-12-05T15:00:00Z', players: 5, round: 2, rounds: 3, creator: 'Ann',
  minutes: 0, ends: null, conditions: {}, version: 7,
  standings: [
    { rank: 1, name: 'Ann', bot: false, rating: 1612, score: 2, games: 2, tiebreaks: { buchholz: 2.5, buchholzCut1: 2, sonnebornBerger: 1.5, wins: 2 }, streak: false, withdrawn: false, sheet: ['W', 'W'] },
    { rank: 2, name: 'robot', bot: true, rating: 1500, score: 1.5, games: 2, tiebreaks: { buchholz: 3, buchholzCut1: 2, sonnebornBerger: 1.25, wins: 1 }, streak: false, withdrawn: false, sheet: ['W', 'D'] },
    { rank: 3, name: 'Eve', bot: false, rating: 1480, score: 1, games: 1, tiebreaks: { buchholz: 1, buchholzCut1: 0, sonnebornBerger: 0, wins: 0 }, streak: false, withdrawn: true, sheet: ['B', '-'] },
  ],
  rounds: [
    { number: 1, pairings: [{ board: 1, white: 'Ann', black: 'robot', game: 'g1', result: '1-0', bye: false }, { board: 2, white: 'Eve', black: '', game: null, result: '', bye: true }] },
    { number: 2, pairings: [{ board: 1, white: 'robot', black: 'Ann', game: 'g2', result: '*', bye: false }, { board: 2, white: 'Cy', black: 'Eve', game: null, result: '+-', bye: false }] },
  ],
  me: { joined: true, withdrawn: false, game: 'g2', canJoin: false, why: null },
  ...over,
});

test('summaryRow and listSections', () => {
  const s = { ...swiss(), rounds: 3 }; // a summary counts the rounds
  assert.deepEqual(summaryRow(s), {
    href: '/t/sw1', name: 'Autumn Swiss', system: 'Swiss, 3 rounds', board: '9×9', time: '5+3', rated: 'Rated',
    players: '5', start: whenText(s.start), status: 'Running',
  });
  const arena = { ...s, id: 'a b', system: 'arena', minutes: 1, size: 7, rated: false, clock: null, days: 2, start: null, players: 0 };
  const row = summaryRow(arena);
  assert.equal(row.href, '/t/a%20b');
  assert.equal(row.system, 'Arena, 1 minute');
  assert.equal(row.time, '2 days per move');
  assert.equal(row.rated, 'Casual');
  assert.equal(row.start, '');
  const parts = listSections({ upcoming: [arena], running: [], finished: [s] });
  assert.deepEqual(parts.map((p) => [p.key, p.title, p.rows.length]), [['upcoming', 'Upcoming', 1], ['running', 'Running', 0], ['finished', 'Finished', 1]]);
});

test('formatText and statusText', async (t) => {
  const cases = [
    { name: 'arena', tour: { system: 'arena', minutes: 45 }, want: 'Arena, 45 minutes' },
    { name: 'swiss', tour: { system: 'swiss', rounds: 1 }, want: 'Swiss, 1 round' },
    { name: 'round robin', tour: { system: 'roundrobin', double: false }, want: 'Round robin' },
    { name: 'double round robin', tour: { system: 'roundrobin', double: true }, want: 'Double round robin' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(formatText(c.tour), c.want));
  assert.deepEqual(['created', 'running', 'paused', 'finished', 'cancelled'].map(statusText),
    ['Not started', 'Running', 'Paused', 'Finished', 'Cancelled']);
});

test('whenText writes a date and a time of day in the language', () => {
  const when = '2026-12-05T15:07:00Z';
  const d = new Date(when);
  const pad = (n) => String(n).padStart(2, '0');
  const text = whenText(when);
  assert.match(text, new RegExp(`${pad(d.getMonth() + 1)}/${pad(d.getDate())}/2026`));
  assert.match(text, new RegExp(`${pad(d.getHours())}:07`));
  assert.equal(whenText(null), '');
  assert.equal(whenText('not a date'), '');
});

test('headLine', async (t) => {
  const start = Date.parse('2026-12-05T15:00:00Z');
  const cases = [
    {
      name: 'an arena running counts down to its end',
      tour: { system: 'arena', status: 'running', start: '2026-12-05T15:00:00Z', ends: '2026-12-05T15:30:00Z' },
      now: start + 17 * 60000 + 30000, want: { when: `Ends ${whenText('2026-12-05T15:30:00Z')}`, countdown: '12:30' },
    },
    {
      name: 'an arena past its end shows none left',
      tour: { system: 'arena', status: 'running', start: '2026-12-05T15:00:00Z', ends: '2026-12-05T15:30:00Z' },
      now: start + 31 * 60000, want: { when: `Ends ${whenText('2026-12-05T15:30:00Z')}`, countdown: '0:00.0' },
    },
    {
      name: 'before the start, within a day',
      tour: { system: 'swiss', status: 'created', start: '2026-12-05T15:00:00Z' },
      now: start - 90000, want: { when: `Starts ${whenText('2026-12-05T15:00:00Z')}`, countdown: '1:30' },
    },
    {
      name: 'before the start, days away',
      tour: { system: 'swiss', status: 'created', start: '2026-12-05T15:00:00Z' },
      now: start - 3 * 86400000, want: { when: `Starts ${whenText('2026-12-05T15:00:00Z')}`, countdown: '' },
    },
    {
      name: 'started by its creator',
      tour: { system: 'roundrobin', status: 'created', start: null },
      now: start, want: { when: 'Starts when its creator starts it', countdown: '' },
    },
    {
      name: 'a Swiss running',
      tour: { system: 'swiss', status: 'running', start: '2026-12-05T15:00:00Z', ends: null },
      now: start + 60000, want: { when: `Started ${whenText('2026-12-05T15:00:00Z')}`, countdown: '' },
    },
    {
      name: 'finished',
      tour: { system: 'swiss', status: 'finished', start: '2026-12-05T15:00:00Z', ends: '2026-12-05T17:00:00Z' },
      now: start, want: { when: `Ended ${whenText('2026-12-05T17:00:00Z')}`, countdown: '' },
    },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(headLine(c.tour, c.now), c.want));
});

test('tiebreakColumns by system', () => {
  assert.deepEqual(tiebreakColumns('swiss').map((c) => c.key), ['buchholz', 'buchholzCut1', 'sonnebornBerger', 'wins']);
  assert.deepEqual(tiebreakColumns('roundrobin').map((c) => [c.key, c.label]), [['sonnebornBerger', 'SB'], ['wins', 'W']]);
  assert.deepEqual(tiebreakColumns('arena'), []);
  assert.match(tiebreakColumns('swiss')[1].title, /^Buchholz cut 1/);
});

test('standingsRows of a Swiss', () => {
  const rows = standingsRows(swiss(), 'Ann');
  assert.deepEqual(rows[0], {
    rank: 1, name: 'Ann', bot: false, rating: '1612', score: '2', games: '2', tiebreaks: ['2.5', '2', '1.5', '2'],
    streak: false, withdrawn: false, sheet: 'W W', me: true,
  });
  assert.deepEqual([rows[1].bot, rows[1].score, rows[1].tiebreaks, rows[1].me], [true, '1.5', ['3', '2', '1.25', '1'], false]);
  assert.equal(rows[2].withdrawn, true);
  assert.equal(standingsRows(swiss(), '')[0].me, false);
});

test('standingsRows of an arena mark the streak, in points', () => {
  const arena = {
    system: 'arena',
    standings: [
      { rank: 1, name: 'Ann', rating: 0, score: 10, games: 4, streak: true, sheet: ['2', '2', '4', '2'] },
      { rank: 2, name: 'Bob', rating: 1500, score: 3, games: 3, streak: false, sheet: ['0', '2', '1'] },
    ],
  };
  const rows = standingsRows(arena);
  assert.deepEqual(rows.map((r) => [r.score, r.streak, r.sheet, r.tiebreaks, r.rating]),
    [['10', true, '2 2 4 2', [], ''], ['3', false, '0 2 1', [], '1500']]);
  // A Swiss has no streak, whatever the server says.
  const s = swiss();
  s.standings[0].streak = true;
  assert.equal(standingsRows(s)[0].streak, false);
});

test('standingsRows in Portuguese write halves with a comma', () => {
  inLanguage('pt');
  try {
    assert.deepEqual(standingsRows(swiss())[1].tiebreaks, ['3', '2', '1,25', '1']);
  } finally {
    inLanguage('en');
  }
});

test('pairingRows', () => {
  const [r1, r2] = swiss().rounds;
  assert.deepEqual(pairingRows(r1, 'Ann'), [
    { board: 1, white: 'Ann', black: 'robot', game: '/g/g1', result: '1–0', words: 'White won', bye: false, playing: false, me: true },
    { board: 2, white: 'Eve', black: '', game: '', result: 'bye', words: 'A bye: a point without a game', bye: true, playing: false, me: false },
  ]);
  const rows = pairingRows(r2, 'Eve');
  assert.deepEqual(rows.map((r) => [r.result, r.words, r.playing, r.me]),
    [['…', 'Being played', true, false], ['+ –', 'White won by forfeit', false, true]]);
  // A bye told by its result alone.
  assert.equal(pairingRows({ pairings: [{ board: 3, white: 'Eve', black: null, game: null, result: 'bye' }] })[0].result, 'bye');
  assert.equal(roundTitle(swiss(), r2), 'Round 2');
  assert.equal(roundTitle({ system: 'arena' }, { number: 1 }), 'Games, the latest first');
});

test('nextGame', async (t) => {
  const me = (over) => ({ joined: true, withdrawn: false, game: null, canJoin: false, why: null, ...over });
  const cases = [
    { name: 'a game in progress', tour: swiss(), want: { game: '/g/g2', text: 'Your game is on: play it' } },
    { name: 'a Swiss between rounds', tour: swiss({ me: me() }), want: { game: '', text: 'Waiting for round 3' } },
    { name: 'an arena between games', tour: swiss({ system: 'arena', me: me() }), want: { game: '', text: 'Waiting for an opponent' } },
    { name: 'before the start', tour: swiss({ status: 'created', me: me() }), want: { game: '', text: 'You are in: waiting for the start' } },
    { name: 'paused', tour: swiss({ status: 'paused', me: me() }), want: { game: '', text: 'The tournament is paused' } },
    { name: 'finished', tour: swiss({ status: 'finished', me: me() }), want: null },
    { name: 'withdrawn', tour: swiss({ me: me({ withdrawn: true }) }), want: null },
    { name: 'not in it', tour: swiss({ me: me({ joined: false, canJoin: true }) }), want: null },
    { name: 'a guest', tour: swiss({ me: null }), want: null },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(nextGame(c.tour), c.want));
});

test('gameToOpen opens only a game that appears while the page is open', async (t) => {
  const withGame = (game) => swiss({ me: { joined: true, withdrawn: false, game, canJoin: false, why: null } });
  const cases = [
    { name: 'the first view', before: null, after: withGame('g2'), want: null },
    { name: 'a new game', before: withGame(null), after: withGame('g3'), want: 'g3' },
    { name: 'the next game after one', before: withGame('g2'), after: withGame('g3'), want: 'g3' },
    { name: 'the same game', before: withGame('g2'), after: withGame('g2'), want: null },
    { name: 'no game', before: withGame('g2'), after: withGame(null), want: null },
    { name: 'a guest', before: swiss({ me: null }), after: swiss({ me: null }), want: null },
    { name: 'just joined', before: swiss({ me: null }), after: withGame('g4'), want: 'g4' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(gameToOpen(c.before, c.after), c.want));
});

test('news says each change once', async (t) => {
  const cases = [
    { name: 'the first view', before: null, after: swiss(), want: '' },
    { name: 'nothing new', before: swiss(), after: swiss({ version: 8 }), want: '' },
    { name: 'started and paired', before: swiss({ status: 'created', round: 0, me: null }), after: swiss({ round: 1, me: null }), want: 'The tournament has started. Round 1 paired.' },
    {
      name: 'a round paired with my game',
      before: swiss({ me: { joined: true, game: null } }), after: swiss({ round: 3, me: { joined: true, game: 'g9' } }),
      want: 'Round 3 paired. Your game starts.',
    },
    { name: 'paused', before: swiss(), after: swiss({ status: 'paused' }), want: 'The tournament is paused.' },
    { name: 'resumed', before: swiss({ status: 'paused' }), after: swiss(), want: 'The tournament goes on.' },
    { name: 'finished', before: swiss(), after: swiss({ status: 'finished', me: { joined: true, game: null } }), want: 'The tournament is over.' },
    { name: 'an arena pairs no rounds', before: swiss({ system: 'arena', round: 0, me: null }), after: swiss({ system: 'arena', round: 1, me: null }), want: '' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(news(c.before, c.after), c.want));
});

test('actions', async (t) => {
  const me = (over) => ({ joined: false, withdrawn: false, game: null, canJoin: true, why: null, ...over });
  const none = { join: false, withdraw: false, password: false, why: '', creator: [] };
  const cases = [
    { name: 'a player in it', tour: swiss(), viewer: 'Bob', want: { ...none, withdraw: true } },
    { name: 'the creator, running', tour: swiss(), viewer: 'Ann', want: { ...none, withdraw: true, creator: ['pause', 'cancel'] } },
    { name: 'the creator, not started', tour: swiss({ status: 'created', me: me() }), viewer: 'Ann', want: { ...none, join: true, creator: ['start', 'cancel'] } },
    { name: 'the creator, paused', tour: swiss({ status: 'paused', me: me({ canJoin: false }) }), viewer: 'Ann', want: { ...none, why: 'You cannot join this tournament.', creator: ['resume', 'cancel'] } },
    { name: 'the creator, finished', tour: swiss({ status: 'finished' }), viewer: 'Ann', want: none },
    { name: 'may join', tour: swiss({ me: me() }), viewer: 'Bob', want: { ...none, join: true } },
    { name: 'may join with the password', tour: swiss({ me: me(), conditions: { password: true } }), viewer: 'Bob', want: { ...none, join: true, password: true } },
    { name: 'left an arena, may come back', tour: swiss({ system: 'arena', me: me({ joined: true, withdrawn: true }) }), viewer: 'Bob', want: { ...none, join: true } },
    { name: 'refused, a code the page knows not', tour: swiss({ me: me({ canJoin: false, why: 'tournament.no_such_reason' }) }), viewer: 'Bob', want: { ...none, why: 'You cannot join this tournament.' } },
    { name: 'a guest', tour: swiss({ me: null }), viewer: '', want: { ...none, why: 'Log in to join.' } },
    { name: 'cancelled', tour: swiss({ status: 'cancelled', me: me() }), viewer: 'Bob', want: none },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(actions(c.tour, c.viewer), c.want));
});

test('actions say a refusal by its code, in the language', () => {
  inLanguage('en');
  // A code of the catalogues is said in its words; error.request.too_many stands for any.
  const tour = swiss({ me: { joined: false, withdrawn: false, game: null, canJoin: false, why: 'request.too_many' } });
  assert.notEqual(actions(tour, 'Bob').why, 'You cannot join this tournament.');
  assert.ok(actions(tour, 'Bob').why.length > 0);
});

test('conditionTexts', () => {
  assert.deepEqual(conditionTexts(swiss()), []);
  assert.deepEqual(conditionTexts(swiss({ conditions: { minRating: 1400, maxRating: 1800, minRatedGames: 1, invited: ['bob', 'cy'], password: true } })), [
    'Rating from 1400 to 1800', 'At least 1 rated game played', 'Invited players only: bob, cy', 'A password is needed to join',
  ]);
  assert.deepEqual(conditionTexts(swiss({ conditions: { minRating: 1400, minRatedGames: 5 } })), ['Rating 1400 or more', 'At least 5 rated games played']);
  assert.deepEqual(conditionTexts(swiss({ conditions: { maxRating: 1600 } })), ['Rating 1600 or less']);
});

test('createRequest', async (t) => {
  const f = {
    name: ' Sunday arena ', system: 'arena', size: '9', speed: 'live', minutes: '3', increment: '2', days: '3', rated: true,
    arenaMinutes: '30', rounds: '5', double: false, start: '', minRating: '', maxRating: '', minRatedGames: '', invited: '', password: '',
  };
  const arena = { name: 'Sunday arena', system: 'arena', size: 9, rated: true, clock: { initial: 180, increment: 2 }, minutes: 30 };
  const cases = [
    { name: 'an arena', f, want: { body: arena } },
    {
      name: 'a Swiss by correspondence on 7x7, casual', f: { ...f, system: 'swiss', speed: 'correspondence', size: '7', rated: false },
      want: { body: { name: 'Sunday arena', system: 'swiss', size: 7, rated: false, days: 3, rounds: 5 } },
    },
    {
      name: 'a double round robin', f: { ...f, system: 'roundrobin', double: true },
      want: { body: { name: 'Sunday arena', system: 'roundrobin', size: 9, rated: true, clock: { initial: 180, increment: 2 }, double: true } },
    },
    {
      name: 'with a start', f: { ...f, start: '2026-12-05T15:00' },
      want: { body: { ...arena, start: new Date('2026-12-05T15:00').toISOString() } },
    },
    {
      name: 'with every condition', f: { ...f, minRating: '1400', maxRating: '1800', minRatedGames: '10', invited: 'bob, cy  dee', password: 'sesame' },
      want: { body: { ...arena, conditions: { minRating: 1400, maxRating: 1800, minRatedGames: 10, invited: ['bob', 'cy', 'dee'], password: 'sesame' } } },
    },
    { name: 'no name', f: { ...f, name: '  ' }, want: { error: 'Give the tournament a name.' } },
    { name: 'an arena by correspondence', f: { ...f, speed: 'correspondence' }, want: { error: 'An arena is played with a clock: choose live games.' } },
    { name: 'no clock', f: { ...f, minutes: '0' }, want: { error: 'Give the clock a positive number of minutes and of seconds per move.' } },
    { name: 'no days', f: { ...f, system: 'swiss', speed: 'correspondence', days: '' }, want: { error: 'Choose the days per move.' } },
    { name: 'an arena of no length', f: { ...f, arenaMinutes: '0' }, want: { error: "Give the arena's length in whole minutes, from 1 to 1440." } },
    { name: 'an arena of half minutes', f: { ...f, arenaMinutes: '2.5' }, want: { error: "Give the arena's length in whole minutes, from 1 to 1440." } },
    { name: 'an arena of a day and a minute', f: { ...f, arenaMinutes: '1441' }, want: { error: "Give the arena's length in whole minutes, from 1 to 1440." } },
    { name: 'a Swiss of no rounds', f: { ...f, system: 'swiss', rounds: '' }, want: { error: 'Give a whole number of rounds, from 1 to 11.' } },
    { name: 'a Swiss of 12 rounds', f: { ...f, system: 'swiss', rounds: '12' }, want: { error: 'Give a whole number of rounds, from 1 to 11.' } },
    { name: 'a bad start', f: { ...f, start: 'soon' }, want: { error: 'The start is not a date and time.' } },
    { name: 'a negative rating', f: { ...f, minRating: '-5' }, want: { error: 'Ratings and games are whole numbers, 0 or more.' } },
    { name: 'a range upside down', f: { ...f, minRating: '1800', maxRating: '1400' }, want: { error: 'The lowest rating is above the highest.' } },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(createRequest(c.f), c.want));
});

test('every language has the texts', () => {
  for (const code of ['pt', 'ru', 'lfn']) {
    inLanguage(code);
    try {
      const tour = swiss({ conditions: { minRating: 1, maxRating: 2, minRatedGames: 3, invited: ['x'], password: true } });
      summaryRow(tour);
      standingsRows(tour);
      tour.rounds.forEach((r) => pairingRows(r));
      conditionTexts(tour);
      nextGame(tour);
      news(swiss({ status: 'created', round: 0, me: null }), tour);
      actions(swiss({ me: null }));
      for (const status of ['created', 'running', 'paused', 'finished', 'cancelled']) headLine({ ...tour, status }, 0);
      tiebreakColumns('swiss');
    } finally {
      inLanguage('en');
    }
  }
});
