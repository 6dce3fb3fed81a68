import assert from 'node:assert/strict';
import { test } from 'node:test';

import { daysPerMove, deadlineText, formatLeft, timeText } from '../deadline.js';
import { inLanguage } from './lang.js';

inLanguage('en');

const MIN = 60000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

test('daysPerMove', () => {
  assert.deepEqual([1, 3, 14].map(daysPerMove), ['1 day per move', '3 days per move', '14 days per move']);
});

test('formatLeft', async (t) => {
  const cases = [
    { name: 'out', ms: 0, want: 'no time' },
    { name: 'below zero', ms: -5000, want: 'no time' },
    { name: 'not a number', ms: undefined, want: 'no time' },
    { name: 'seconds', ms: 59999, want: 'less than a minute' },
    { name: 'a minute', ms: MIN, want: '1 minute' },
    { name: 'minutes, seconds dropped', ms: 12 * MIN + 59000, want: '12 minutes' },
    { name: 'an hour', ms: HOUR, want: '1 hour' },
    { name: 'hours and minutes', ms: 5 * HOUR + 12 * MIN, want: '5 hours 12 minutes' },
    { name: 'a day and an hour', ms: DAY + HOUR + 30 * MIN, want: '1 day 1 hour' },
    { name: 'days and hours', ms: 2 * DAY + 4 * HOUR + 59 * MIN, want: '2 days 4 hours' },
    { name: 'whole days', ms: 3 * DAY, want: '3 days' },
    { name: 'days and minutes show the days', ms: 3 * DAY + 20 * MIN, want: '3 days' },
    { name: 'just under three days', ms: 3 * DAY - 1, want: '2 days 23 hours' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(formatLeft(c.ms), c.want));
  }
});

test('deadlineText', async (t) => {
  const corr = (days, leftMs, running = 'white') => ({ result: '*', correspondence: { days, deadline: running ? 'x' : null, left_ms: leftMs, running } });
  const cases = [
    { name: 'a live game', s: { result: '*', correspondence: null }, elapsed: 0, want: null },
    { name: 'no state', s: null, elapsed: 0, want: null },
    { name: 'a turn runs', s: corr(3, 2 * DAY + 4 * HOUR + 5 * MIN), elapsed: 0, want: { text: '3 days per move, 2 days 4 hours left', low: false } },
    { name: 'counted down since the state', s: corr(3, 2 * DAY + 4 * HOUR + 5 * MIN), elapsed: 10 * MIN, want: { text: '3 days per move, 2 days 3 hours left', low: false } },
    { name: 'low under a day', s: corr(7, 23 * HOUR), elapsed: 0, want: { text: '7 days per move, 23 hours left', low: true } },
    { name: 'low under a quarter of one day', s: corr(1, 5 * HOUR + 59 * MIN), elapsed: 0, want: { text: '1 day per move, 5 hours 59 minutes left', low: true } },
    { name: 'not low with a quarter of one day', s: corr(1, 6 * HOUR), elapsed: 0, want: { text: '1 day per move, 6 hours left', low: false } },
    { name: 'out', s: corr(1, 1000), elapsed: 2000, want: { text: '1 day per move, no time left', low: true } },
    { name: 'waiting for the friend', s: corr(2, 0, null), elapsed: 0, want: { text: '2 days per move', low: false } },
    { name: 'over', s: { ...corr(2, 5000), result: '1-0' }, elapsed: 0, want: { text: '2 days per move', low: false } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(deadlineText(c.s, c.elapsed), c.want));
  }
});

test('timeText', async (t) => {
  const cases = [
    { name: 'a clock', c: { clock: { initial: 300, increment: 3 }, days: 0 }, want: '5+3' },
    { name: 'half minutes', c: { clock: { initial: 90, increment: 0 }, days: 0 }, want: '1.5+0' },
    { name: 'days per move', c: { clock: null, days: 3 }, want: '3 days per move' },
    { name: 'a day per move', c: { clock: null, days: 1 }, want: '1 day per move' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(timeText(c.c), c.want));
  }
});
