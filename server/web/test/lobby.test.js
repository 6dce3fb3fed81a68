import assert from 'node:assert/strict';
import { test } from 'node:test';

import { acceptedGame, challengeRequest, challengeRow } from '../lobby.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('challengeRequest', async (t) => {
  const live = { size: '7', speed: 'live', minutes: '5', increment: '3', days: '3', rated: true, color: 'black', to: '' };
  const cases = [
    { name: 'open, rated, live', f: live, want: { body: { size: 7, rated: true, color: 'black', clock: { initial: 300, increment: 3 } } } },
    {
      name: 'half a minute, no increment', f: { ...live, minutes: '0.5', increment: '0' },
      want: { body: { size: 7, rated: true, color: 'black', clock: { initial: 30, increment: 0 } } },
    },
    {
      name: 'by correspondence, to a player', f: { ...live, speed: 'correspondence', rated: false, to: ' Carol ' },
      want: { body: { size: 7, rated: false, color: 'black', days: 3, to: 'Carol' } },
    },
    {
      name: 'open to bots', f: { ...live, allowBots: true },
      want: { body: { size: 7, rated: true, color: 'black', clock: { initial: 300, increment: 3 }, allowBots: true } },
    },
    {
      name: 'to a player, bots or not', f: { ...live, allowBots: true, to: 'robot' },
      want: { body: { size: 7, rated: true, color: 'black', clock: { initial: 300, increment: 3 }, to: 'robot' } },
    },
    { name: 'no minutes', f: { ...live, minutes: '0' }, want: { error: 'Give the clock a positive number of minutes and of seconds per move.' } },
    { name: 'minutes not a number', f: { ...live, minutes: 'x' }, want: { error: 'Give the clock a positive number of minutes and of seconds per move.' } },
    { name: 'no days', f: { ...live, speed: 'correspondence', days: '' }, want: { error: 'Choose the days per move.' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(challengeRequest(c.f), c.want));
  }
});

// challenge is a pending open rated challenge of Ada's, seen by another.
const challenge = (over) => ({
  id: 'c1', from: 'Ada', account: true, rating: '1500?', to: null, size: 9, clock: { initial: 300, increment: 3 }, days: 0,
  rated: true, color: 'random', status: 'pending', game: null, rematch: null, mine: false, forYou: false, ...over,
});

test('challengeRow', async (t) => {
  const base = { who: 'Ada', rating: '1500?', board: '9×9', time: '5+3', kind: 'Rated', colour: 'Random colours', status: '', actions: ['accept'] };
  const cases = [
    { name: 'open, to someone logged in', c: challenge(), loggedIn: true, want: base },
    { name: 'open, to a guest', c: challenge(), loggedIn: false, want: { ...base, status: 'Log in to accept', actions: [] } },
    {
      name: 'mine', c: challenge({ mine: true, color: 'black' }), loggedIn: true,
      want: { ...base, who: 'You', colour: 'You play Black', status: 'Waiting for an opponent', actions: ['cancel'] },
    },
    {
      name: 'mine, to a player', c: challenge({ mine: true, to: 'Bob', rated: false }), loggedIn: true,
      want: { ...base, who: 'You, to Bob', kind: 'Casual', status: 'Waiting for Bob', actions: ['cancel'] },
    },
    {
      name: 'for me, a rematch', c: challenge({ to: 'Bob', forYou: true, rematch: 'g1', color: 'white' }), loggedIn: true,
      want: { ...base, kind: 'Rated rematch', colour: 'Ada plays White', status: 'For you', actions: ['accept', 'decline'] },
    },
    {
      name: 'for me, a guest\'s rematch', c: challenge({ account: false, rating: '', to: 'Bob', forYou: true, rematch: 'g1', rated: false, color: 'white' }), loggedIn: true,
      want: { ...base, who: 'Ada (guest)', rating: '', kind: 'Casual rematch', colour: 'Ada (guest) plays White', status: 'For you', actions: ['accept', 'decline'] },
    },
    { name: 'accepted', c: challenge({ mine: true, status: 'accepted', game: 'g2' }), loggedIn: true, want: { ...base, who: 'You', status: 'Accepted', actions: [], game: 'g2' } },
    { name: 'accepted, seen by another', c: challenge({ status: 'accepted', game: 'g2' }), loggedIn: true, want: { ...base, status: 'Accepted', actions: [], game: 'g2' } },
    { name: 'declined', c: challenge({ mine: true, to: 'Bob', status: 'declined' }), loggedIn: true, want: { ...base, who: 'You, to Bob', status: 'Declined', actions: [] } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(challengeRow(c.c, c.loggedIn), c.want));
  }
});

test('acceptedGame', async (t) => {
  const accepted = challenge({ mine: true, status: 'accepted', game: 'g2' });
  const cases = [
    { name: 'mine, seen waiting, accepted', waiting: ['c1'], view: { challenges: [accepted] }, want: 'g2' },
    { name: 'accepted before this page saw it', waiting: [], view: { challenges: [accepted] }, want: null },
    { name: 'still waiting', waiting: ['c1'], view: { challenges: [challenge({ mine: true })] }, want: null },
    { name: 'declined', waiting: ['c1'], view: { challenges: [challenge({ mine: true, status: 'declined' })] }, want: null },
    { name: 'no list', waiting: ['c1'], view: {}, want: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(acceptedGame(new Set(c.waiting), c.view), c.want));
  }
});
