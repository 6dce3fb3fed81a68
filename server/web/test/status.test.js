import assert from 'node:assert/strict';
import { test } from 'node:test';

import { OfferWatch, analysisNote, controls, gameLink, idleNote, inviteFromHash, inviteTitle, moveHint, myTurn, openSeats, playerName, resultText, statusLine, title } from '../status.js';
import { inLanguage } from './lang.js';

inLanguage('en');

// game is a state as the API gives it, with the fields given changed.
const game = (over = {}) => ({
  id: 'g1', size: 7, mode: 'friend', result: '*', reason: '', over: false, abortable: false, turn: 'white', you: 'white',
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
    { name: 'the game is over', s: game({ result: '1-0', over: true }), want: false },
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
    { name: 'over', s: game({ result: '0-1', over: true }), want: { text: 'Game over.', cls: 'status over' } },
    { name: 'aborted', s: game({ reason: 'aborted', over: true }), want: { text: 'Game aborted.', cls: 'status over' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(statusLine(c.s, false), c.want));
  }
  await t.test('an earlier position shown', () => {
    assert.deepEqual(statusLine(game(), true), { text: 'Live game: your move: enter a man on a marked square.', cls: 'status mine' });
    assert.deepEqual(statusLine(game({ result: '1-0', over: true }), true), { text: 'Game over.', cls: 'status over' });
  });
});

