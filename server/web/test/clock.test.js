import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clockBase, clockReading, formatClock } from '../clock.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('formatClock', async (t) => {
  const cases = [
    { name: 'out of time', ms: 0, want: '0:00.0' },
    { name: 'below zero', ms: -1500, want: '0:00.0' },
    { name: 'tenths under ten seconds', ms: 9999, want: '0:09.9' },
    { name: 'tenths rounded down', ms: 5050, want: '0:05.0' },
    { name: 'ten seconds', ms: 10000, want: '0:10' },
    { name: 'seconds rounded up', ms: 10001, want: '0:11' },
    { name: 'a minute', ms: 60000, want: '1:00' },
    { name: 'just under a minute shows the minute', ms: 59500, want: '1:00' },
    { name: 'minutes and seconds', ms: 5 * 60000 + 3000, want: '5:03' },
    { name: 'an hour', ms: 3600000, want: '1:00:00' },
    { name: 'hours pad the minutes', ms: 2 * 3600000 + 5 * 60000 + 7000, want: '2:05:07' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(formatClock(c.ms), c.want));
  }
});

const playing = (running) => ({ result: '*', clock: { white_ms: 60000, black_ms: 30000, running } });

test('clockBase', async (t) => {
  await t.test('no clock', () => assert.equal(clockBase({ result: '*' }, 0), null));
  await t.test('a game going on', () => {
    assert.deepEqual(clockBase(playing('white'), 7), { white: 60000, black: 30000, running: 'white', t0: 7 });
  });
  await t.test('no clock runs once the game is over', () => {
    assert.equal(clockBase({ ...playing('white'), result: '1-0', over: true }, 7).running, null);
  });
});

test('clockReading', async (t) => {
  const base = clockBase(playing('black'), 1000);
  const cases = [
    { name: 'the running clock goes down', colour: 'black', now: 3500, want: { ms: 27500, text: '0:28', running: true, low: false } },
    { name: 'the other stands still', colour: 'white', now: 3500, want: { ms: 60000, text: '1:00', running: false, low: false } },
    { name: 'low below twenty seconds', colour: 'black', now: 11001, want: { ms: 19999, text: '0:20', running: true, low: true } },
    { name: 'past zero reads zero', colour: 'black', now: 40000, want: { ms: -9000, text: '0:00.0', running: true, low: true } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(clockReading(base, c.colour, c.now), c.want));
  }
  await t.test('a stopped clock is never low', () => {
    const over = clockBase({ result: '0-1', over: true, clock: { white_ms: 5000, black_ms: 1000, running: 'white' } }, 0);
    assert.deepEqual(clockReading(over, 'white', 99999), { ms: 5000, text: '0:05.0', running: false, low: false });
  });
});
