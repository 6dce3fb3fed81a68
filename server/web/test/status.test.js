import assert from 'node:assert/strict';
import { test } from 'node:test';

import { controls, inviteTitle, moveHint, myTurn, openSeats, playerName, resultText, statusLine, title } from '../status.js';

// game is a state as the API gives it, with the fields given changed.
const game = (over = {}) => ({
  id: 'g1', size: 7, mode: 'friend', result: '*', reason: '', turn: 'white', you: 'white',
  moves: [], legal: ['a1', 'c1'], shadow: 1, thinking: false, drawOffer: null, takeback: null,
  players: { white: { name: 'Alice', joined: true }, black: { name: 'Bob', joined: true } },
  ...over,
});

test('myTurn', async (t) => {
  const cases = [
    { name: 'my turn', s: game(), want: true },
    { name: 'no state', s: null, want: false },
    { name: 'the other\'s turn', s: game({ turn: 'black' }), want: false },
    { name: 'a watcher', s: game({ you: null }), want: false },
    { name: 'the game is over', s: game({ result: '1-0' }), want: false },
    { name: 'no legal move', s: game({ legal: [] }), want: false },
    { name: 'the friend has not joined', s: game({ players: { white: { joined: true }, black: { joined: false } } }), want: false },
    { name: 'against the engine', s: game({ mode: 'engine', players: { white: { joined: true }, black: { engine: true, joined: true } } }), want: true },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(myTurn(c.s), c.want));
  }
});

test('title', () => {
  assert.equal(title(game()), 'Your move · Emergo 7×7');
  assert.equal(title(game({ size: 9, turn: 'black' })), 'Emergo 9×9');
});

test('moveHint', async (t) => {
  const cases = [
    { name: 'entries', s: game(), want: 'Your move: enter a man on a marked square.' },
    { name: 'the shadow piece', s: game({ shadow: 4 }), want: 'Your move: enter your shadow piece (4 men as one column).' },
    { name: 'a capture of one man', s: game({ legal: ['c3xe5', 'g3xe5'] }), want: 'Your move: you must capture (1 man).' },
    { name: 'a capture of several men', s: game({ legal: ['c1xe3xg5xi7'] }), want: 'Your move: you must capture (3 men).' },
    { name: 'steps', s: game({ legal: ['c3-d4', 'e3-f4'] }), want: 'Your move.' },
    { name: 'steps and entries', s: game({ legal: ['a1', 'c3-d4'] }), want: 'Your move.' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(moveHint(c.s), c.want));
  }
});

