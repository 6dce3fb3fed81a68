import assert from 'node:assert/strict';
import { test } from 'node:test';

import { failureText } from '../api.js';
import { ago, levelStrength, listResult } from '../home.js';
import {
  errorText, formatDate, formatNumber, LANGUAGES, lang, pluralCategory, setCatalogue, setStrict, t, tParts, useLanguage,
} from '../i18n.js';
import { moveHint } from '../status.js';
import { catalogue, inLanguage } from './lang.js';

test('pluralCategory', async (st) => {
  const cases = [
    { lang: 'ru', n: [1, 2, 5, 11, 21, 22, 25, 0, 12, 14, 101, 111, 1.5], want: ['one', 'few', 'many', 'many', 'one', 'few', 'many', 'many', 'many', 'many', 'one', 'many', 'other'] },
    // European Portuguese, as the site writes it: 0 takes the plural.
    { lang: 'pt', n: [0, 1, 2, 5, 21], want: ['other', 'one', 'other', 'other', 'other'] },
    { lang: 'en', n: [0, 1, 2, 5, 21], want: ['other', 'one', 'other', 'other', 'other'] },
    // Elefen has no CLDR rules in browsers: the site's own, one for 1 alone.
    { lang: 'lfn', n: [0, 1, 2, 5, 11, 21, 1.5], want: ['other', 'one', 'other', 'other', 'other', 'other', 'other'] },
  ];
  for (const c of cases) {
    await st.test(c.lang, () => assert.deepEqual(c.n.map((n) => pluralCategory(c.lang, n)), c.want));
  }
});

test('plural messages', async (st) => {
  // time.days_per_move and time.days_ago in each language, by count.
  const cases = [
    { lang: 'ru', key: 'time.days_per_move', n: [1, 2, 5, 11, 21, 22, 25], want: ['1 день на ход', '2 дня на ход', '5 дней на ход', '11 дней на ход', '21 день на ход', '22 дня на ход', '25 дней на ход'] },
    { lang: 'ru', key: 'time.days_ago', n: [1, 3, 14], want: ['1 день назад', '3 дня назад', '14 дней назад'] },
    { lang: 'pt', key: 'time.days_per_move', n: [1, 2, 14], want: ['1 dia por lance', '2 dias por lance', '14 dias por lance'] },
    { lang: 'en', key: 'time.days_per_move', n: [1, 2, 21], want: ['1 day per move', '2 days per move', '21 days per move'] },
    { lang: 'lfn', key: 'time.days_per_move', n: [1, 2, 21], want: ['1 dia per move', '2 dias per move', '21 dias per move'] },
    { lang: 'lfn', key: 'time.minutes_ago', n: [1, 5], want: ['ante 1 minuta', 'ante 5 minutas'] },
  ];
  for (const c of cases) {
    await st.test(`${c.lang} ${c.key}`, () => {
      inLanguage(c.lang);
      assert.deepEqual(c.n.map((n) => t(c.key, { n })), c.want);
    });
  }
  inLanguage('en');
});

test('a Portuguese million falls back to other', () => {
  inLanguage('pt');
  assert.equal(pluralCategory('pt', 1000000), 'many');
  assert.equal(t('time.days_per_move', { n: 1000000 }).replace(/\s/g, ' '), '1 000 000 dias por lance');
  inLanguage('en');
});

test('every plural message has the forms its language needs', () => {
  for (const { code } of LANGUAGES) {
    const needed = new Intl.PluralRules(code === 'lfn' ? 'en' : code).resolvedOptions().pluralCategories
      .filter((c) => !(code === 'pt' && c === 'many'));
    for (const [key, msg] of Object.entries(catalogue(code))) {
      if (typeof msg !== 'object') continue;
      for (const form of needed) assert.ok(form in msg, `${code}: ${key} has no ${form} form`);
    }
  }
});

test('t fills places, and a missing key is the key (or an error when strict)', () => {
  setCatalogue('xx-test', {});
  setCatalogue('en', { 'a.b': 'Hello {name}, {name}; {other}', 'a.n': { one: 'one {n}', other: '{n} more' } });
  setStrict(false);
  useLanguage('en');
  assert.equal(t('a.b', { name: 'Ada' }), 'Hello Ada, Ada; {other}');
  assert.equal(t('a.n', { n: 1 }), 'one 1');
  assert.equal(t('a.n', { n: 3 }), '3 more');
  assert.equal(t('no.such'), 'no.such');
  setStrict(true);
  assert.throws(() => t('no.such'), /no message no\.such/);
  assert.throws(() => t('a.n'), /needs a count/);
  inLanguage('en');
});

test('an unknown language is English', () => {
  useLanguage('de');
  assert.equal(lang(), 'en');
  inLanguage('en');
});

test('tParts puts elements into their places', () => {
  inLanguage('ru');
  const link = { element: 'a' };
  assert.deepEqual(tParts('home.lead', { rules: link }).filter((x) => typeof x !== 'string'), [link]);
  const parts = tParts('home.lead', { rules: link });
  assert.match(parts[0], /^Шашечная игра/);
  assert.match(parts[2], /^ или начните/);
  inLanguage('en');
});

