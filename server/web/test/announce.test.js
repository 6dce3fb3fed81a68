import assert from 'node:assert/strict';
import { test } from 'node:test';

import { announcement, lastMoveText, moveWords, turnWords } from '../announce.js';
import { inLanguage } from './lang.js';

// game is a state as the API gives it, with the fields given changed: an
// engine game, the viewer White.
const game = (over = {}) => ({
  id: 'g1', size: 7, mode: 'engine', result: '*', reason: '', over: false, turn: 'white', you: 'white',
  moves: [], legal: ['a1', 'c1'], board: [], shadow: 1, thinking: false,
  players: { white: { name: 'Ada', joined: true }, black: { name: 'Emergo level 1', engine: true, joined: true } },
  ...over,
});

const col = (square, owner, top, prisoners = 0) => ({ square, owner, top, prisoners });

test('moveWords', async (t) => {
  inLanguage('en');
  const cases = [
    { name: 'an entry', move: 'e5', mover: 'white', after: [col('e5', 'white', 1)], want: 'White entered a man on e5.' },
    { name: 'the shadow piece', move: 'b2', mover: 'black', after: [col('b2', 'black', 4)], want: 'Black entered the shadow piece, 4 men as one column, on b2.' },
    { name: 'a step', move: 'c3-d4', mover: 'black', want: 'Black moved c3 to d4.' },
    { name: 'a capture of one', move: 'c3xe5', mover: 'white', want: 'White captured c3xe5, taking 1 black man prisoner.' },
    { name: 'a capture of three', move: 'a1xc3xe5xg3', mover: 'black', want: 'Black captured a1xc3xe5xg3, taking 3 white men prisoner.' },
    {
      name: 'a capture that frees two of the mover\'s men',
      move: 'c3xe5', mover: 'white',
      before: [col('c3', 'white', 1), col('d4', 'black', 1, 2)],
      after: [col('d4', 'white', 2), col('e5', 'white', 1, 1)],
      want: 'White captured c3xe5, taking 1 black man prisoner. 2 white men freed.',
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(moveWords(c.move, c.mover, c.before || [], c.after || []), c.want));
  }
});

test('turnWords', async (t) => {
  inLanguage('en');
  const cases = [
    { name: 'the viewer\'s turn to enter', s: game(), want: 'Your move: enter a man on a marked square.' },
    { name: 'the viewer must capture', s: game({ legal: ['c3xe5xc7'] }), want: 'Your move: you must capture (2 men).' },
    { name: 'the engine\'s turn', s: game({ turn: 'black' }), want: 'Black to move.' },
    { name: 'a watcher', s: game({ you: null, turn: 'white' }), want: 'White to move.' },
    { name: 'resigned', s: game({ over: true, result: '0-1', reason: 'resignation' }), want: 'Black wins. By resignation. You lost.' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(turnWords(c.s), c.want));
  }
});

test('announcement', async (t) => {
  inLanguage('en');
  const before = game({ moves: ['c3', 'b6'], turn: 'white' });
  const cases = [
    { name: 'the first state of the page says nothing', prev: null, s: before, want: '' },
    { name: 'the same moves say nothing (the engine thinking)', prev: before, s: { ...before, thinking: true, turn: 'black' }, want: '' },
    {
      name: 'the engine\'s move, and the viewer\'s turn',
      prev: game({ moves: ['c3'], turn: 'black' }),
      s: game({ moves: ['c3', 'b6'], board: [col('c3', 'white', 1), col('b6', 'black', 1)] }),
      want: 'Black entered a man on b6. Your move: enter a man on a marked square.',
    },
    {
      name: 'the viewer\'s own move, and the engine\'s turn',
      prev: before,
      s: game({ moves: ['c3', 'b6', 'e3'], turn: 'black' }),
      want: 'White entered a man on e3. Black to move.',
    },
    {
      name: 'the move that ends the game',
      prev: game({ moves: ['c3', 'b6', 'c3xa5'], turn: 'black' }),
      s: game({ moves: ['c3', 'b6', 'c3xa5', 'a7xc5'], over: true, result: '0-1', reason: 'all men taken prisoner' }),
      want: 'Black captured a7xc5, taking 1 white man prisoner. Black wins. All men taken prisoner. You lost.',
    },
    {
      name: 'a resignation',
      prev: before,
      s: game({ moves: ['c3', 'b6'], over: true, result: '0-1', reason: 'resignation' }),
      want: 'Black wins. By resignation. You lost.',
    },
    {
      name: 'a take-back of two moves',
      prev: game({ moves: ['c3', 'b6', 'e3', 'd6'] }),
      s: before,
      want: '2 moves taken back. Your move: enter a man on a marked square.',
    },
    {
      name: 'the friend takes his seat',
      prev: game({ mode: 'friend', players: { white: { name: 'Ada', joined: true }, black: { name: '', joined: false } } }),
      s: game({ mode: 'friend', players: { white: { name: 'Ada', joined: true }, black: { name: 'Bob', joined: true } } }),
      want: 'Bob has joined. Your move: enter a man on a marked square.',
    },
    {
      name: 'two moves at once',
      prev: before,
      s: game({ moves: ['c3', 'b6', 'e3', 'd6'] }),
      want: 'White entered a man on e3. Black entered a man on d6. Your move: enter a man on a marked square.',
    },
    { name: 'three moves at once say nothing', prev: game({ moves: ['c3'], turn: 'black' }), s: game({ moves: ['c3', 'b6', 'e3', 'd6'] }), want: '' },
    { name: 'another game\'s moves say nothing', prev: game({ moves: ['c3'] }), s: game({ moves: ['e3', 'b6'] }), want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(announcement(c.prev, c.s), c.want));
  }
});

test('lastMoveText', async (t) => {
  inLanguage('en');
  const cases = [
    { name: 'no move yet', s: game(), want: '' },
    { name: 'White\'s first', s: game({ moves: ['c3'], turn: 'black' }), want: 'Last move: 1. c3, by White.' },
    { name: 'Black\'s reply', s: game({ moves: ['c3', 'b6'] }), want: 'Last move: 1… b6, by Black.' },
    { name: 'a game Black began', s: game({ moves: ['b6', 'c3'], turn: 'black' }), want: 'Last move: 2. c3, by White.' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(lastMoveText(c.s), c.want));
  }
});

test('announcement in Russian counts as Russian does', () => {
  inLanguage('ru');
  assert.equal(moveWords('a1xc3xe5', 'white', [], []), 'Белые побили a1xc3xe5: в плен взяты 2 чёрные шашки.');
  assert.equal(moveWords('a1xc3xe5xg3xe1xc3', 'black', [], []), 'Чёрные побили a1xc3xe5xg3xe1xc3: в плен взято 5 белых шашек.');
  inLanguage('en');
});
