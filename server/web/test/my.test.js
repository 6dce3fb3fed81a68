import assert from 'node:assert/strict';
import { test } from 'node:test';

import { myGameRow } from '../my.js';
import { inLanguage } from './lang.js';

inLanguage('en');

const HOUR = 3600000;

// game is a game of /api/my-games: Ada (White) against Bob, going on.
const game = (over) => ({
  id: 'k3J9', size: 7, mode: 'friend', white: 'Ada', black: 'Bob', you: 'white', turn: 'white', yourTurn: true,
  joined: true, plies: 4, result: '*', reason: '', days: 3, deadline: 'x', left_ms: 50 * HOUR, ...over,
});

test('myGameRow', async (t) => {
  const cases = [
    {
      name: 'your turn', g: game(),
      want: { href: '/g/k3J9', opponent: 'Bob', board: '7×7', time: '3 days per move', status: 'Your turn', left: '2 days 2 hours left', yourTurn: true, over: false },
    },
    {
      name: 'the opponent\'s turn', g: game({ you: 'black', turn: 'white', yourTurn: false }),
      want: { href: '/g/k3J9', opponent: 'Ada', board: '7×7', time: '3 days per move', status: 'Waiting for Ada', left: '2 days 2 hours left for Ada', yourTurn: false, over: false },
    },
    {
      name: 'a live game', g: game({ days: 0, deadline: null, left_ms: null }),
      want: { href: '/g/k3J9', opponent: 'Bob', board: '7×7', time: 'live', status: 'Your turn', left: '', yourTurn: true, over: false },
    },
    {
      name: 'the friend has not joined', g: game({ black: '', joined: false, yourTurn: false, deadline: null, left_ms: null }),
      want: { href: '/g/k3J9', opponent: 'Black', board: '7×7', time: '3 days per move', status: 'Waiting for your friend to join', left: '', yourTurn: false, over: false },
    },
    {
      name: 'won', g: game({ turn: null, yourTurn: false, result: '1-0', reason: 'time forfeit', deadline: null, left_ms: null }),
      want: { href: '/g/k3J9', opponent: 'Bob', board: '7×7', time: '3 days per move', status: 'You won', left: '', yourTurn: false, over: true },
    },
    {
      name: 'lost', g: game({ turn: null, yourTurn: false, result: '1-0', you: 'black' }),
      want: { href: '/g/k3J9', opponent: 'Ada', board: '7×7', time: '3 days per move', status: 'You lost', left: '', yourTurn: false, over: true },
    },
    {
      name: 'drawn', g: game({ turn: null, yourTurn: false, result: '1/2-1/2', reason: 'agreement' }),
      want: { href: '/g/k3J9', opponent: 'Bob', board: '7×7', time: '3 days per move', status: 'Draw', left: '', yourTurn: false, over: true },
    },
    {
      name: 'aborted', g: game({ turn: null, yourTurn: false, reason: 'aborted' }),
      want: { href: '/g/k3J9', opponent: 'Bob', board: '7×7', time: '3 days per move', status: 'Aborted.', left: '', yourTurn: false, over: true },
    },
    {
      name: 'an id made safe for the path', g: game({ id: 'a/b' }),
      want: { href: '/g/a%2Fb', opponent: 'Bob', board: '7×7', time: '3 days per move', status: 'Your turn', left: '2 days 2 hours left', yourTurn: true, over: false },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(myGameRow(c.g), c.want));
  }
});
