import assert from 'node:assert/strict';
import { test } from 'node:test';

import { profileHref } from '../dom.js';
import {
  chosenPool, countsText, firstPage, gameRow, gamesQuery, nextPage, pageCursor, pageNumber, prevPage,
  gameTime, readFilters,
} from '../profile.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('countsText', async (t) => {
  const cases = [
    { name: 'none', g: { played: 0, won: 0, drawn: 0, lost: 0, ongoing: 0 }, want: 'No games played yet.' },
    { name: 'one going on', g: { played: 0, won: 0, drawn: 0, lost: 0, ongoing: 1 }, want: 'No games played yet. 1 going on.' },
    { name: 'one', g: { played: 1, won: 1, drawn: 0, lost: 0, ongoing: 0 }, want: '1 game played: 1 won, 0 drawn, 0 lost.' },
    { name: 'many', g: { played: 39, won: 16, drawn: 10, lost: 13, ongoing: 2 }, want: '39 games played: 16 won, 10 drawn, 13 lost. 2 going on.' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(countsText(c.g), c.want));
});

test('gameTime', () => {
  assert.equal(gameTime({ initial_ms: 300000, increment_ms: 3000, days: 0 }), '5+3');
  assert.equal(gameTime({ initial_ms: 30000, increment_ms: 0, days: 0 }), '0.5+0');
  assert.equal(gameTime({ initial_ms: 0, increment_ms: 0, days: 3 }), '3 days per move');
  assert.equal(gameTime({ initial_ms: 0, increment_ms: 0, days: 0 }), 'no clock');
});

// game is a game of /api/users/{name}/games: won as White against Bob.
const game = (over) => ({
  id: 'k3J9', size: 7, mode: 'friend', level: 0, color: 'white',
  opponent: { name: 'Bob', account: true, engine: false, rating: 1712 }, outcome: 'won', result: '1-0', reason: 'resignation',
  plies: 24, initial_ms: 300000, increment_ms: 2000, days: 0, rated: true, rating: { before: 1600, after: 1612.4, diff: 12.4 },
  created: '2026-03-10T12:00:00Z', updated: '2026-03-10T12:30:00Z', ...over,
});

test('gameRow', async (t) => {
  const base = {
    href: '/g/k3J9', opponent: 'Bob', opponentAccount: true, opponentRating: '1712', color: 'White', board: '7×7', time: '5+2', rated: 'Rated',
    timeKind: '5+2, rated', outcome: 'Won', change: '+12', reason: 'By resignation.', moves: 24, date: '03/10/2026',
    pgn: '/api/games/k3J9/record.pgn', json: '/api/games/k3J9/record.json',
  };
  const cases = [
    { name: 'won', g: game(), want: base },
    {
      name: 'lost to the engine, casual', g: game({ color: 'black', outcome: 'lost', mode: 'engine', rated: false, rating: null, opponent: { name: 'Emergo level 3', account: false, engine: true, rating: null } }),
      want: { ...base, color: 'Black', outcome: 'Lost', rated: 'Casual', timeKind: '5+2, casual', change: '', opponent: 'Emergo level 3', opponentAccount: false, opponentRating: '' },
    },
    {
      name: 'going on: no records yet, not rated yet', g: game({ outcome: 'ongoing', result: '*', reason: '', days: 3, initial_ms: 0, rating: null }),
      want: { ...base, outcome: 'Playing', change: '', reason: '', time: '3 days per move', timeKind: '3 days per move, rated', pgn: null, json: null },
    },
    {
      name: 'drawn against a guest', g: game({ outcome: 'drawn', result: '1/2-1/2', reason: 'agreement', rated: false, rating: null, opponent: { name: 'a guest', account: false } }),
      want: { ...base, outcome: 'Draw', change: '', rated: 'Casual', timeKind: '5+2, casual', reason: 'Draw by agreement.', opponent: 'a guest', opponentAccount: false, opponentRating: '' },
    },
    {
      name: 'waiting for the opponent', g: game({ outcome: 'ongoing', result: '*', reason: '', rating: null, opponent: { name: '', account: false } }),
      want: { ...base, outcome: 'Playing', change: '', reason: '', opponent: 'nobody yet', opponentAccount: false, opponentRating: '', pgn: null, json: null },
    },
    {
      name: 'lost a rated game', g: game({ color: 'black', outcome: 'lost', result: '1-0', rating: { before: 1600, after: 1581.6, diff: -18.4 } }),
      want: { ...base, color: 'Black', outcome: 'Lost', change: '-18' },
    },
    { name: 'an odd id', g: game({ id: 'a/b' }), want: { ...base, href: '/g/a%2Fb', pgn: '/api/games/a%2Fb/record.pgn', json: '/api/games/a%2Fb/record.json' } },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(gameRow(c.g), c.want));
});

test('filters', async (t) => {
  const cases = [
    { name: 'none', search: '', want: { result: '', opponent: '', size: '' }, query: '' },
    { name: 'all three', search: '?result=won&opponent=%20Bob%20&size=7', want: { result: 'won', opponent: 'Bob', size: '7' }, query: 'result=won&opponent=Bob&size=7' },
    { name: 'unknown values dropped', search: '?result=abandoned&size=8&x=1', want: { result: '', opponent: '', size: '' }, query: '' },
    { name: 'an opponent to escape', search: '?opponent=a%26b', want: { result: '', opponent: 'a&b', size: '' }, query: 'opponent=a%26b' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const f = readFilters(c.search);
      assert.deepEqual(f, c.want);
      assert.equal(gamesQuery(f), c.query);
    });
  }
  await t.test('with a cursor', () => {
    assert.equal(gamesQuery({ result: 'lost' }, '1700000000000-k3J9'), 'result=lost&before=1700000000000-k3J9');
    assert.equal(gamesQuery({}, '17-x'), 'before=17-x');
  });
});

test('pages', async (t) => {
  let p = firstPage();
  await t.test('the first page', () => {
    assert.equal(pageCursor(p), '');
    assert.equal(pageNumber(p), 1);
    assert.deepEqual(prevPage(p), p, 'there is nothing before the first page');
  });
  p = nextPage(nextPage(p, 'c2'), 'c3');
  await t.test('forwards', () => {
    assert.equal(pageCursor(p), 'c3');
    assert.equal(pageNumber(p), 3);
  });
  await t.test('back to the cursors seen', () => {
    const back = prevPage(p);
    assert.equal(pageCursor(back), 'c2');
    assert.equal(pageCursor(prevPage(back)), '');
    assert.equal(pageCursor(p), 'c3', 'a pager is not changed');
  });
});

test('chosenPool', async (t) => {
  const hist = (a, b, c, d) => [[9, 'live', a], [9, 'correspondence', b], [7, 'live', c], [7, 'correspondence', d]]
    .map(([size, speed, n]) => ({ size, speed, points: Array(n).fill({ rating: 1500 }) }));
  const cases = [
    { name: 'none played', h: hist(0, 0, 0, 0), want: '9-live' },
    { name: 'the most games', h: hist(1, 0, 4, 2), want: '7-live' },
    { name: 'a tie: the first', h: hist(0, 3, 0, 3), want: '9-correspondence' },
    { name: 'no pools', h: [], want: '' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(chosenPool(c.h), c.want));
});

test('profileHref', () => {
  assert.equal(profileHref('Alice'), '/@/Alice');
  assert.equal(profileHref('a b/c'), '/@/a%20b%2Fc');
});
