import assert from 'node:assert/strict';
import { test } from 'node:test';

import { addLine, chatRoom, KEEP, opponentAccount } from '../chat.js';

const line = (id, user = 'alice') => ({ id, user, room: 'players', text: `line ${id}`, time: '' });

test('chatRoom', () => {
  assert.equal(chatRoom({ you: 'white' }), 'players');
  assert.equal(chatRoom({ you: null }), 'spectators');
  assert.equal(chatRoom(null), 'spectators');
});

test('opponentAccount', async (t) => {
  const players = { white: { name: 'alice', account: true }, black: { name: 'Bob', account: false, guest: true } };
  const cases = [
    { name: 'a spectator blocks nobody from here', state: { you: null, players }, want: null },
    { name: 'Black faces an account', state: { you: 'black', players }, want: 'alice' },
    { name: 'White faces a guest', state: { you: 'white', players }, want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(opponentAccount(c.state), c.want));
  }
});

test('addLine', async (t) => {
  await t.test('in the order of the ids', () => {
    assert.deepEqual(addLine([line(1), line(3)], line(2)).map((l) => l.id), [1, 2, 3]);
  });
  await t.test('once, however often it comes', () => {
    const lines = [line(1), line(2)];
    assert.equal(addLine(lines, line(2)), lines);
  });
  await t.test('the latest kept', () => {
    let lines = [];
    for (let i = 1; i <= KEEP + 5; i++) lines = addLine(lines, line(i));
    assert.equal(lines.length, KEEP);
    assert.equal(lines[0].id, 6);
  });
});
