import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_MOVES, explorerQuery, lineAfter, readQuery, shares } from '../opening.js';

test('readQuery', async (t) => {
  const cases = [
    { name: 'nothing', search: '', want: { size: 9, moves: [] } },
    { name: 'a 7x7 line', search: '?size=7&moves=c3,e5,a1', want: { size: 7, moves: ['c3', 'e5', 'a1'] } },
    { name: 'steps and captures', search: '?moves=c3-d4,e5xc3xa5', want: { size: 9, moves: ['c3-d4', 'e5xc3xa5'] } },
    { name: 'commas escaped', search: '?size=9&moves=c3%2Cg7', want: { size: 9, moves: ['c3', 'g7'] } },
    { name: 'upper case and spaces', search: '?moves=C3,%20g7', want: { size: 9, moves: ['c3', 'g7'] } },
    { name: 'another size is 9', search: '?size=8&moves=c3', want: { size: 9, moves: ['c3'] } },
    { name: 'the list ends at what is no move', search: '?moves=c3,,g7', want: { size: 9, moves: ['c3'] } },
    { name: 'no move at all', search: '?moves=<b>', want: { size: 9, moves: [] } },
    {
      name: 'read to the most moves the explorer takes',
      search: `?moves=${Array(MAX_MOVES + 5).fill('a1').join(',')}`,
      want: { size: 9, moves: Array(MAX_MOVES).fill('a1') },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(readQuery(c.search), c.want));
  }
});

test('explorerQuery reads back', async (t) => {
  const cases = [
    { name: 'the start', pos: { size: 9, moves: [] }, want: 'size=9' },
    { name: 'a line', pos: { size: 7, moves: ['c3', 'e5xc3'] }, want: 'size=7&moves=c3,e5xc3' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(explorerQuery(c.pos), c.want);
      assert.deepEqual(readQuery(`?${c.want}`), c.pos);
    });
  }
});

test('lineAfter', async (t) => {
  const line = ['c3', 'g7', 'a1'];
  const cases = [
    { name: 'the move the line goes on with keeps it', ply: 1, move: 'g7', want: line },
    { name: 'another move cuts it', ply: 1, move: 'e7', want: ['c3', 'e7'] },
    { name: 'at its end, it grows', ply: 3, move: 'i9', want: ['c3', 'g7', 'a1', 'i9'] },
    { name: 'from the start', ply: 0, move: 'a1', want: ['a1'] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(lineAfter(line, c.ply, c.move), c.want));
  }
});

test('shares', async (t) => {
  const cases = [
    { name: 'none', m: { white: 0, draws: 0, black: 0 }, want: { white: 0, draws: 0, black: 0 } },
    { name: 'exact', m: { white: 1, draws: 2, black: 1 }, want: { white: 25, draws: 50, black: 25 } },
    { name: 'thirds add up to 100', m: { white: 1, draws: 1, black: 1 }, want: { white: 34, draws: 33, black: 33 } },
    { name: 'the largest remainder rounds up', m: { white: 2, draws: 1, black: 4 }, want: { white: 29, draws: 14, black: 57 } },
    { name: 'equal remainders: the first rounds up', m: { white: 40, draws: 4, black: 16 }, want: { white: 67, draws: 7, black: 26 } },
    { name: 'one side only', m: { white: 0, draws: 0, black: 3 }, want: { white: 0, draws: 0, black: 100 } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = shares(c.m);
      assert.deepEqual(got, c.want);
      if (c.m.white + c.m.draws + c.m.black > 0) assert.equal(got.white + got.draws + got.black, 100);
    });
  }
});
