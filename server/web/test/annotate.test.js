import assert from 'node:assert/strict';
import { test } from 'node:test';

import { chances, evalPoints, evalText, judge, overEval, whiteEval } from '../annotate.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('whiteEval', async (t) => {
  await t.test('White to move', () => assert.deepEqual(whiteEval({ score: 35, mate: 0 }, 'white'), { score: 35, mate: 0 }));
  await t.test('Black to move', () => assert.deepEqual(whiteEval({ score: 35, mate: 2 }, 'black'), { score: -35, mate: -2 }));
});

test('chances', async (t) => {
  await t.test('level', () => assert.equal(chances({ score: 0, mate: 0 }), 0));
  await t.test('a forced win', () => assert.equal(chances({ score: 0, mate: -3 }), -1));
  await t.test('grow with the score', () => assert.ok(chances({ score: 300 }) > chances({ score: 100 })));
  await t.test('a finished game', () => assert.equal(chances(overEval('1-0')), 1));
});

test('judge', async (t) => {
  const cases = [
    { name: 'a good move', before: { score: 20 }, after: { score: 10 }, mover: 'white', want: null },
    { name: 'an inaccuracy', before: { score: 0 }, after: { score: -60 }, mover: 'white', want: '?!' },
    { name: 'a mistake', before: { score: 0 }, after: { score: -120 }, mover: 'white', want: '?' },
    { name: 'a blunder', before: { score: 0 }, after: { score: -250 }, mover: 'white', want: '??' },
    { name: "Black's blunder is White's gain", before: { score: 0 }, after: { score: 250 }, mover: 'black', want: '??' },
    { name: 'a gain is no mistake', before: { score: 0 }, after: { score: 250 }, mover: 'white', want: null },
    { name: 'a forced win thrown away', before: { score: 0, mate: 3 }, after: { score: 50 }, mover: 'white', want: '??' },
    { name: 'still lost', before: { score: 0, mate: -3 }, after: { score: 0, mate: -2 }, mover: 'white', want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(judge(c.before, c.after, c.mover)?.mark ?? null, c.want));
  }
});

test('evalText', async (t) => {
  const cases = [
    { name: 'a score', e: { score: 35, mate: 0 }, want: '+0.35' },
    { name: 'a forced win of Black', e: { score: 0, mate: -2 }, want: '#−2' },
    { name: 'the end', e: overEval('0-1'), want: '0-1' },
    { name: 'a draw', e: overEval('1/2-1/2'), want: '½-½' },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(evalText(c.e), c.want));
});

test('evalPoints', async (t) => {
  const c = { width: 110, height: 100, pad: 5 };
  await t.test('across and up', () => assert.deepEqual(evalPoints([{ score: 0 }, null, { mate: 1 }], c), [
    { ply: 0, x: 5, y: 50 }, { ply: 2, x: 105, y: 5 },
  ]));
  await t.test('one position', () => assert.deepEqual(evalPoints([{ mate: -1 }], c), [{ ply: 0, x: 5, y: 95 }]));
});
