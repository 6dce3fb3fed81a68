import assert from 'node:assert/strict';
import { test } from 'node:test';

import { moveNumber, moveParts, normalizeMove, parseMove, parseSquare, squareName } from '../notation.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('parseMove', async (t) => {
  const cases = [
    { name: 'entry', text: 'e5', want: { kind: 'entry', squares: ['e5'], text: 'e5' } },
    { name: 'entry with @', text: '@e5', want: { kind: 'entry', squares: ['e5'], text: 'e5' } },
    { name: 'step', text: 'c3-d4', want: { kind: 'step', squares: ['c3', 'd4'], text: 'c3-d4' } },
    { name: 'capture', text: 'c3xe5', want: { kind: 'capture', squares: ['c3', 'e5'], text: 'c3xe5' } },
    {
      name: 'multi-jump capture', text: 'c1xe3xg5xi7',
      want: { kind: 'capture', squares: ['c1', 'e3', 'g5', 'i7'], text: 'c1xe3xg5xi7' },
    },
    { name: 'upper case and spaces', text: '  C3-D4 ', want: { kind: 'step', squares: ['c3', 'd4'], text: 'c3-d4' } },
    { name: 'off the board file', text: 'j5', want: null },
    { name: 'rank 0', text: 'a0', want: null },
    { name: 'step of three squares', text: 'c3-d4-e5', want: null },
    { name: 'mixed separators', text: 'c3xe5-g7', want: null },
    { name: 'capture without a landing', text: 'c3x', want: null },
    { name: 'empty', text: '', want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(parseMove(c.text), c.want));
  }
});

test('normalizeMove', async (t) => {
  const cases = [
    { name: 'as typed', text: 'c3-d4', want: 'c3-d4' },
    { name: 'trimmed and lower case', text: ' C3XE5\t', want: 'c3xe5' },
    { name: 'entry mark dropped', text: '@E5', want: 'e5' },
    { name: 'nonsense kept for the server to refuse', text: 'Hello', want: 'hello' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(normalizeMove(c.text), c.want));
  }
});

test('squares', async (t) => {
  await t.test('name and parse round-trip', () => {
    for (let f = 0; f < 9; f++) {
      for (let r = 0; r < 9; r++) assert.deepEqual(parseSquare(squareName(f, r)), { f, r });
    }
  });
  await t.test('not a square', () => {
    for (const s of ['j1', 'a10', 'a', '', 'A1']) assert.equal(parseSquare(s), null, s);
  });
});

test('moveParts break after each separator', () => {
  assert.deepEqual(moveParts('c1xe3xg5'), ['c1x', 'e3x', 'g5']);
  assert.deepEqual(moveParts('c3-d4'), ['c3-', 'd4']);
  assert.deepEqual(moveParts('e5'), ['e5']);
});

test('moveNumber', () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(moveNumber), [1, 1, 2, 2, 3]);
});
