import assert from 'node:assert/strict';
import { test } from 'node:test';

import { channelGame, nextGame, playerText, sizeOf } from '../tv.js';
import { inLanguage } from './lang.js';

inLanguage('en');

const game = (id, over) => ({ id, white: 'Ada', black: 'Bob', whiteRating: 1662, blackRating: null, whiteGuest: false, blackGuest: true, ...over });
const answer = (nine, seven) => ({ channels: [{ size: 9, game: nine }, { size: 7, game: seven }] });

test('sizeOf', () => {
  assert.equal(sizeOf(''), 9);
  assert.equal(sizeOf('?size=7'), 7);
  assert.equal(sizeOf('?size=8'), 9);
  assert.equal(sizeOf('?size=x&other=1'), 9);
});

test('channelGame', () => {
  const a = answer(game('n1'), null);
  assert.equal(channelGame(a, 9).id, 'n1');
  assert.equal(channelGame(a, 7), null);
  assert.equal(channelGame({}, 9), null);
  assert.equal(channelGame(null, 9), null);
});

test('nextGame', async (t) => {
  const a = answer(game('n1'), null);
  const cases = [
    { name: 'the first game of the channel', a, size: 9, shown: '', want: 'n1' },
    { name: 'none going on', a, size: 7, shown: '', want: '' },
    { name: 'a game on a clock is kept to its end', a: answer(game('n2'), null), size: 9, shown: 'n1', state: { clock: true }, want: null },
    { name: 'over, but still named: asked again', a, size: 9, shown: 'n1', state: { over: true, clock: true }, want: null },
    { name: 'over, the next named', a: answer(game('n2'), null), size: 9, shown: 'n1', state: { over: true }, want: 'n2' },
    { name: 'over, none next', a: answer(null, null), size: 9, shown: 'n1', state: { over: true }, want: '' },
    { name: 'a correspondence game gives way', a: answer(game('n2'), null), size: 9, shown: 'n1', state: {}, want: 'n2' },
    { name: 'a correspondence game still the best', a, size: 9, shown: 'n1', state: {}, want: null },
    { name: 'a correspondence game no longer named, none other', a: answer(null, null), size: 9, shown: 'n1', state: {}, want: null },
    { name: 'none shown, none going on', a: answer(null, null), size: 9, shown: '', want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = nextGame(c.a, c.size, c.shown, c.state);
      assert.equal(got === null ? null : got.id, c.want);
    });
  }
});

test('playerText', () => {
  const g = game('n1', { black: 'Guest-ab12' });
  assert.equal(playerText(g, 'white'), 'Ada (1662)');
  assert.equal(playerText(g, 'black'), 'Guest-ab12 (guest)');
  assert.equal(playerText({ ...g, white: '' }, 'white'), 'White (1662)');
});
