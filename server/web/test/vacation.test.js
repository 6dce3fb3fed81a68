import assert from 'node:assert/strict';
import { test } from 'node:test';

import { vacationNotes, vacationStatus } from '../vacation.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('vacationNotes', async (t) => {
  const players = { white: { name: 'Ada' }, black: { name: 'Bob' } };
  const cases = [
    { name: 'nobody away', s: { players, vacation: null }, want: [] },
    { name: 'the opponent away', s: { players, you: 'white', vacation: { black: '2026-12-12T10:00:00.000Z' } },
      want: ['Bob is on vacation until December 12, 2026: the deadline is paused.'] },
    { name: 'the viewer away', s: { players, you: 'black', vacation: { black: '2026-12-12T10:00:00.000Z' } },
      want: ['You are on vacation until December 12, 2026.'] },
    { name: 'both away, for a spectator', s: { players, vacation: { white: '2027-01-03T12:00:00.000Z', black: '2026-12-12T10:00:00.000Z' } },
      want: ['Ada is on vacation until January 3, 2027: the deadline is paused.', 'Bob is on vacation until December 12, 2026: the deadline is paused.'] },
    { name: 'an old state without the field', s: { players }, want: [] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(vacationNotes(c.s), c.want));
  }
});

test('vacationStatus', () => {
  assert.deepEqual(vacationStatus({ vacation: null, vacationDaysLeft: 28 }),
    { on: false, text: 'You are not on vacation.', left: '28 days of vacation left this year.', max: 28 });
  assert.deepEqual(vacationStatus({ vacation: '2026-12-12T10:00:00.000Z', vacationDaysLeft: 1 }),
    { on: true, text: 'You are on vacation until December 12, 2026.', left: '1 day of vacation left this year.', max: 1 });
  assert.equal(vacationStatus({ vacationDaysLeft: 0 }).max, 0);
});
