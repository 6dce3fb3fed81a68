import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  isMain, lastOf, listing, mainLine, movesTo, movetext, newTree, numbering, order, play, plyOf, promote,
  readMovetext, remove, tokens, TreeTextError,
} from '../tree.js';

/** build plays each line of moves from the root of a new tree. */
function build(...lines) {
  const root = newTree();
  for (const line of lines) line.split(' ').reduce((n, m) => play(n, m), root);
  return root;
}

/** at is the node after the moves from root. */
const at = (root, moves) => moves.split(' ').reduce((n, m) => n.children.find((c) => c.move === m), root);

/** shown writes a listing as the move list reads: numbers, moves, variations in ( ). */
const shown = (items) => items.map((it) => [it.number, it.node.move, ...it.variations.map((v) => `(${shown(v)})`)]
  .filter(Boolean).join(' ')).join(' ');

test('play', async (t) => {
  await t.test('a new move is the main continuation, the next a variation', () => {
    const root = build('c3 d4', 'e5');
    assert.deepEqual(root.children.map((c) => c.move), ['c3', 'e5']);
  });
  await t.test('a move played again is the same node', () => {
    const root = newTree();
    assert.equal(play(root, 'c3'), play(root, 'c3'));
    assert.equal(root.children.length, 1);
  });
});

test('paths', async (t) => {
  const root = build('c3 d4 e5', 'c3 f6 g7');
  const g7 = at(root, 'c3 f6 g7');
  await t.test('movesTo', () => assert.deepEqual(movesTo(g7), ['c3', 'f6', 'g7']));
  await t.test('plyOf', () => assert.equal(plyOf(g7), 3));
  await t.test('mainLine', () => assert.deepEqual(mainLine(root).map((n) => n.move), ['c3', 'd4', 'e5']));
  await t.test('lastOf', () => assert.equal(lastOf(at(root, 'c3 f6')), g7));
  await t.test('isMain of the main line', () => assert.equal(isMain(at(root, 'c3 d4 e5')), true));
  await t.test('isMain of a variation', () => assert.equal(isMain(g7), false));
});

test('promote', async (t) => {
  const cases = [
    { name: 'a variation becomes the main line', lines: ['c3 d4 e5', 'c3 f6 g7'], node: 'c3 f6 g7', want: 'c3 f6 (d4 e5) g7', moved: true },
    { name: 'the main line stays', lines: ['c3 d4', 'c3 f6'], node: 'c3 d4', want: 'c3 d4 (f6)', moved: false },
    { name: 'a nested variation rises one level', lines: ['a1 b2 c3', 'a1 d4 e5', 'a1 d4 f6'], node: 'a1 d4 f6', want: 'a1 b2 (d4 f6 (e5)) c3', moved: true },
    { name: 'the third of three goes first', lines: ['a1', 'c1', 'e1'], node: 'e1', want: 'e1 (a1) (c1)', moved: true },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const root = build(...c.lines);
      assert.equal(promote(at(root, c.node)), c.moved);
      assert.equal(movetext(root), c.want);
    });
  }
});

test('remove', async (t) => {
  await t.test('a variation goes with what follows it', () => {
    const root = build('c3 d4 e5', 'c3 f6 g7');
    const back = remove(at(root, 'c3 f6'));
    assert.equal(back, at(root, 'c3'));
    assert.equal(movetext(root), 'c3 d4 e5');
  });
  await t.test('removing a main move makes the next variation main', () => {
    const root = build('c3 d4 e5', 'c3 f6 g7');
    remove(at(root, 'c3 d4'));
    assert.equal(movetext(root), 'c3 f6 g7');
  });
  await t.test('the root stays', () => {
    const root = build('c3');
    assert.equal(remove(root), root);
  });
});

test('numbering', async (t) => {
  const cases = [
    { name: "White's first", ply: 0, first: 'white', want: { number: 1, white: true } },
    { name: "Black's first", ply: 1, first: 'white', want: { number: 1, white: false } },
    { name: 'move 2', ply: 2, first: 'white', want: { number: 2, white: true } },
    { name: 'a game Black began', ply: 0, first: 'black', want: { number: 1, white: false } },
    { name: 'and its second move', ply: 1, first: 'black', want: { number: 2, white: true } },
  ];
  for (const c of cases) await t.test(c.name, () => assert.deepEqual(numbering(c.ply, c.first), c.want));
});

test('listing', async (t) => {
  const cases = [
    { name: 'empty', lines: [], want: '' },
    { name: 'a main line', lines: ['c3 d4 e5'], want: '1. c3 d4 2. e5' },
    { name: "a variation of Black's move", lines: ['c3 d4 e5', 'c3 f6 g7'], want: '1. c3 d4 (1… f6 2. g7) 2. e5' },
    { name: "a variation of White's move", lines: ['c3 d4 e5', 'c3 d4 f6 g7'], want: '1. c3 d4 2. e5 (2. f6 g7)' },
    { name: 'Black after a variation is numbered', lines: ['c3 d4 e5 f6', 'c3 d4 g7'], want: '1. c3 d4 2. e5 (2. g7) 2… f6' },
    { name: 'a variation inside a variation', lines: ['a1 b2 c3', 'a1 d4 e5', 'a1 d4 f6'], want: '1. a1 b2 (1… d4 2. e5 (2. f6)) 2. c3' },
    { name: 'a game Black began', lines: ['c3 d4'], first: 'black', want: '1… c3 2. d4' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(shown(listing(build(...c.lines), c.first)), c.want));
  }
  await t.test('items know their ply', () => {
    const items = listing(build('c3 d4', 'c3 f6'));
    assert.deepEqual([items[0].ply, items[1].ply, items[1].variations[0][0].ply], [1, 2, 2]);
  });
});

test('movetext', async (t) => {
  const cases = [
    { name: 'empty', lines: [], want: '' },
    { name: 'a main line', lines: ['c3 d4 e5'], want: 'c3 d4 e5' },
    { name: 'variations', lines: ['c3 d4 e5', 'c3 f6 g7', 'c3 a1'], want: 'c3 d4 (f6 g7) (a1) e5' },
    { name: 'nested', lines: ['a1 b2 c3', 'a1 d4 e5', 'a1 d4 f6'], want: 'a1 b2 (d4 e5 (f6)) c3' },
    { name: 'a first move replaced', lines: ['a1 b2', 'c1'], want: 'a1 (c1) b2' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const root = build(...c.lines);
      const text = movetext(root);
      assert.equal(text, c.want);
      assert.equal(movetext(readMovetext(tokens(text))), text, 'read back');
    });
  }
});

test('order follows movetext', () => {
  const root = build('c3 d4 e5', 'c3 f6 g7', 'c3 a1');
  assert.deepEqual(order(root).map((n) => n.move), tokens(movetext(root)).filter((w) => w !== '(' && w !== ')'));
});

test('readMovetext refuses', async (t) => {
  const cases = [
    { name: 'a variation before any move', text: '(c3) d4', problem: 'variation' },
    { name: 'an unclosed variation', text: 'c3 (d4', problem: 'unbalanced' },
    { name: 'a stray close', text: 'c3 ) d4', problem: 'unbalanced' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.throws(() => readMovetext(tokens(c.text)),
      (e) => e instanceof TreeTextError && e.problem === c.problem));
  }
});
