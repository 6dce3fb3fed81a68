import assert from 'node:assert/strict';
import { test } from 'node:test';

import { keyTarget } from '../board-page.js';
import { newTree, play } from '../tree.js';

test('keyTarget', async (t) => {
  // 1. c3 d4 (1… e5 2. f6) 2. g7
  const root = newTree();
  const c3 = play(root, 'c3');
  const d4 = play(c3, 'd4');
  const g7 = play(d4, 'g7');
  const e5 = play(c3, 'e5');
  const f6 = play(e5, 'f6');
  const cases = [
    { name: 'right from the start', key: 'ArrowRight', from: root, want: c3 },
    { name: 'right along the main line', key: 'ArrowRight', from: c3, want: d4 },
    { name: 'right along a variation', key: 'ArrowRight', from: e5, want: f6 },
    { name: 'right at the end', key: 'ArrowRight', from: g7, want: null },
    { name: 'left', key: 'ArrowLeft', from: f6, want: e5 },
    { name: 'left at the start', key: 'ArrowLeft', from: root, want: null },
    { name: 'down to the variation', key: 'ArrowDown', from: d4, want: e5 },
    { name: 'up to the main line', key: 'ArrowUp', from: e5, want: d4 },
    { name: 'up from the main line', key: 'ArrowUp', from: d4, want: null },
    { name: 'home', key: 'Home', from: f6, want: root },
    { name: 'home at the start', key: 'Home', from: root, want: null },
    { name: 'end along the line', key: 'End', from: e5, want: f6 },
    { name: 'end from the start', key: 'End', from: root, want: g7 },
    { name: 'end at the end', key: 'End', from: g7, want: null },
    { name: 'another key', key: 'x', from: c3, want: null },
  ];
  for (const c of cases) await t.test(c.name, () => assert.equal(keyTarget(c.key, c.from), c.want));
});
