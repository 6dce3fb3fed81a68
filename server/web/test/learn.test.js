import assert from 'node:assert/strict';
import { test } from 'node:test';

import { anyMoveClick, diagonal, jumpsOn } from '../anymove.js';
import { headline, ruleHref, verdict } from '../feedback.js';
import { Progress, STORAGE_KEY } from '../progress.js';
import { inLanguage } from './lang.js';

inLanguage('en');

// memory is a localStorage kept in a Map; refuse makes it throw as a
// private window's may.
function memory(refuse = false) {
  const m = new Map();
  return {
    map: m,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => {
      if (refuse) throw new Error('QuotaExceededError');
      m.set(k, String(v));
    },
    removeItem: (k) => m.delete(k),
  };
}

const lesson = (id, n) => ({ id, exercises: Array.from({ length: n }, () => ({})) });

test('progress', async (t) => {
  await t.test('kept and read again', () => {
    const s = memory();
    const p = new Progress(s);
    const a = lesson('entering', 2);
    const b = lesson('feeding', 2);
    assert.equal(p.lessonDone(a), false);
    assert.equal(p.firstOpen(a), 0);
    p.mark('entering', 0);
    assert.equal(p.firstOpen(a), 1);
    p.mark('entering', 1);
    p.mark('feeding', 1);
    assert.equal(s.getItem(STORAGE_KEY), '{"entering":[0,1],"feeding":[1]}');
    const again = new Progress(s);
    assert.equal(again.lessonDone(a), true);
    assert.equal(again.lessonDone(b), false);
    assert.equal(again.exerciseDone('feeding', 1), true);
    assert.equal(again.lessonsDone([a, b]), 1);
    assert.equal(again.firstOpen(a), 0, 'a lesson done opens at its start');
    again.reset();
    assert.equal(s.getItem(STORAGE_KEY), null);
    assert.equal(new Progress(s).lessonsDone([a, b]), 0);
  });
  const cases = [
    { name: 'nothing kept', saved: null, want: false },
    { name: 'not JSON', saved: '{nope', want: false },
    { name: 'an array', saved: '[1,2]', want: false },
    { name: 'not a list', saved: '{"entering":3}', want: false },
    { name: 'odd entries dropped', saved: '{"entering":[0,"1",-1,1.5,1]}', want: true },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const s = memory();
      if (c.saved !== null) s.setItem(STORAGE_KEY, c.saved);
      assert.equal(new Progress(s).lessonDone(lesson('entering', 2)), c.want);
    });
  }
  await t.test('no storage', () => {
    const p = new Progress(null);
    p.mark('entering', 0);
    assert.equal(p.exerciseDone('entering', 0), true);
    p.reset();
  });
  await t.test('a storage that refuses', () => {
    const p = new Progress(memory(true));
    p.mark('entering', 0);
    assert.equal(p.exerciseDone('entering', 0), true, 'kept for the page');
  });
});

