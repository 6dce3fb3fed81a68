import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ago, levelStrength, listLive, listResult, newGameRequest, querySize } from '../home.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('listResult', () => {
  assert.deepEqual(['1-0', '0-1', '1/2-1/2', '*'].map((r) => listResult(r)), ['White won', 'Black won', 'Draw', 'Playing']);
  assert.equal(listResult('*', 'aborted'), 'Aborted');
});

test('ago', async (t) => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const cases = [
    { name: 'a date text', when: '2026-03-10T11:59:30Z', want: 'just now' },
    { name: 'in the future', when: '2026-03-10T12:05:00Z', want: 'just now' },
    { name: 'minutes', when: '2026-03-10T11:45:00Z', want: '15 min ago' },
    { name: 'hours', when: '2026-03-10T09:00:00Z', want: '3 h ago' },
    { name: 'days', when: '2026-03-05T12:00:00Z', want: '5 d ago' },
    { name: 'seconds since 1970', when: now / 1000 - 120, want: '2 min ago' },
    { name: 'milliseconds since 1970', when: now - 7200000, want: '2 h ago' },
    { name: 'not a time', when: 'yesterday-ish', want: 'yesterday-ish' },
    { name: 'missing', when: undefined, want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(ago(c.when, now), c.want));
  }
  await t.test('past two weeks, the date', () => {
    assert.equal(ago('2026-01-01T12:00:00Z', now), '01/01/2026');
  });
});

test('newGameRequest', async (t) => {
  const form = { name: '', size: '9', color: 'random', level: '3', days: '', clock: false, minutes: '5', increment: '3' };
  const cases = [
    { name: 'the engine, no clock', mode: 'engine', f: form, want: { body: { mode: 'engine', size: 9, color: 'random', level: 3 } } },
    {
      name: 'a friend, with a name', mode: 'friend', f: { ...form, name: '  Ada ', size: '7', color: 'white' },
      want: { body: { mode: 'friend', size: 7, color: 'white', name: 'Ada' } },
    },
    {
      name: 'a clock in seconds', mode: 'engine', f: { ...form, clock: true, minutes: '2.5', increment: '0' },
      want: { body: { mode: 'engine', size: 9, color: 'random', level: 3, clock: { initial: 150, increment: 0 } } },
    },
    {
      name: 'no minutes', mode: 'engine', f: { ...form, clock: true, minutes: '0' },
      want: { error: 'Give the clock a positive number of minutes and of seconds per move.' },
    },
    {
      name: 'a negative increment', mode: 'friend', f: { ...form, clock: true, increment: '-1' },
      want: { error: 'Give the clock a positive number of minutes and of seconds per move.' },
    },
    {
      name: 'not a number', mode: 'friend', f: { ...form, clock: true, minutes: 'abc' },
      want: { error: 'Give the clock a positive number of minutes and of seconds per move.' },
    },
    { name: 'the clock\'s figures unused without it', mode: 'friend', f: { ...form, minutes: 'abc' }, want: { body: { mode: 'friend', size: 9, color: 'random' } } },
    { name: 'a friend by correspondence', mode: 'friend', f: { ...form, days: '3' }, want: { body: { mode: 'friend', size: 9, color: 'random', days: 3 } } },
    {
      name: 'days per move instead of the clock', mode: 'friend', f: { ...form, days: '14', clock: true, minutes: 'abc' },
      want: { body: { mode: 'friend', size: 9, color: 'random', days: 14 } },
    },
    {
      name: 'no days against the engine', mode: 'engine', f: { ...form, days: '7', clock: true, minutes: '1', increment: '0' },
      want: { body: { mode: 'engine', size: 9, color: 'random', level: 3, clock: { initial: 60, increment: 0 } } },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(newGameRequest(c.mode, c.f), c.want));
  }
});

test('levelStrength', async (t) => {
  const levels = [{ level: 1, elo: 352.4, margin: 48.6, rating: 752.4 }, { level: 3, elo: 1149.6, margin: 70.2, rating: 1549.6 }];
  const cases = [
    { name: 'a level', level: 3, want: '· Elo 1150 ± 70 (rating about 1550)' },
    { name: 'the first', level: 1, want: '· Elo 352 ± 49 (rating about 752)' },
    { name: 'a level not listed', level: 2, want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(levelStrength(levels, c.level), c.want));
  }
  await t.test('before the levels came', () => assert.equal(levelStrength([], 3), ''));
});

test('querySize', async (t) => {
  const cases = [
    { name: '7x7', search: '?size=7', want: '7' },
    { name: '9x9', search: '?size=9', want: '9' },
    { name: 'none', search: '', want: null },
    { name: 'a size the site has not', search: '?size=8', want: null },
    { name: 'among others', search: '?x=1&size=7', want: '7' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(querySize(c.search), c.want));
  }
});

test('listLive', async (t) => {
  const cases = [
    { name: 'going on', g: { result: '*', reason: '' }, want: true },
    { name: 'aborted', g: { result: '*', reason: 'aborted' }, want: false, text: 'Aborted' },
    { name: 'abandoned by White', g: { result: '0-1', reason: 'abandoned' }, want: false, text: 'Black won' },
    { name: 'drawn', g: { result: '1/2-1/2', reason: 'agreement' }, want: false, text: 'Draw' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(listLive(c.g), c.want);
      if (!c.want) assert.equal(listResult(c.g.result, c.g.reason), c.text);
    });
  }
});
