import assert from 'node:assert/strict';
import { test } from 'node:test';

import { followButtonText, followedRow } from '../following.js';
import { notificationView } from '../notifications.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('notificationView', async (t) => {
  const note = (over) => ({ id: 1, type: 'yourTurn', game: 'k3J9', from: 'Ada', created: '2026-12-05T09:12:00Z', read: false, ...over });
  const cases = [
    { name: 'your turn', n: note(), want: { text: 'Your turn against Ada', href: '/g/k3J9', unread: true } },
    { name: 'your turn against a guest', n: note({ from: null }), want: { text: 'Your turn in a correspondence game', href: '/g/k3J9', unread: true } },
    { name: 'a game over, read', n: note({ type: 'gameOver', read: true }), want: { text: 'Your game against Ada is over', href: '/g/k3J9', unread: false } },
    { name: 'a challenge', n: note({ type: 'challenge', game: null }), want: { text: 'Ada challenges you', href: '/lobby', unread: true } },
    { name: 'a follower', n: note({ type: 'follower', game: null, from: 'Ada Lovelace' }), want: { text: 'Ada Lovelace follows you now', href: '/@/Ada%20Lovelace', unread: true } },
    { name: "an opponent's vacation", n: note({ type: 'vacation' }), want: { text: 'Ada is on vacation: the deadlines of your correspondence games against Ada are paused', href: '/g/k3J9', unread: true } },
    { name: 'a tournament round', n: note({ type: 'tournamentRound' }), want: { text: 'A tournament round: your game against Ada', href: '/g/k3J9', unread: true } },
    { name: 'a type this page does not know', n: note({ type: 'tournament', game: null }), want: { text: 'Notifications', href: '/', unread: true } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const { text, href, unread } = notificationView(c.n);
      assert.deepEqual({ text, href, unread }, c.want);
    });
  }
});

test('followedRow', () => {
  const g = { id: 'k3J9', size: 9, white: 'Ada', black: 'Bob', whiteAccount: true, blackAccount: false, plies: 12, days: 3, initial_ms: 0, increment_ms: 0 };
  assert.deepEqual(followedRow(g), { href: '/g/k3J9', white: 'Ada', black: 'Bob', board: '9×9', time: '3 days per move', moves: 12 });
  assert.equal(followedRow({ ...g, days: 0, initial_ms: 300000, increment_ms: 3000 }).time, '5+3');
});

test('followButtonText', () => {
  assert.equal(followButtonText(false), 'Follow');
  assert.equal(followButtonText(true), 'Unfollow');
});
