// The rules module with the real engine: the committed server/web/engine.wasm.gz,
// run by node as a browser runs it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { RulesError, loadRules } from '../wasm.js';
import { inLanguage } from './lang.js';

inLanguage('en');

const engine = gunzipSync(readFileSync(new URL('../engine.wasm.gz', import.meta.url)));
const rules = await loadRules(engine);

// D1 of the rule cases: White's only move is the five-man capture, which wins.
const D1 = '9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1';
// D13: the same position a third time after two rounds of steps.
const D13 = '9x9 w 0/0 a1:W1b11 i9:B1w11';
const cycle = ['a1-b2', 'i9-h8', 'b2-a1', 'h8-i9'];

test('loadRules gives the same Rules every time', async () => {
  assert.equal(await loadRules(), rules);
});

test('state', async (t) => {
  const cases = [
    {
      name: 'the start of 9x9',
      game: { size: 9 },
      want: { position: '9x9 w 12/12 -', turn: 'white', hands: { white: 12, black: 12 }, board: [], lastMove: null, over: false, result: '*', reason: '', shadow: 1, legalCount: 40, moves: [] },
    },
    {
      name: 'null position and 7x7, moves typed loosely',
      game: { position: null, size: 7, moves: [' C3 ', '@e5'] },
      want: { position: '7x7 w 7/7 c3:W1 e5:B1', turn: 'white', hands: { white: 7, black: 7 }, board: [{ square: 'c3', owner: 'white', top: 1, prisoners: 0 }, { square: 'e5', owner: 'black', top: 1, prisoners: 0 }], lastMove: 'e5', over: false, result: '*', reason: '', shadow: 1, legalCount: 20, moves: ['c3', 'e5'] },
    },
    {
      name: 'a capture that wins',
      game: { position: D1, moves: ['d4xb6xd8xf6xd4xb6'] },
      want: { position: '9x9 b 0/0 c5:W2 b6:W3b5', turn: 'black', hands: { white: 0, black: 0 }, board: [{ square: 'c5', owner: 'white', top: 2, prisoners: 0 }, { square: 'b6', owner: 'white', top: 3, prisoners: 5 }], lastMove: 'd4xb6xd8xf6xd4xb6', over: true, result: '1-0', reason: 'all men taken prisoner', shadow: 0, legalCount: 0, moves: ['d4xb6xd8xf6xd4xb6'] },
    },
    {
      name: 'threefold repetition counts the moves given',
      game: { position: D13, moves: [...cycle, ...cycle] },
      want: { position: D13, turn: 'white', hands: { white: 0, black: 0 }, board: [{ square: 'a1', owner: 'white', top: 1, prisoners: 11 }, { square: 'i9', owner: 'black', top: 1, prisoners: 11 }], lastMove: 'h8-i9', over: true, result: '1/2-1/2', reason: 'threefold repetition', shadow: 0, legalCount: 0, moves: [...cycle, ...cycle] },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const s = rules.state(c.game);
      const { legal, size, start, ...rest } = s;
      const { legalCount, ...want } = c.want;
      assert.deepEqual(rest, want);
      assert.equal(legal.length, legalCount);
      assert.deepEqual(legal, [...legal].sort());
      assert.equal(size, Number(want.position[0]));
    });
  }
});