test('statusLine', async (t) => {
  const cases = [
    { name: 'my move', s: game(), want: { text: 'Your move: enter a man on a marked square.', cls: 'status mine' } },
    { name: 'the engine thinks', s: game({ mode: 'engine', thinking: true, turn: 'black' }), want: { text: 'Emergo is thinking…', cls: 'status thinking' } },
    {
      name: 'waiting for the friend to join',
      s: game({ players: { white: { joined: true }, black: { joined: false } } }),
      want: { text: 'Waiting for your friend to join. Send them the link below.', cls: 'status' },
    },
    { name: 'waiting for the opponent', s: game({ turn: 'black' }), want: { text: 'Waiting for Bob (Black).', cls: 'status' } },
    {
      name: 'waiting for a nameless opponent', s: game({ turn: 'black', players: { white: { joined: true }, black: { joined: true } } }),
      want: { text: 'Waiting for Black (Black).', cls: 'status' },
    },
    { name: 'a watcher', s: game({ you: null, turn: 'black' }), want: { text: 'Black to move. You are watching.', cls: 'status' } },
    { name: 'a record', s: game({ you: null, mode: 'analysis', legal: [] }), want: { text: 'White to move.', cls: 'status' } },
    { name: 'over', s: game({ result: '0-1' }), want: { text: 'Game over.', cls: 'status over' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(statusLine(c.s, false), c.want));
  }
  await t.test('an earlier position shown', () => {
    assert.deepEqual(statusLine(game(), true), { text: 'Live game: your move: enter a man on a marked square.', cls: 'status mine' });
    assert.deepEqual(statusLine(game({ result: '1-0' }), true), { text: 'Game over.', cls: 'status over' });
  });
});

test('resultText', async (t) => {
  const cases = [
    { name: 'going on', s: game(), want: null },
    {
      name: 'I won', s: game({ result: '1-0', reason: 'all men taken prisoner' }),
      want: { head: 'White wins', score: '1-0', reason: 'All men taken prisoner', mine: 'You won.' },
    },
    {
      name: 'I lost', s: game({ result: '0-1', reason: 'resignation' }),
      want: { head: 'Black wins', score: '0-1', reason: 'Resignation', mine: 'You lost.' },
    },
    {
      name: 'a draw', s: game({ result: '1/2-1/2', reason: 'agreement' }),
      want: { head: 'Draw', score: '1/2-1/2', reason: 'Agreement', mine: '' },
    },
    {
      name: 'watched, without a reason', s: game({ you: null, result: '1-0' }),
      want: { head: 'White wins', score: '1-0', reason: '', mine: '' },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(resultText(c.s), c.want));
  }
});

test('playerName', async (t) => {
  const open = { white: { name: 'Alice', joined: true }, black: { joined: false } };
  const cases = [
    { name: 'a name', s: game(), colour: 'black', want: 'Bob' },
    { name: 'no name', s: game({ players: { white: { joined: true } } }), colour: 'white', want: 'White' },
    { name: 'an open seat of a friend game', s: game({ players: open }), colour: 'black', want: 'waiting for a player…' },
    { name: 'no players known', s: game({ players: undefined, mode: 'analysis' }), colour: 'black', want: 'Black' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(playerName(c.s, c.colour), c.want));
  }
});

test('openSeats', async (t) => {
  const players = { white: { name: 'Alice', joined: true }, black: { joined: false } };
  const cases = [
    { name: 'a watcher may take the open seat', s: game({ you: null, players }), want: ['black'] },
    { name: 'both open, White first', s: game({ you: null, players: { white: {}, black: {} } }), want: ['white', 'black'] },
    { name: 'a player takes no other seat', s: game({ players }), want: [] },
    { name: 'not an engine\'s seat', s: game({ you: null, players: { white: { joined: true }, black: { engine: true } } }), want: [] },
    { name: 'not after the end', s: game({ you: null, players, result: '1-0' }), want: [] },
    { name: 'not in a record', s: game({ you: null, players, mode: 'analysis' }), want: [] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(openSeats(c.s), c.want));
  }
});

test('inviteTitle', () => {
  assert.equal(inviteTitle(false), 'Invite a friend: send this link');
  assert.equal(inviteTitle(true), 'Link to this game (others can watch)');
});

test('controls', async (t) => {
  await t.test('at the start', () => {
    assert.deepEqual(controls(game()), {
      playing: true,
      draw: { disabled: false, text: 'Offer draw' },
      takeback: { disabled: true, text: 'Take back' },
      offers: [],
    });
  });
  await t.test('before the friend joined', () => {
    const c = controls(game({ moves: ['a1'], players: { white: { joined: true }, black: { joined: false } } }));
    assert.equal(c.draw.disabled, true);
    assert.equal(c.takeback.disabled, true);
  });
  await t.test('my offers wait for an answer', () => {
    const c = controls(game({ moves: ['a1'], drawOffer: 'white', takeback: 'white' }));
    assert.deepEqual(c.draw, { disabled: true, text: 'Draw offered' });
    assert.deepEqual(c.takeback, { disabled: true, text: 'Take-back asked' });
    assert.deepEqual(c.offers, [
      { what: 'draw', label: 'You offered a draw; waiting for an answer.', answer: false },
      { what: 'takeback', label: 'You asked to take back a move; waiting for an answer.', answer: false },
    ]);
  });
  await t.test('the opponent\'s offers are mine to answer', () => {
    const c = controls(game({ moves: ['a1'], drawOffer: 'black', takeback: 'black' }));
    assert.deepEqual(c.offers, [
      { what: 'draw', label: 'Black offers a draw.', answer: true },
      { what: 'takeback', label: 'Black asks to take back a move.', answer: true },
    ]);
  });
  await t.test('a watcher sees offers and answers none', () => {
    const c = controls(game({ you: null, drawOffer: 'black' }));
    assert.equal(c.playing, false);
    assert.deepEqual(c.offers, [{ what: 'draw', label: 'Black offers a draw.', answer: false }]);
  });
  await t.test('no offers once the game is over', () => {
    const c = controls(game({ result: '1/2-1/2', drawOffer: 'black' }));
    assert.equal(c.playing, false);
    assert.deepEqual(c.offers, []);
  });
});
