import assert from 'node:assert/strict';
import { test } from 'node:test';

import { keepLine, startTurn, whiteShare } from '../enginepanel.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('whiteShare', async (t) => {
  const cases = [
    { name: 'level', line: { score: 0 }, turn: 'white', want: 50 },
    { name: 'White a man ahead', line: { score: 100 }, turn: 'white', want: 73 },
    { name: 'Black to move, a man ahead', line: { score: 100 }, turn: 'black', want: 27 },
    { name: 'far ahead, not yet all', line: { score: 900 }, turn: 'white', want: 100 },
    { name: 'White wins by force', line: { score: 29990, mate: 3 }, turn: 'white', want: 100 },
    { name: 'Black to move is mated', line: { score: -29990, mate: -2 }, turn: 'black', want: 100 },
    { name: 'White to move is mated', line: { score: -29990, mate: -1 }, turn: 'white', want: 0 },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(Math.round(whiteShare(c.line, c.turn)), c.want));
  }
  assert.ok(whiteShare({ score: 900 }, 'white') < 100, 'only a forced win fills the bar');
});

test('keepLine', async (t) => {
  const line = (depth, multipv, final = false) => ({ depth, multipv, final, pv: [`m${depth}.${multipv}`] });
  const cases = [
    { name: 'the first line', reports: [line(1, 1)], want: ['m1.1'] },
    { name: 'the lines of an iteration', reports: [line(3, 1), line(3, 2), line(3, 3)], want: ['m3.1', 'm3.2', 'm3.3'] },
    { name: 'a new iteration starts over', reports: [line(3, 1), line(3, 2), line(4, 1)], want: ['m4.1'] },
    { name: 'and fills again', reports: [line(3, 1), line(3, 2), line(4, 1), line(4, 2)], want: ['m4.1', 'm4.2'] },
    { name: 'the result\'s lines replace the last iteration\'s', reports: [line(5, 1), line(5, 2), line(5, 1, true), line(5, 2, true)], want: ['m5.1', 'm5.2'] },
    { name: 'a late line of an older iteration is dropped', reports: [line(5, 1), line(4, 2)], want: ['m5.1'] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      let lines = [];
      for (const r of c.reports) lines = keepLine(lines, r);
      assert.deepEqual(lines.map((l) => l.pv[0]), c.want);
    });
  }
});

test('startTurn', () => {
  assert.equal(startTurn('9x9 w 12/12 -'), 'white');
  assert.equal(startTurn('7x7 b 0/0 d4:B8w8'), 'black');
  assert.equal(startTurn(''), 'white');
});