test('state refuses', async (t) => {
  const cases = [
    { name: 'a position that is not one', game: { position: '9x9 w 12/12 c6:W3' }, want: { code: 'position.invalid', index: null, message: 'This position cannot be read: "9x9 w 12/12 c6:W3": column "c6:W3": c6 is not a playable square' } },
    { name: 'the first move on the centre', game: { size: 7, moves: ['d4'] }, want: { code: 'move.centre_first', rule: '4.3', index: 0, message: 'The first move may not be on the centre d4 (rule 4.3).' } },
    { name: 'a capture missed', game: { size: 7, moves: ['d6', 'c7', 'f6', 'a1'] }, want: { code: 'move.must_capture', rule: '3.5', index: 3, message: 'You must capture (rule 3.5), for example c7xe5xg7.' } },
    { name: 'a move after the end', game: { position: D1, moves: ['d4xb6xd8xf6xd4xb6', 'c5-d6'] }, want: { code: 'game.over', index: 1, message: 'The game is over.' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.throws(() => rules.state(c.game), (e) => {
        assert.ok(e instanceof RulesError);
        for (const [k, v] of Object.entries(c.want)) assert.deepEqual(e[k], v, k);
        return true;
      });
    });
  }
});

test('why', async (t) => {
  const cases = [
    { name: 'legal', position: '9x9 w 12/12 -', move: 'c3', want: null },
    { name: 'the centre first', position: '9x9 w 12/12 -', move: 'e5', want: { code: 'move.centre_first', rule: '4.3', params: { move: 'e5', rule: '4.3', side: 'white', square: 'e5' }, message: 'The first move may not be on the centre e5 (rule 4.3).' } },
    { name: 'the smaller capture', position: D1, move: 'd4xf6xd8xb6xd4', want: { code: 'move.majority', rule: '3.6', params: { move: 'd4xf6xd8xb6xd4', rule: '3.6', side: 'white', n: 5 }, message: 'A capture of 5 men is compulsory (rule 3.6, the majority rule).' } },
    { name: 'a game, repeated to its end', position: { position: D13, moves: [...cycle, ...cycle] }, move: 'a1-b2', want: { code: 'game.over', rule: '', params: { result: '1/2-1/2', reason: 'threefold repetition' }, message: 'The game is over.' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(rules.why(c.position, c.move), c.want));
  }
  assert.throws(() => rules.why('9x9 x', 'c3'), RulesError);
});

test('positionText', async (t) => {
  const d1Board = [
    { square: 'e7', owner: 'black', top: 1, prisoners: 0 },
    { square: 'd4', owner: 'white', top: 3, prisoners: 0 },
    { square: 'c5', owner: 'black', top: 2, prisoners: 2 },
    { square: 'c7', owner: 'black', top: 1, prisoners: 0 },
    { square: 'e5', owner: 'black', top: 1, prisoners: 0 },
  ];
  await t.test('an edited board', () => assert.equal(rules.positionText({ size: 9, turn: 'white', hands: { white: 0, black: 0 }, board: d1Board }), D1));
  await t.test('men in hand', () => assert.equal(rules.positionText({ size: 7, turn: 'black', hands: { white: 8, black: 8 } }), '7x7 b 8/8 -'));
  await t.test('too many men', () => assert.throws(
    () => rules.positionText({ size: 7, turn: 'white', hands: { white: 8, black: 0 }, board: [{ square: 'd4', owner: 'white', top: 1, prisoners: 0 }] }),
    { code: 'position.invalid', message: 'This position cannot be read: White has 1 man on the board and 8 in hand; 8 at most' }));
  await t.test('format', () => assert.equal(rules.format('9x9 w 0/0 e7:B1, d4:W3 c5:B2w2 e5:B1 c7:B1'), D1));
});

// The table the server's TestOneViewOfPositions asks of the API: the engine
// built for the browser answers each request as the server does, its
// value or its refusal ({code, params, message}) the same to the field.
const table = JSON.parse(readFileSync(new URL('../../../view/testdata/answers.json', import.meta.url), 'utf8'));

test('the answers of the server', async (t) => {
  for (const c of table.state) {
    await t.test(c.name, () => assert.deepEqual(JSON.parse(rules.api.state(JSON.stringify(c.request))), c.want));
  }
  for (const c of table.why) {
    await t.test(`why: ${c.name}`, () => assert.deepEqual(JSON.parse(rules.api.why(JSON.stringify({ position: c.position, move: c.move }))), c.want));
  }
});
