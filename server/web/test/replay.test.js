import assert from 'node:assert/strict';
import { test } from 'node:test';

import { firstSide, moveRows, navDisabled, navTarget, Replay, shownSide, viewText } from '../replay.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('navTarget', async (t) => {
  const cases = [
    { name: 'first from the end', where: 'first', current: 5, n: 5, want: 0 },
    { name: 'prev from the end', where: 'prev', current: 5, n: 5, want: 4 },
    { name: 'next in the middle', where: 'next', current: 2, n: 5, want: 3 },
    { name: 'last from the middle', where: 'last', current: 2, n: 5, want: 5 },
    { name: 'prev at the start goes nowhere', where: 'prev', current: 0, n: 5, want: null },
    { name: 'first at the start goes nowhere', where: 'first', current: 0, n: 5, want: null },
    { name: 'next at the end goes nowhere', where: 'next', current: 5, n: 5, want: null },
    { name: 'last at the end goes nowhere', where: 'last', current: 5, n: 5, want: null },
    { name: 'no moves', where: 'last', current: 0, n: 0, want: null },
    { name: 'unknown direction', where: 'up', current: 2, n: 5, want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(navTarget(c.where, c.current, c.n), c.want));
  }
});

test('navDisabled', async (t) => {
  await t.test('at the start', () =>
    assert.deepEqual(navDisabled(0, 3), { first: true, prev: true, next: false, last: false }));
  await t.test('in the middle', () =>
    assert.deepEqual(navDisabled(1, 3), { first: false, prev: false, next: false, last: false }));
  await t.test('at the end', () =>
    assert.deepEqual(navDisabled(3, 3), { first: false, prev: false, next: true, last: true }));
  await t.test('no moves', () =>
    assert.deepEqual(navDisabled(0, 0), { first: true, prev: true, next: true, last: true }));
});

test('firstSide', async (t) => {
  const cases = [
    { name: 'no moves', n: 0, turn: 'white', want: 'white' },
    { name: 'White began, Black to move', n: 1, turn: 'black', want: 'white' },
    { name: 'White began, White to move', n: 2, turn: 'white', want: 'white' },
    { name: 'set-up position with Black to move', n: 0, turn: 'black', want: 'black' },
    { name: 'Black began, White to move', n: 3, turn: 'black', want: 'white' },
    { name: 'Black began', n: 3, turn: 'white', want: 'black' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(firstSide(c.n, c.turn), c.want));
  }
});

test('moveRows', async (t) => {
  await t.test('White first', () => {
    assert.deepEqual(moveRows(['e5', 'c3', 'e5-d6'], 'white'), [
      { number: 1, plies: [{ ply: 1, text: 'e5', label: '1. e5' }, { ply: 2, text: 'c3', label: '1… c3' }] },
      { number: 2, plies: [{ ply: 3, text: 'e5-d6', label: '2. e5-d6' }] },
    ]);
  });
  await t.test('Black first leaves White\'s half empty', () => {
    assert.deepEqual(moveRows(['c3', 'e5'], 'black'), [
      { number: 1, plies: [null, { ply: 1, text: 'c3', label: '1… c3' }] },
      { number: 2, plies: [{ ply: 2, text: 'e5', label: '2. e5' }] },
    ]);
  });
  await t.test('no moves', () => assert.deepEqual(moveRows([], 'white'), []));
});

test('viewText', () => {
  assert.equal(viewText(0, 12), 'Start position (of 12 moves). Read-only.');
  assert.equal(viewText(3, 12), 'After move 3 of 12. Read-only.');
});

