import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decoded, hashText, nameText } from '../dom.js';
import { inLanguage } from './lang.js';

test('hashText reads an address\'s hash, the text of a malformed escape as it is', () => {
  const cases = [
    { name: 'empty', hash: '', want: '' },
    { name: 'only the mark', hash: '#', want: '' },
    { name: 'plain', hash: '#feeding', want: 'feeding' },
    { name: 'escaped', hash: '#9-%61b', want: '9-ab' },
    { name: 'malformed escape', hash: '#%zz', want: '%zz' },
    { name: 'cut escape', hash: '#abc%E0', want: 'abc%E0' },
  ];
  for (const c of cases) assert.equal(hashText(c.hash), c.want, c.name);
});

test('decoded reads a part of an address, as it is when its escapes are no text', () => {
  const cases = [
    { name: 'plain', text: 'abc', want: 'abc' },
    { name: 'escaped', text: 'Jos%C3%A9', want: 'José' },
    { name: 'no UTF-8', text: '%E0%A4', want: '%E0%A4' },
    { name: 'malformed', text: 'a%zz', want: 'a%zz' },
  ];
  for (const c of cases) assert.equal(decoded(c.text), c.want, c.name);
});

test('nameText marks a guest\'s name, in the page\'s language', async (t) => {
  const cases = [
    { name: 'an account', lang: 'en', player: 'Ann', guest: false, want: 'Ann' },
    { name: 'a guest', lang: 'en', player: 'Ann', guest: true, want: 'Ann (guest)' },
    { name: 'a guest without a name', lang: 'pt', player: 'Anonymous', guest: true, want: 'Anónimo (convidado)' },
    { name: 'a guest in Russian', lang: 'ru', player: 'Ann', guest: true, want: 'Ann (гость)' },
    { name: 'the engine', lang: 'en', player: 'Emergo level 4', guest: false, want: 'Emergo level 4' },
    { name: 'nobody', lang: 'en', player: '', guest: true, want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      inLanguage(c.lang);
      assert.equal(nameText(c.player, c.guest), c.want);
    });
  }
});
