import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { exportPGN, linkHash, readLink, readRecord, RecordError } from '../boardrecord.js';
import { formatPosition, parsePosition, startPosition } from '../setup.js';

const testdata = (name) => readFileSync(new URL(`../../../record/testdata/${name}`, import.meta.url), 'utf8');

test('exportPGN', async (t) => {
  await t.test('a game from the start', () => assert.equal(exportPGN({ position: startPosition(7), moves: ['c3', 'e5', 'b2'] }), [
    '[Event "Analysis"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]', '[White "?"]', '[Black "?"]', '[Result "*"]',
    '[Size "7"]', '[Termination "unterminated"]', '', '1. c3 e5 2. b2 *', ''].join('\n')));
  await t.test('a set-up position with Black to move, and a result', () => {
    const pgn = exportPGN({
      position: parsePosition('9x9 b 0/2 a1:W9 g7:W1 h8:B10w2'), moves: ['h8xf6', 'a1-b2', 'e5'],
      result: '0-1', reason: 'resignation', white: 'Al "A"', black: 'Bo',
    });
    assert.match(pgn, /\[White "Al \\"A\\""\]\n/);
    assert.match(pgn, /\[Size "9"\]\n\[SetUp "1"\]\n\[Position "9x9 b 0\/2 a1:W9 g7:W1 h8:B10w2"\]\n\[Termination "resignation"\]\n/);
    assert.match(pgn, /\n\n1\.\.\. h8xf6 2\. a1-b2 e5 0-1\n$/);
  });
  await t.test('comments, and the number of a Black move after one', () => assert.match(
    exportPGN({ position: startPosition(7), moves: ['c3', 'e5', 'b2'], comments: ['+0.10', '?? {x} −1.20'] }),
    /\n\n1\. c3 \{\+0\.10\} 1\.\.\. e5 \{\?\? x −1\.20\} 2\. b2 \*\n$/));
  await t.test('names with line breaks or other control characters, from a pasted record, keep the record readable', () => {
    const pgn = exportPGN({ position: startPosition(7), moves: ['c3'], white: 'Al\n] [Result "1-0', black: 'Bo\tB\u0000' });
    assert.match(pgn, /^\[White "Al \] \[Result \\"1-0"\]\n\[Black "Bo B "\]\n/m);
    const back = readRecord(pgn);
    assert.deepEqual([back.white, back.black, back.moves, back.result], ['Al ] [Result "1-0', 'Bo B ', ['c3'], '*']);
  });
  await t.test('long lines break before column 80, a number with its move', () => {
    const moves = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'c3xe5xg7xe9xc7' : 'a1-b2'));
    const body = exportPGN({ position: startPosition(9), moves }).split('\n\n')[1];
    for (const line of body.trim().split('\n')) {
      assert.ok(line.length <= 79, line);
      assert.doesNotMatch(line, /[0-9]\.$/);
    }
  });
});

test('readRecord', async (t) => {
  await t.test('the known PGN games', () => {
    const r = readRecord(testdata('known.pgn'));
    assert.equal(r.moves.length, 39);
    assert.deepEqual(r.moves.slice(0, 3), ['g1', 'd2', 'f2']);
    assert.equal(r.moves[16], 'c1xe3xg5xi7xg9xe7');
    assert.deepEqual([r.result, r.white, r.black, formatPosition(r.position)], ['1-0', 'White', 'Black', '9x9 w 12/12 -']);
  });
  await t.test('a set-up game', () => {
    const r = readRecord('[SetUp "1"]\n[Position "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2"]\n\n1... h8xf6 {A capture.} 2. a1-b2 e5 *\n');
    assert.deepEqual([formatPosition(r.position), r.moves], ['9x9 b 0/2 a1:W9 g7:W1 h8:B10w2', ['h8xf6', 'a1-b2', 'e5']]);
  });
  await t.test('what the reader accepts', () => {
    const r = readRecord('[Size "7"]\n\n1.C3 @e5 ; a remark\n% skipped\n2. b2?! $1 (2. a1 c1) d6 *');
    assert.deepEqual([r.position.size, r.moves], [7, ['c3', 'e5', 'b2', '(', 'a1', 'c1', ')', 'd6']]);
  });
  await t.test('movetext alone', () => assert.deepEqual(readRecord('c3 d4 e5').moves, ['c3', 'd4', 'e5']));
  await t.test('an Abstract Play array', () => {
    const r = readRecord(testdata('ap-array.json'));
    assert.deepEqual([r.moves.length, r.moves[0], r.result, r.white, r.black], [10, 'a9', '0-1', 'alice', 'bob']);
  });
  await t.test('an Abstract Play record', () => {
    const r = readRecord(testdata('known.apjson'));
    assert.deepEqual([r.moves.length, r.moves[16], r.result], [39, 'c1xe3xg5xi7xg9xe7', '1-0']);
  });
  const bad = [
    { name: 'nothing', text: '  ', key: 'record.empty' },
    { name: 'broken JSON', text: '{"header": ', key: 'record.bad_json' },
    { name: 'another game', text: '{"header": {"game": {"name": "Chess"}}, "moves": []}', key: 'record.not_emergo' },
    { name: 'a size written 7x7', text: '[Size "7x7"]\n\n1. d4 *\n', key: 'record.bad_size' },
    { name: 'a size the game has not', text: '[Size "8"]\n\n1. d4 *\n', key: 'record.bad_size' },
  ];
  for (const c of bad) {
    await t.test(`refuses ${c.name}`, () => assert.throws(() => readRecord(c.text), (e) => e instanceof RecordError && e.key === c.key));
  }
  await t.test('says the size it refuses', () => assert.throws(() => readRecord('[Size "8"]\n\n*\n'), (e) => e.params.size === '8'));
  await t.test('reads the sizes it has', () => {
    assert.equal(readRecord('[Size "7"]\n\n1. d4 *\n').position.size, 7);
    assert.equal(readRecord('[Size "9"]\n\n1. e5 *\n').position.size, 9);
  });
});

test('link', async (t) => {
  const cases = [
    { name: 'the 9x9 start alone', board: { position: startPosition(9) }, hash: '' },
    { name: 'moves of 9x9', board: { position: startPosition(9), line: 'c3 d4 (e5) f6', at: 3 }, hash: 'line=c3+d4+%28e5%29+f6&at=3' },
    { name: 'a set-up 7x7', board: { position: parsePosition('7x7 b 3/0 c5:B2w1'), line: '', at: 0 }, hash: 'pos=7x7+b+3%2F0+c5%3AB2w1' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const hash = linkHash(c.board);
      assert.equal(hash, c.hash);
      const back = readLink(`#${hash}`);
      if (!hash) {
        assert.equal(back, null);
        return;
      }
      assert.deepEqual(back, { line: '', at: 0, ...c.board, position: c.board.position });
    });
  }
  await t.test('a bad position throws', () => assert.throws(() => readLink('#pos=8x8+w+0/0+-')));
  await t.test('a bad place is the start', () => assert.equal(readLink('#line=c3&at=x').at, 0));
});
