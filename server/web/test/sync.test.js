import assert from 'node:assert/strict';
import { test } from 'node:test';

import { accepts, GameSync, playedMove } from '../sync.js';
import { inLanguage } from './lang.js';

inLanguage('en');

const st = (version, you = null, moves = []) => ({ version, you, moves });
const rm = (version, at, status) => ({ ...st(version, 'white'), rematch: { by: 'black', status, at } });

test('accepts', async (t) => {
  const cases = [
    { name: 'the first state', prev: null, next: st(1), want: true },
    { name: 'nothing', prev: st(1), next: null, want: false },
    { name: 'a newer state', prev: st(3), next: st(4), want: true },
    { name: 'an older state is ignored', prev: st(4), next: st(3), want: false },
    { name: 'the same state again is ignored', prev: st(4, 'white'), next: st(4, 'white'), want: false },
    { name: 'the same version seen from a seat (after joining)', prev: st(4, null), next: st(4, 'black'), want: true },
    { name: 'an older state from a seat is still ignored', prev: st(4, null), next: st(3, 'black'), want: false },
    { name: 'a rematch offered after the game', prev: st(4, 'white'), next: rm(4, 1000, 'pending'), want: true },
    { name: 'the rematch answered', prev: rm(4, 1000, 'pending'), next: rm(4, 2000, 'accepted'), want: true },
    { name: 'the rematch answered within its millisecond', prev: rm(4, 1000, 'pending'), next: rm(4, 1000, 'declined'), want: true },
    { name: 'the offer again after its answer is ignored', prev: rm(4, 1000, 'declined'), next: rm(4, 1000, 'pending'), want: false },
    { name: 'an older rematch is ignored', prev: rm(4, 2000, 'accepted'), next: rm(4, 1000, 'pending'), want: false },
    { name: 'a state without the rematch is ignored', prev: rm(4, 1000, 'pending'), next: st(4, 'white'), want: false },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(accepts(c.prev, c.next), c.want));
  }
});

test('playedMove', async (t) => {
  const cases = [
    { name: 'no state before', prev: null, next: st(1, null, ['a1']), want: null },
    { name: 'one move more', prev: st(1, null, ['a1']), next: st(2, null, ['a1', 'c5']), want: 'c5' },
    { name: 'the first move', prev: st(1), next: st(2, null, ['a1']), want: 'a1' },
    { name: 'no move', prev: st(1, null, ['a1']), next: st(2, null, ['a1']), want: null },
    { name: 'two moves more', prev: st(1), next: st(3, null, ['a1', 'c5']), want: null },
    { name: 'a take-back', prev: st(2, null, ['a1', 'c5']), next: st(3, null, ['a1']), want: null },
    { name: 'other moves', prev: st(2, null, ['a1']), next: st(3, null, ['a3', 'c5']), want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(playedMove(c.prev, c.next), c.want));
  }
});

// fakeSource is the API as GameSync uses it: the state the next getGame
// answers, and the live connections opened, whose states the test sends.
function fakeSource(answer) {
  const src = {
    answer,
    streams: [],
    getGame: async () => {
      if (src.answer instanceof Error) throw src.answer;
      return src.answer;
    },
    subscribe: (id, onState, onStatus) => {
      const s = { id, onState, onStatus, closed: false };
      src.streams.push(s);
      return () => {
        s.closed = true;
      };
    },
  };
  return src;
}

test('GameSync', async (t) => {
  await t.test('states from every source, in version order', async () => {
    const heard = [];
    const src = fakeSource(st(2, null, ['a1']));
    const sync = new GameSync('g1', { onState: (s, prev) => heard.push([s.version, prev && prev.version]), onConn() {} }, src);
    sync.follow();
    await sync.load();
    src.streams[0].onState(st(1));
    src.streams[0].onState(st(3, null, ['a1', 'c5']));
    assert.equal(sync.apply(st(3, null, ['a1', 'c5'])), false);
    assert.equal(sync.apply(st(4, null, ['a1', 'c5', 'f6'])), true);
    assert.deepEqual(heard, [[2, null], [3, 2], [4, 3]]);
    assert.equal(sync.state.version, 4);
  });

  await t.test('following again closes the old connection', () => {
    const src = fakeSource(st(1));
    const conn = [];
    const sync = new GameSync('g1', { onState() {}, onConn: (c) => conn.push(c) }, src);
    sync.follow();
    sync.follow();
    assert.deepEqual(src.streams.map((s) => s.closed), [true, false]);
    assert.equal(src.streams[1].id, 'g1');
    src.streams[1].onStatus('reconnecting');
    assert.deepEqual(conn, ['reconnecting']);
  });

  await t.test('load throws a refusal, refresh swallows it', async () => {
    const src = fakeSource(Object.assign(new Error('there is no such game'), { status: 404 }));
    const sync = new GameSync('gone', { onState() {}, onConn() {} }, src);
    await assert.rejects(sync.load(), /no such game/);
    await sync.refresh();
    assert.equal(sync.state, null);
  });
});
