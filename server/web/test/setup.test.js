import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  clearPosition, formatPosition, menOnBoard, parsePosition, PositionTextError, placed, problems, resized, squaresOf, startPosition,
} from '../setup.js';

test('position text round trip', async (t) => {
  // The examples of docs/notation.md, canonical as FormatPosition writes them.
  const texts = [
    '9x9 w 12/12 -',
    '7x7 w 8/8 -',
    '9x9 b 11/12 c3:W1',
    '9x9 w 5/4 c1:W1 g1:W1 d2:B1 f2:W1 a3:W1 f4:B1 b6:B1 f6:W1b1 h6:B1 f8:B1 h8:B1 a9:W1 c9:W1 i9:B1',
    '9x9 b 0/2 a1:W9 e5:W1 h8:B10w2',
    '9x9 w 0/0 a1:W7b7 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1',
  ];
  for (const text of texts) {
    await t.test(text, () => assert.equal(formatPosition(parsePosition(text)), text));
  }
});

test('parsePosition', async (t) => {
  await t.test('columns in any order, with commas', () =>
    assert.equal(formatPosition(parsePosition(' 9x9  b 0/2 h8:B10w2, e5:W1 a1:W9 ')), '9x9 b 0/2 a1:W9 e5:W1 h8:B10w2'));
  await t.test('what it reads', () => assert.deepEqual(parsePosition('7x7 b 3/0 c5:B2w1'), {
    size: 7, turn: 'black', hands: { white: 3, black: 0 }, board: [{ square: 'c5', owner: 'black', top: 2, prisoners: 1 }],
  }));
  const bad = [
    { name: 'empty', text: '', key: 'setup.text_form' },
    { name: 'no columns', text: '9x9 w 12/12', key: 'setup.text_form' },
    { name: 'size', text: '8x8 w 12/12 -', key: 'setup.text_size' },
    { name: 'side', text: '9x9 x 12/12 -', key: 'setup.text_side' },
    { name: 'hands', text: '9x9 w 12-12 -', key: 'setup.text_hands' },
    { name: 'leading zero', text: '9x9 w 012/12 -', key: 'setup.text_hands' },
    { name: 'a column', text: '9x9 w 0/0 d4W3', key: 'setup.text_column' },
    { name: 'prisoners of the owner', text: '9x9 w 0/0 d4:W3w1', key: 'setup.text_column' },
    { name: 'a dash with columns', text: '9x9 w 0/0 - d4:W3', key: 'setup.text_column' },
  ];
  for (const c of bad) {
    await t.test(`refuses ${c.name}`, () => assert.throws(() => parsePosition(c.text),
      (e) => e instanceof PositionTextError && e.key === c.key));
  }
});

test('problems', async (t) => {
  const cases = [
    { name: 'the start', text: '9x9 w 12/12 -', want: [] },
    { name: 'fewer men than the game has', text: '9x9 w 0/0 a1:W7b7 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1', want: [] },
    { name: 'all the men of 7x7', text: '7x7 b 0/0 a1:W8b8', want: [] },
    {
      name: 'more white men than the game has', text: '7x7 w 5/0 a1:W3 c1:B1w1',
      want: [{ key: 'setup.too_many_white', params: { board: 4, hand: 5, n: 8 } }],
    },
    {
      name: 'prisoners count for their colour', text: '9x9 w 0/1 a1:W1b12',
      want: [{ key: 'setup.too_many_black', params: { board: 12, hand: 1, n: 12 } }],
    },
    { name: 'a hand too large', text: '7x7 w 9/0 -', want: [{ key: 'setup.hand_white', params: { n: 8 } }] },
    { name: 'a square off the 7x7 board', text: '7x7 w 0/0 i9:B1', want: [{ key: 'setup.off_board', params: { square: 'i9', size: 7 } }] },
    { name: 'a light square', text: '9x9 w 0/0 e6:B1', want: [{ key: 'setup.light_square', params: { square: 'e6' } }] },
    { name: 'a square given twice', text: '9x9 w 0/0 e5:B1 e5:W1', want: [{ key: 'setup.twice', params: { square: 'e5' } }] },
    { name: 'no man on top', text: '9x9 w 0/0 e5:B0w1', want: [{ key: 'setup.no_top', params: { square: 'e5' } }] },
    {
      name: 'a column too tall', text: '7x7 w 0/0 e5:B9',
      want: [{ key: 'setup.column_too_tall', params: { square: 'e5', n: 8 } }, { key: 'setup.too_many_black', params: { board: 9, hand: 0, n: 8 } }],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(problems(parsePosition(c.text)), c.want));
  }
});

test('menOnBoard', () =>
  assert.deepEqual(menOnBoard(parsePosition('9x9 w 3/4 a1:W7b7 d4:W3 c5:B2w2 e5:B1')), { white: 12, black: 10 }));

test('editing', async (t) => {
  await t.test('startPosition', () => assert.equal(formatPosition(startPosition(7)), '7x7 w 8/8 -'));
  await t.test('clearPosition', () => assert.equal(formatPosition(clearPosition(9)), '9x9 w 0/0 -'));
  await t.test('placing keeps the order', () => {
    let p = clearPosition(9);
    p = placed(p, 'e5', { owner: 'black', top: 2, prisoners: 1 });
    p = placed(p, 'a1', { owner: 'white', top: 1, prisoners: 0 });
    assert.equal(formatPosition(p), '9x9 w 0/0 a1:W1 e5:B2w1');
  });
  await t.test('placing replaces, null empties', () => {
    let p = parsePosition('9x9 w 0/0 a1:W1 e5:B2w1');
    p = placed(p, 'e5', { owner: 'white', top: 1, prisoners: 0 });
    p = placed(p, 'a1', null);
    assert.equal(formatPosition(p), '9x9 w 0/0 e5:W1');
  });
  await t.test('resized drops the columns off the board and cuts the hands', () =>
    assert.equal(formatPosition(resized(parsePosition('9x9 b 12/3 a1:W1 i9:B1 g7:W1'), 7)), '7x7 b 8/3 a1:W1 g7:W1'));
  await t.test('squaresOf 7x7', () => {
    const s = squaresOf(7);
    assert.deepEqual([s.length, s[0], s[1], s[4], s[s.length - 1]], [25, 'a1', 'c1', 'b2', 'g7']);
  });
});
