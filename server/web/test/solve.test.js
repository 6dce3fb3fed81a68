import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  THEMES, howText, instruction, isLast, isRight, nextQuery, puzzleFacts, ratingLine, readFilters, solutionPlies, solverMoves,
  themeName, wrongLines,
} from '../solve.js';
import { inLanguage } from './lang.js';

inLanguage('en');

// A puzzle as GET /api/puzzles/next gives it, its views left out.
const puzzle = {
  id: '9-0123456789',
  size: 9,
  themes: ['majority', 'freeing'],
  rating: 1240,
  plays: 3,
  solver: 'black',
  line: [
    { move: 'd8xb6xd4', accept: ['d8xb6xd4', 'd8xf6xd4'] },
    { move: 'c3xe5', accept: ['c3xe5'] },
    { move: 'd4-c3', accept: ['d4-c3'] },
  ],
  you: { rating: 1500, deviation: 350, provisional: true, games: 0 },
};

test('filters', async (t) => {
  const cases = [
    { name: 'the defaults', filters: { size: 9, theme: '' }, after: '', want: '?size=9' },
    { name: 'a theme', filters: { size: 7, theme: 'shadow' }, after: '', want: '?size=7&theme=shadow' },
    { name: 'after a puzzle', filters: { size: 9, theme: '' }, after: '9-0123456789', want: '?size=9&after=9-0123456789' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(nextQuery(c.filters, c.after), c.want));
  }
  const reads = [
    { search: '', want: { size: 9, theme: '' } },
    { search: '?size=7&theme=win', want: { size: 7, theme: 'win' } },
    { search: '?size=8&theme=fork', want: { size: 9, theme: '' } },
  ];
  for (const r of reads) {
    await t.test(`read ${r.search || 'nothing'}`, () => assert.deepEqual(readFilters(r.search), r.want));
  }
});

test('the moves', () => {
  assert.equal(isRight(puzzle, 0, 'd8xb6xd4'), true);
  assert.equal(isRight(puzzle, 0, 'd8xf6xd4'), true, 'another path to the same position');
  assert.equal(isRight(puzzle, 0, 'd8-c7'), false);
  assert.deepEqual(solverMoves(puzzle, 0), []);
  assert.deepEqual(solverMoves(puzzle, 2), ['d8xb6xd4']);
  assert.deepEqual(solverMoves(puzzle, 3), ['d8xb6xd4', 'd4-c3']);
  assert.equal(isLast(puzzle, 0), false);
  assert.equal(isLast(puzzle, 2), true);
  assert.deepEqual(solutionPlies(puzzle).map((p) => [p.ply, p.move, p.solver]),
    [[1, 'd8xb6xd4', true], [2, 'c3xe5', false], [3, 'd4-c3', true]]);
});

test('what the page says', async (t) => {
  await t.test('the instruction', () => {
    assert.equal(instruction(puzzle, 0), 'Black to play: find the move that wins.');
    assert.equal(instruction({ ...puzzle, solver: 'white' }, 0), 'White to play: find the move that wins.');
    assert.equal(instruction(puzzle, 2), 'Keep going: find the next move.');
  });
  const wrong = [
    {
      name: 'a refutation with its score',
      w: { move: 'd8-c7', best: 'd8xb6xd4', refutation: ['c3xe5', 'c7-d6'], score: -180, mate: 0 },
      want: ['The winning move was d8xb6xd4.', 'After yours the engine plays on: c3xe5 c7-d6.', 'It scores the position −1.80 for you.'],
    },
    {
      name: 'a forced loss',
      w: { move: 'd8-c7', best: 'd8xb6xd4', refutation: ['c3xe5'], score: -29995, mate: -2 },
      want: ['The winning move was d8xb6xd4.', 'After yours the engine plays on: c3xe5.', 'Your opponent wins by force (in 2).'],
    },
    {
      name: 'no refutation: the engine was busy',
      w: { move: 'd8-c7', best: 'd8xb6xd4', refutation: [], score: 0, mate: 0 },
      want: ['The winning move was d8xb6xd4.'],
    },
  ];
  for (const c of wrong) {
    await t.test(c.name, () => assert.deepEqual(wrongLines(c.w), c.want));
  }
  await t.test('the ratings', () => {
    assert.equal(ratingLine({ rated: true, diff: 23, you: { rating: 1523, deviation: 290, provisional: true } }),
      'Your puzzle rating: 1523? ±290 (+23).');
    assert.equal(ratingLine({ rated: false, diff: 0, you: { rating: 1480, deviation: 80, provisional: false } }),
      'Not rated, as you tried this puzzle before: your puzzle rating stays 1480 ±80.');
    assert.deepEqual(puzzleFacts(puzzle, false), ['Puzzle rated 1240, tried 3 times.']);
    assert.deepEqual(puzzleFacts({ ...puzzle, plays: 1 }, true), ['Puzzle rated 1240, tried once.', 'Themes: Majority rule, Freeing prisoners.']);
    assert.deepEqual(puzzleFacts({ ...puzzle, themes: [] }, true), ['Puzzle rated 1240, tried 3 times.', 'No theme.']);
  });
  await t.test('every theme named', () => {
    for (const th of THEMES) assert.notEqual(themeName(th), th);
  });
});

test('in Russian', () => {
  inLanguage('ru');
  try {
    assert.equal(wrongLines({ move: 'a', best: 'b', refutation: ['c'], score: 0, mate: -5 })[2], 'Противник выигрывает форсированно за 5 ходов.');
    assert.equal(themeName('shadow'), 'Теневая башня');
  } finally {
    inLanguage('en');
  }
});

test('howText', async (t) => {
  const cases = [
    { name: 'men in the solver\'s hand', view: { hands: { white: 2, black: 0 } }, solver: 'white', enter: true },
    { name: 'both hands empty', view: { hands: { white: 0, black: 0 } }, solver: 'white', enter: false },
    { name: 'only the opponent holds men', view: { hands: { white: 0, black: 3 } }, solver: 'white', enter: false },
    { name: 'Black to solve, with men', view: { hands: { white: 0, black: 1 } }, solver: 'black', enter: true },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(howText(c.view, c.solver).includes('enter a man'), c.enter));
  }
});