test('errorText', () => {
  inLanguage('en');
  assert.equal(errorText('no.such.code'), '');
  assert.equal(errorText(''), '');
});

test('dates and numbers in each language', async (st) => {
  const day = Date.UTC(2026, 2, 5, 12);
  const cases = [
    { lang: 'en', short: '03/05/2026', long: 'March 5, 2026', number: '1,234,567.5' },
    { lang: 'pt', short: '05/03/2026', long: '5 de março de 2026', number: '1 234 567,5' },
    { lang: 'ru', short: '05.03.2026', long: '5 марта 2026 г.', number: '1 234 567,5' },
    // Elefen: French conventions, the long date in figures, no month's name.
    { lang: 'lfn', short: '05/03/2026', long: '05/03/2026', number: '1 234 567,5' },
  ];
  for (const c of cases) {
    await st.test(c.lang, () => {
      inLanguage(c.lang);
      const plain = (s) => s.replace(/[\u00a0\u202f]/g, ' ');
      assert.equal(plain(formatDate(day)), c.short);
      assert.equal(plain(formatDate(day, 'long')), c.long);
      assert.equal(plain(formatNumber(1234567.5)), c.number);
    });
  }
  inLanguage('en');
});

test('the home page in Russian', () => {
  inLanguage('ru');
  const now = Date.parse('2026-03-10T12:00:00Z');
  assert.equal(ago('2026-03-10T11:59:30Z', now), 'только что');
  assert.equal(ago('2026-03-08T12:00:00Z', now), '2 дня назад');
  assert.equal(ago('2026-03-05T12:00:00Z', now), '5 дней назад');
  assert.equal(ago('2026-01-01T12:00:00Z', now), '01.01.2026');
  assert.equal(listResult('1-0'), 'Победа белых');
  assert.equal(levelStrength([{ level: 3, elo: 1100.4, margin: 60, rating: 1500.4 }], 3), '· Эло 1100 ± 60 (рейтинг около 1500)');
  inLanguage('en');
});

test('the server\'s errors in the page\'s language', async (st) => {
  const cases = [
    {
      name: 'an illegal move in Russian', lang: 'ru', status: 400,
      data: { error: 'illegal move "d4": the first move may not be on the centre d4 (RULES 4.3)', code: 'move.centre_first', params: { move: 'd4', square: 'd4', rule: '4.3', side: 'white' } },
      want: 'Первым ходом нельзя выставить шашку в центр, на d4 (правило 4.3).',
    },
    {
      name: 'the majority in Portuguese', lang: 'pt', status: 400,
      data: { error: '…', code: 'move.majority', params: { n: 2, rule: '3.6' } },
      want: 'É obrigatório capturar 2 damas (a maior captura precede, regra 3.6).',
    },
    {
      name: 'must capture in Elefen', lang: 'lfn', status: 400,
      data: { error: '…', code: 'move.must_capture', params: { rule: '3.5', example: 'c7xe5xg7' } },
      want: 'Catura es obligada (regula 3.5), per esemplo c7xe5xg7.',
    },
    { name: 'a code the page does not know', lang: 'ru', status: 400, data: { error: 'something new', code: 'new.thing' }, want: 'Something new' },
    { name: 'no answer of its own', lang: 'pt', status: 429, data: null, want: 'Demasiados pedidos: espere um momento e tente de novo.' },
    { name: 'an unusual status', lang: 'en', status: 418, data: null, want: 'The server answered 418.' },
  ];
  for (const c of cases) {
    await st.test(c.name, () => {
      inLanguage(c.lang);
      assert.equal(failureText(c.status, c.data), c.want);
    });
  }
  inLanguage('en');
});

test('the status line counts men in each language', async (st) => {
  const s = (jumps) => ({
    size: 7, mode: 'friend', over: false, turn: 'white', you: 'white', moves: [], shadow: 0,
    legal: [['c1', 'e3', 'g5', 'e7', 'c5', 'a3'].slice(0, jumps + 1).join('x')],
    players: { white: { name: 'A', joined: true }, black: { name: 'B', joined: true } },
  });
  const cases = [
    { lang: 'ru', want: ['Ваш ход: бой обязателен (1 шашка).', 'Ваш ход: бой обязателен (2 шашки).', 'Ваш ход: бой обязателен (5 шашек).'] },
    { lang: 'pt', want: ['A sua vez: a captura é obrigatória (1 dama).', 'A sua vez: a captura é obrigatória (2 damas).', 'A sua vez: a captura é obrigatória (5 damas).'] },
    { lang: 'lfn', want: ['Tua move: tu debe catura (1 peso).', 'Tua move: tu debe catura (2 pesos).', 'Tua move: tu debe catura (5 pesos).'] },
    { lang: 'en', want: ['Your move: you must capture (1 man).', 'Your move: you must capture (2 men).', 'Your move: you must capture (5 men).'] },
  ];
  for (const c of cases) {
    await st.test(c.lang, () => {
      inLanguage(c.lang);
      assert.deepEqual([1, 2, 5].map((n) => moveHint(s(n))), c.want);
    });
  }
  inLanguage('en');
});
