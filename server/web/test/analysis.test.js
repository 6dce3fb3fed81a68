import assert from 'node:assert/strict';
import { test } from 'node:test';

import { bestLine, scoreText, searchFacts, tableText } from '../analysis.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('scoreText', async (t) => {
  const cases = [
    { name: 'White to move and better', a: { score: 80 }, turn: 'white', want: { head: '+0.80', note: 'White is better.' } },
    { name: 'Black to move and better: shown from White\'s side', a: { score: 80 }, turn: 'black', want: { head: '−0.80', note: 'Black is better.' } },
    { name: 'within the margin', a: { score: 25 }, turn: 'white', want: { head: '+0.25', note: 'About level.' } },
    { name: 'just past the margin', a: { score: -26 }, turn: 'white', want: { head: '−0.26', note: 'Black is better.' } },
    { name: 'no score', a: {}, turn: 'black', want: { head: '0.00', note: 'About level.' } },
    { name: 'White mates', a: { mate: 3, score: 99999 }, turn: 'white', want: { head: '#+3', note: 'White wins by force (in 3).' } },
    { name: 'Black to move mates', a: { mate: 2 }, turn: 'black', want: { head: '#−2', note: 'Black wins by force (in 2).' } },
    { name: 'White to move is mated', a: { mate: -4 }, turn: 'white', want: { head: '#−4', note: 'Black wins by force (in 4).' } },
    { name: 'Black to move is mated', a: { mate: -1 }, turn: 'black', want: { head: '#+1', note: 'White wins by force (in 1).' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(scoreText(c.a, c.turn), c.want));
  }
});

// words renders bestLine as text: numbers as they are, the best move in *stars*.
const words = (line) => line.map((w) => w.number ?? (w.best ? `*${w.move}*` : w.move)).join(' ');

test('bestLine', async (t) => {
  const cases = [
    { name: 'from the start', a: { pv: ['e5', 'c3', 'e5-d6'] }, ply: 0, first: 'white', want: '1. *e5* c3 2. e5-d6' },
    { name: 'Black to move', a: { pv: ['g5', 'e5', 'c7'] }, ply: 3, first: 'white', want: '2… *g5* 3. e5 c7' },
    { name: 'a game that Black began', a: { pv: ['c3', 'e5'] }, ply: 0, first: 'black', want: '1… *c3* 2. e5' },
    { name: 'best move without a line', a: { best: 'a1', pv: [] }, ply: 2, first: 'white', want: '2. *a1*' },
    { name: 'nothing to play', a: { pv: [] }, ply: 9, first: 'white', want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(words(bestLine(c.a, c.ply, c.first)), c.want));
  }
});

test('searchFacts', async (t) => {
  await t.test('depth alone', () => assert.equal(searchFacts({ depth: 8 }), 'depth 8'));
  await t.test('depth and nodes', () => assert.match(searchFacts({ depth: 8, nodes: 42 }), /^depth 8 · 42 nodes$/));
  await t.test('nothing', () => assert.equal(searchFacts({}), ''));
});

test('tableText', async (t) => {
  await t.test('solved, the end plies away', () => assert.equal(tableText({ outcome: -1, plies: 24 }), 'Endgame table: solved, the game ends in 24 plies.'));
  await t.test('one ply', () => assert.equal(tableText({ outcome: 1, plies: 1 }), 'Endgame table: solved, the game ends in 1 ply.'));
  await t.test('a draw', () => assert.equal(tableText({ outcome: 0, plies: 0 }), 'Endgame table: solved, a draw.'));
});
