import assert from 'node:assert/strict';
import { test } from 'node:test';

import { diffText, playAgain, ratingChanges, ratingText, rematchGame, rematchView } from '../rated.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('diffText', async (t) => {
  const cases = [
    { name: 'a gain', d: 12, want: '+12' },
    { name: 'a loss', d: -162, want: '-162' },
    { name: 'no change', d: 0, want: '±0' },
    { name: 'none', d: undefined, want: '' },
    { name: 'null', d: null, want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(diffText(c.d), c.want));
  }
});

// game is a finished rated game of Ada (White) and Bob, seen by Ada.
const game = (over) => ({
  over: true, rated: true, mode: 'friend', you: 'white', rematch: null,
  players: {
    white: { name: 'Ada', joined: true, engine: false, rating: '1662?', ratingDiff: 162 },
    black: { name: 'Bob', joined: true, engine: false, rating: '1338?', ratingDiff: -162 },
  },
  ...over,
});

test('ratingChanges', async (t) => {
  const cases = [
    {
      name: 'a rated game over', s: game(),
      want: [{ colour: 'white', name: 'Ada', rating: '1662?', diff: '+162' }, { colour: 'black', name: 'Bob', rating: '1338?', diff: '-162' }],
    },
    { name: 'going on', s: game({ over: false }), want: [] },
    { name: 'casual', s: game({ rated: false }), want: [] },
    {
      name: 'aborted: no changes', s: game({ players: { white: { name: 'Ada', rating: '1500?' }, black: { name: 'Bob', rating: '1500?' } } }),
      want: [],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(ratingChanges(c.s), c.want));
  }
});

test('rematchView', async (t) => {
  const none = { label: '', offer: false, answer: false, cancel: false, game: null };
  const cases = [
    { name: 'none yet', s: game(), want: { ...none, offer: true } },
    { name: 'offered by me', s: game({ rematch: { by: 'white', status: 'pending' } }), want: { ...none, label: 'You offered Bob a rematch; waiting for an answer.', cancel: true } },
    { name: 'offered to me', s: game({ rematch: { by: 'black', status: 'pending' } }), want: { ...none, label: 'Bob offers a rematch.', answer: true } },
    { name: 'accepted', s: game({ rematch: { by: 'black', status: 'accepted', game: 'g2' } }), want: { ...none, label: 'The rematch is on.', game: 'g2' } },
    { name: 'mine declined', s: game({ rematch: { by: 'white', status: 'declined' } }), want: { ...none, label: 'Bob declined the rematch.', offer: true } },
    { name: 'I declined', s: game({ rematch: { by: 'black', status: 'declined' } }), want: { ...none, label: 'You declined the rematch.', offer: true } },
    { name: 'expired', s: game({ rematch: { by: 'black', status: 'expired' } }), want: { ...none, offer: true } },
    { name: 'a watcher', s: game({ you: null }), want: null },
    { name: 'going on', s: game({ over: false }), want: null },
    { name: 'against the engine', s: game({ mode: 'engine' }), want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(rematchView(c.s), c.want));
  }
});

test('playAgain', async (t) => {
  const engine = (over) => ({ over: true, mode: 'engine', you: 'black', size: 7, level: 3, clock: null, ...over });
  const cases = [
    { name: 'over, no clock', s: engine(), want: { mode: 'engine', size: 7, level: 3, color: 'black' } },
    {
      name: 'over, with a clock', s: engine({ size: 9, you: 'white', level: 5, clock: { initial_ms: 300000, increment_ms: 2000, white_ms: 0, black_ms: 1000 } }),
      want: { mode: 'engine', size: 9, level: 5, color: 'white', clock: { initial: 300, increment: 2 } },
    },
    { name: 'going on', s: engine({ over: false }), want: null },
    { name: 'a watcher', s: engine({ you: null }), want: null },
    { name: 'between people', s: game(), want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(playAgain(c.s), c.want));
  }
});

test('rematchGame', async (t) => {
  const pending = game({ rematch: { by: 'black', status: 'pending' } });
  const accepted = game({ rematch: { by: 'black', status: 'accepted', game: 'g2' } });
  const cases = [
    { name: 'seen pending, then accepted', prev: pending, next: accepted, want: 'g2' },
    { name: 'accepted when the page opened', prev: null, next: accepted, want: null },
    { name: 'accepted, seen again', prev: accepted, next: accepted, want: null },
    { name: 'declined', prev: pending, next: game({ rematch: { by: 'black', status: 'declined' } }), want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(rematchGame(c.prev, c.next), c.want));
  }
});

test('ratingText', async (t) => {
  const cases = [
    { name: 'established', r: { rating: 1623, deviation: 85, provisional: false }, want: '1623 ±85' },
    { name: 'provisional', r: { rating: 1500, deviation: 350, provisional: true }, want: '1500? ±350' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(ratingText(c.r), c.want));
});