test('anyMoveClick', async (t) => {
  // White's c3 can jump d4 to e5, then d6 to c7; d4 holds two black men.
  const columns = new Map([
    ['c3', { owner: 'white', top: 1, prisoners: 0 }],
    ['d4', { owner: 'black', top: 2, prisoners: 0 }],
    ['b4', { owner: 'black', top: 1, prisoners: 0 }],
    ['d6', { owner: 'black', top: 1, prisoners: 0 }],
    ['a7', { owner: 'white', top: 1, prisoners: 0 }],
    ['f2', { owner: 'black', top: 1, prisoners: 1 }],
    ['g1', { owner: 'white', top: 1, prisoners: 0 }],
  ]);
  const click = (path, sq) => anyMoveClick({ path, sq, columns, size: 7 });
  const cases = [
    { name: 'an empty square is an entry', path: [], sq: 'e3', want: { path: [], move: 'e3' } },
    { name: 'a column is chosen', path: [], sq: 'c3', want: { path: ['c3'], move: null } },
    { name: 'chosen again: unchosen', path: ['c3'], sq: 'c3', want: { path: [], move: null } },
    { name: 'a neighbour: a step', path: ['c3'], sq: 'b2', want: { path: [], move: 'c3-b2' } },
    { name: 'an occupied neighbour: a step the rules refuse', path: ['c3'], sq: 'd4', want: { path: [], move: 'c3-d4' } },
    { name: 'a far square: a step the rules refuse', path: ['c3'], sq: 'c5', want: { path: [], move: 'c3-c5' } },
    { name: 'another column far off: chosen instead', path: ['c3'], sq: 'a7', want: { path: ['a7'], move: null } },
    { name: 'a jump that can go on waits', path: ['c3'], sq: 'e5', want: { path: ['c3', 'e5'], move: null } },
    { name: 'a jump that cannot go on is tried', path: ['c3', 'e5'], sq: 'c7', want: { path: [], move: 'c3xe5xc7' } },
    { name: 'a capture ended early', path: ['c3', 'e5'], sq: 'e5', want: { path: [], move: 'c3xe5' } },
    { name: 'a jump straight back goes on while a jump is left', path: ['c3', 'e5'], sq: 'c3', want: { path: ['c3', 'e5', 'c3'], move: null } },
    { name: 'a jump over nothing, tried', path: ['a7'], sq: 'c5', want: { path: [], move: 'a7xc5' } },
    { name: 'elsewhere during a capture: unchosen', path: ['c3', 'e5'], sq: 'a1', want: { path: [], move: null } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(click(c.path, c.sq), c.want));
  }
  await t.test('jumpsOn', () => {
    assert.equal(jumpsOn(['c3'], columns, 7), true);
    assert.equal(jumpsOn(['c3', 'e5'], columns, 7), true, 'over d6');
    assert.equal(jumpsOn(['c3', 'e5', 'c7'], columns, 7), false, 'b6 is empty, d6 taken');
    assert.equal(jumpsOn(['a7'], columns, 7), false);
    assert.equal(jumpsOn(['g1', 'e3', 'g1'], columns, 7), false, "f2, freed, is White's now");
  });
  await t.test('diagonal', () => {
    assert.equal(diagonal('c3', 'e5'), 2);
    assert.equal(diagonal('c3', 'b2'), 1);
    assert.equal(diagonal('c3', 'c5'), 0);
    assert.equal(diagonal('a1', 'i9'), 8);
  });
});

test('feedback', async (t) => {
  // The second exercise of the no-feeding lesson, as GET /api/lessons gives it.
  const ex = {
    done: 'learn.feeding.2.done',
    accept: ['e7', 'g5', 'g7'],
    wrong: [
      { move: 'e5', legal: false, rule: '4.4', note: 'learn.feeding.2.e5' },
      { move: 'd6', legal: true, rule: '4.4', note: 'learn.feeding.2.no_attack' },
    ],
  };
  const cases = [
    {
      name: 'right', answer: { legal: true, move: 'g7' },
      want: { kind: 'right', move: 'g7', text: 'Well placed: on the edge your man cannot be jumped, and it threatens to capture f6.', rule: '' },
      headline: 'g7: right!',
    },
    {
      name: 'refused, explained by the lesson',
      answer: { legal: false, move: 'e5', code: 'move.feeding', params: { move: 'e5', rule: '4.4', square: 'e5' } },
      want: { kind: 'illegal', move: 'e5', text: 'e5 attacks f6, but f6 could jump it at once, to d4: the no-feeding rule forbids it (rule 4.4). Try a square on the edge.', rule: '4.4' },
      headline: 'e5: not allowed.',
    },
    {
      name: 'legal, explained by the lesson', answer: { legal: true, move: 'd6' },
      want: { kind: 'legal', move: 'd6', text: 'That entry is allowed, but it does not attack f6: choose a square diagonally next to f6, with an empty square behind f6.', rule: '4.4' },
      headline: 'd6: legal, but not the move asked for.',
    },
    {
      name: 'legal, not explained', answer: { legal: true, move: 'a1' },
      want: { kind: 'legal', move: 'a1', text: 'That move does not do what the exercise asks. Try another.', rule: '' },
      headline: 'a1: legal, but not the move asked for.',
    },
    {
      name: 'refused, in the rules\' words',
      answer: { legal: false, move: 'b2', code: 'move.occupied', params: { move: 'b2', rule: '4.1', square: 'b2' }, error: 'illegal move "b2": b2 is occupied' },
      want: { kind: 'illegal', move: 'b2', text: 'b2 is occupied.', rule: '4.1' },
      headline: 'b2: not allowed.',
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const v = verdict(ex, c.answer);
      assert.deepEqual(v, c.want);
      assert.equal(headline(v), c.headline);
    });
  }
  await t.test('ruleHref', () => {
    assert.equal(ruleHref('4.4'), '/rules#entering');
    assert.equal(ruleHref('3.1-3.4'), '/rules#capturing');
    assert.equal(ruleHref('6.1'), '/rules#end');
    assert.equal(ruleHref('5.2'), '/rules#moving');
    assert.equal(ruleHref(''), '/rules');
  });
});