test('shownSide', async (t) => {
  const live = { moves: ['a1', 'c5'], result: '*', turn: 'white', hands: { white: 11, black: 11 }, shadow: 1 };
  await t.test('the live position', () => {
    assert.deepEqual(shownSide(live, null), { hands: { white: 11, black: 11 }, turn: 'white', shadow: 1, over: false });
  });
  await t.test('an earlier position', () => {
    const view = { ply: 1, data: { hands: { white: 11, black: 12 }, turn: 'black' } };
    assert.deepEqual(shownSide(live, view), { hands: { white: 11, black: 12 }, turn: 'black', shadow: 0, over: false });
  });
  await t.test('an earlier position with a shadow piece to enter', () => {
    const view = { ply: 1, data: { hands: { white: 0, black: 4 }, turn: 'black' } };
    assert.equal(shownSide(live, view).shadow, 4);
  });
  await t.test('the last position of a finished game', () => {
    const over = { ...live, result: '1-0', over: true };
    assert.equal(shownSide(over, { ply: 2, data: { hands: { white: 1, black: 0 }, turn: 'black' } }).over, true);
    assert.equal(shownSide(over, { ply: 1, data: { hands: { white: 1, black: 0 }, turn: 'black' } }).over, false);
  });
});

// deferred is a promise and the functions that settle it.
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

// fakePositions answers positionAt when the test says so, and counts the asks.
function fakePositions() {
  const asked = [];
  return {
    asked,
    positionAt: (ply) => {
      const d = deferred();
      asked.push({ ply, ...d });
      return d.promise;
    },
  };
}

test('Replay', async (t) => {
  const moves = ['a1', 'c5', 'f6', 'a5'];

  await t.test('a position is fetched once per move sequence', async () => {
    const f = fakePositions();
    const r = new Replay(f.positionAt);
    const first = r.fetch(2, moves);
    assert.equal(r.pending, 2);
    f.asked[0].resolve({ ply: 2 });
    assert.deepEqual(await first, { ply: 2 });
    assert.equal(r.pending, null);
    assert.deepEqual(await r.fetch(2, moves), { ply: 2 });
    assert.equal(f.asked.length, 1);
    // A take-back and other moves: the same ply is another position.
    const again = r.fetch(2, ['a1', 'c7']);
    assert.equal(f.asked.length, 2);
    f.asked[1].resolve({ ply: 2, other: true });
    assert.deepEqual(await again, { ply: 2, other: true });
  });

  await t.test('only the last choice is shown when answers cross', async () => {
    const f = fakePositions();
    const r = new Replay(f.positionAt);
    const older = r.fetch(1, moves);
    const newer = r.fetch(2, moves);
    f.asked[1].resolve({ ply: 2 });
    f.asked[0].resolve({ ply: 1 });
    assert.equal(await older, null);
    assert.deepEqual(await newer, { ply: 2 });
  });

  await t.test('the error of an overtaken fetch is dropped', async () => {
    const f = fakePositions();
    const r = new Replay(f.positionAt);
    const older = r.fetch(1, moves);
    const newer = r.fetch(2, moves);
    f.asked[0].reject(new Error('gone'));
    f.asked[1].resolve({ ply: 2 });
    assert.equal(await older, null);
    assert.deepEqual(await newer, { ply: 2 });
  });

  await t.test('the error of the last choice is thrown', async () => {
    const f = fakePositions();
    const r = new Replay(f.positionAt);
    const p = r.fetch(1, moves);
    f.asked[0].reject(new Error('no such game'));
    await assert.rejects(p, /no such game/);
    assert.equal(r.pending, null);
  });

  await t.test('steps count from the position on its way', () => {
    const r = new Replay(fakePositions().positionAt);
    assert.equal(r.target('prev', 4), 3);
    r.fetch(3, moves);
    assert.equal(r.target('prev', 4), 2);
    r.view = { ply: 1, data: {} };
    assert.equal(r.target('next', 4), 4);
  });

  await t.test('going live drops the view and the position on its way', async () => {
    const f = fakePositions();
    const r = new Replay(f.positionAt);
    r.view = { ply: 1, data: {} };
    const p = r.fetch(2, moves);
    assert.deepEqual(r.live(), { ply: 1, data: {} });
    f.asked[0].resolve({ ply: 2 });
    assert.equal(await p, null);
    assert.equal(r.view, null);
    assert.equal(r.pending, null);
    assert.equal(r.live(), null);
  });

  await t.test('a view past the end after a take-back is dropped', () => {
    const r = new Replay(fakePositions().positionAt);
    r.view = { ply: 3, data: {} };
    r.fit(4);
    assert.equal(r.shown(4), 3);
    r.fit(3);
    assert.equal(r.view, null);
    assert.equal(r.shown(3), 3);
  });
});