test('resultText', async (t) => {
  const cases = [
    { name: 'going on', s: game(), want: null },
    {
      name: 'I won', s: game({ result: '1-0', over: true, reason: 'all men taken prisoner' }),
      want: { head: 'White wins', score: '1-0', reason: 'All men taken prisoner.', mine: 'You won.' },
    },
    {
      name: 'I lost', s: game({ result: '0-1', over: true, reason: 'resignation' }),
      want: { head: 'Black wins', score: '0-1', reason: 'By resignation.', mine: 'You lost.' },
    },
    {
      name: 'a draw', s: game({ result: '1/2-1/2', over: true, reason: 'agreement' }),
      want: { head: 'Draw', score: '1/2-1/2', reason: 'Draw by agreement.', mine: '' },
    },
    {
      name: 'watched, without a reason', s: game({ you: null, result: '1-0', over: true }),
      want: { head: 'White wins', score: '1-0', reason: '', mine: '' },
    },
    {
      name: 'aborted', s: game({ reason: 'aborted', over: true }),
      want: { head: 'Aborted', score: '', reason: 'No result: the game was called off before both players had moved.', mine: '' },
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
    { name: 'a guest\'s name, marked', s: game({ players: { white: { name: 'Ann', joined: true, guest: true } } }), colour: 'white', want: 'Ann (guest)' },
    { name: 'a guest without a name', s: game({ players: { white: { name: 'Anonymous', joined: true, guest: true } } }), colour: 'white', want: 'Anonymous (guest)' },
    { name: 'the engine', s: game({ players: { black: { name: 'Emergo level 3', joined: true, engine: true } } }), colour: 'black', want: 'Emergo level 3' },
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
    { name: 'not after the end', s: game({ you: null, players, result: '1-0', over: true }), want: [] },
    { name: 'not after an abort', s: game({ you: null, players, reason: 'aborted', over: true }), want: [] },
    { name: 'not in a record', s: game({ you: null, players, mode: 'analysis' }), want: [] },
    { name: 'not a seat kept for an invited friend', s: game({ you: null, players, invited: true }), want: [] },
    { name: 'a kept seat with the invitation', s: game({ you: null, players, invited: true }), invite: 'k3y', want: ['black'] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(openSeats(c.s, c.invite), c.want));
  }
});

test('inviteTitle', () => {
  assert.equal(inviteTitle(false), 'Invite a friend: send this link');
  assert.equal(inviteTitle(true), 'Link to this game (others can watch)');
});

test('controls', async (t) => {
  await t.test('at the start', () => {
    assert.deepEqual(controls(game({ abortable: true })), {
      playing: true,
      abort: true,
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
    const c = controls(game({ result: '1/2-1/2', over: true, drawOffer: 'black' }));
    assert.equal(c.playing, false);
    assert.deepEqual(c.offers, []);
  });
});

test('controls: abort', async (t) => {
  const cases = [
    { name: 'before both have moved', s: game({ moves: ['a1'], abortable: true }), want: true },
    { name: 'after both have moved', s: game({ moves: ['a1', 'g7'] }), want: false },
    { name: 'not for a watcher', s: game({ you: null, abortable: true }), want: false },
    { name: 'not once aborted', s: game({ reason: 'aborted', over: true }), want: false },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(controls(c.s).abort, c.want));
  }
});

// The texts of the page follow the state and nothing else: each case is a
// state after an action, and what the page says must fit that state, not
// the action that led to it.
test('texts derived from the state', async (t) => {
  const asked = game({ moves: ['a1', 'g7'], takeback: 'white' });
  const offered = game({ moves: ['a1'], turn: 'black', drawOffer: 'white' });
  const cases = [
    {
      name: 'a take-back asked', s: asked,
      status: 'Your move: enter a man on a marked square.',
      offers: ['You asked to take back a move; waiting for an answer.'], takeback: 'Take-back asked',
    },
    {
      name: 'the take-back accepted', s: game({ moves: [] }),
      status: 'Your move: enter a man on a marked square.', offers: [], takeback: 'Take back',
    },
    {
      name: 'the take-back declined', s: { ...asked, takeback: null },
      status: 'Your move: enter a man on a marked square.', offers: [], takeback: 'Take back',
    },
    {
      name: 'a draw offered with a move', s: offered,
      status: 'Waiting for Bob (Black).', offers: ['You offered a draw; waiting for an answer.'], takeback: 'Take back',
    },
    {
      name: 'the game over with the offer standing', s: { ...offered, result: '0-1', reason: 'resignation', over: true },
      status: 'Game over.', offers: [], takeback: 'Take back',
    },
    {
      name: 'the engine thinking', s: game({ mode: 'engine', moves: ['a1'], turn: 'black', thinking: true }),
      status: 'Emergo is thinking…', offers: [], takeback: 'Take back',
    },
    {
      name: 'a take-back while the engine thought', s: game({ mode: 'engine', moves: [], thinking: false }),
      status: 'Your move: enter a man on a marked square.', offers: [], takeback: 'Take back',
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(statusLine(c.s, false).text, c.status);
      const k = controls(c.s);
      assert.deepEqual(k.offers.map((o) => o.label), c.offers);
      assert.equal(k.takeback.text, c.takeback);
    });
  }
});

test('idleNote', async (t) => {
  const engine = (over = {}) => game({ mode: 'engine', idle: { abort_ms: 600000, abandon_ms: 1800000 }, ...over });
  const abort = 'A game against the engine in which you have not moved within 10 minutes of its start is aborted.';
  const idle = 'A game against the engine with no move from you for 30 minutes is ended, as your loss.';
  const cases = [
    { name: 'not begun', s: engine({ abortable: true }), want: `${abort} ${idle}` },
    { name: 'begun', s: engine(), want: idle },
    { name: 'on a clock, not begun', s: engine({ abortable: true, idle: { abort_ms: 600000, abandon_ms: 0 } }), want: abort },
    { name: 'on a clock, begun', s: engine({ idle: { abort_ms: 600000, abandon_ms: 0 } }), want: '' },
    { name: 'a minute', s: engine({ idle: { abort_ms: 60000, abandon_ms: 60000 } }), want: 'A game against the engine with no move from you for 1 minute is ended, as your loss.' },
    { name: 'watched', s: engine({ you: null }), want: '' },
    { name: 'over', s: engine({ over: true, result: '0-1' }), want: '' },
    { name: 'a friend game', s: game(), want: '' },
    { name: 'an invitation', s: game({ abortable: true, idle: { abort_ms: 86400000, abandon_ms: 0 } }), want: 'A game that nobody joins within 24 hours of its invitation is aborted.' },
    { name: 'an invitation to a correspondence game', s: game({ abortable: true, idle: { abort_ms: 604800000, abandon_ms: 0 } }), want: 'A game that nobody joins within 7 days of its invitation is aborted.' },
    { name: 'an invitation of an hour', s: game({ idle: { abort_ms: 3600000, abandon_ms: 0 } }), want: 'A game that nobody joins within 1 hour of its invitation is aborted.' },
    { name: 'an invitation watched', s: game({ you: null, idle: { abort_ms: 86400000, abandon_ms: 0 } }), want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(idleNote(c.s), c.want));
  }
});

test('analysisNote', async (t) => {
  const closed = 'The engine analyses this game once it has ended.';
  const cases = [
    { name: 'a game being played', s: game({ analysis: false }), want: closed },
    { name: 'watched while played', s: game({ you: null, analysis: false }), want: closed },
    { name: 'against the engine', s: game({ mode: 'engine', analysis: false }), want: closed },
    { name: 'a game that has ended', s: game({ result: '1-0', over: true, analysis: true }), want: '' },
    { name: 'a record', s: game({ mode: 'analysis', analysis: true }), want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(analysisNote(c.s), c.want));
  }
});

test('statusLine: an invited seat', async (t) => {
  const players = { white: { name: 'Alice', joined: true }, black: { joined: false } };
  const cases = [
    { name: 'a stranger', s: game({ you: null, players, invited: true }), invite: '', want: 'Waiting for the invited friend to join. You are watching.' },
    { name: 'the invited friend', s: game({ you: null, players, invited: true }), invite: 'k3y', want: 'You are invited to play: take your seat below.' },
    { name: 'the inviter', s: game({ players, invited: true }), invite: '', want: 'Waiting for your friend to join. Send them the link below.' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(statusLine(c.s, false, c.invite).text, c.want));
  }
});

test('inviteFromHash', async (t) => {
  const cases = [
    { name: 'none', hash: '', want: '' },
    { name: 'an invitation', hash: '#invite=Ab_9-x', want: 'Ab_9-x' },
    { name: 'among other words', hash: '#x=1&invite=Ab9', want: 'Ab9' },
    { name: 'something else', hash: '#top', want: '' },
    { name: 'no characters of a secret', hash: '#invite=<b>', want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(inviteFromHash(c.hash), c.want));
  }
});

test('gameLink', () => {
  assert.equal(gameLink('https://x.org', game({ invite: 'Ab9' })), 'https://x.org/g/g1#invite=Ab9');
  assert.equal(gameLink('https://x.org', game({ invite: null })), 'https://x.org/g/g1');
});

test('OfferWatch', async (t) => {
  const g = (version, over) => game({ version, ...over });
  const two = ['a1', 'c1'];
  const cases = [
    { name: 'my draw offer declined', states: [g(1), g(2, { drawOffer: 'white' }), g(3)], want: [null, null, 'draw'] },
    { name: 'my take-back declined', states: [g(2, { moves: two, takeback: 'white' }), g(3, { moves: two })], want: [null, 'takeback'] },
    { name: 'the offer\'s state seen after its decline', states: [g(1), g(3), g(2, { drawOffer: 'white' }), g(3)], want: [null, null, null, 'draw'] },
    { name: 'told once, whatever comes late', states: [g(2, { drawOffer: 'white' }), g(3), g(2, { drawOffer: 'white' }), g(3)], want: [null, 'draw', null, null] },
    { name: 'offered again after a decline', states: [g(2, { drawOffer: 'white' }), g(3), g(4, { drawOffer: 'white' }), g(5)], want: [null, 'draw', null, 'draw'] },
    { name: 'my take-back accepted', states: [g(2, { moves: two, takeback: 'white' }), g(3)], want: [null, null] },
    { name: 'my draw offer accepted', states: [g(2, { drawOffer: 'white' }), g(3, { over: true, result: '1/2-1/2' })], want: [null, null] },
    { name: 'the end, then an old answer', states: [g(3, { over: true }), g(2, { drawOffer: 'white' }), g(3, { over: true })], want: [null, null, null] },
    { name: 'my draw offer withdrawn by a move', states: [g(2, { drawOffer: 'white' }), g(3, { moves: ['a1'] })], want: [null, null] },
    { name: 'the opponent\'s offer goes', states: [g(2, { drawOffer: 'black' }), g(3)], want: [null, null] },
    { name: 'a watcher', states: [g(2, { you: null, drawOffer: 'white' }), g(3, { you: null })], want: [null, null] },
    { name: 'still standing', states: [g(2, { drawOffer: 'white' }), g(3, { drawOffer: 'white' })], want: [null, null] },
    { name: 'an older state does not decline', states: [g(3, { drawOffer: 'white' }), g(2)], want: [null, null] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const w = new OfferWatch();
      assert.deepEqual(c.states.map((s) => w.see(s)), c.want);
    });
  }
});
