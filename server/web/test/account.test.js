import assert from 'node:assert/strict';
import { test } from 'node:test';

import { accountRequest } from '../account.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('accountRequest', async (t) => {
  const cases = [
    { name: 'a signup', kind: 'signup', f: { username: ' Alice_9 ', password: 'password1' }, want: { body: { username: 'Alice_9', password: 'password1' } } },
    { name: 'the password as typed', kind: 'signup', f: { username: 'bob', password: ' pass word ' }, want: { body: { username: 'bob', password: ' pass word ' } } },
    { name: 'no username', kind: 'signup', f: { username: '  ', password: 'password1' }, want: { error: 'Give a username.' } },
    { name: 'no password', kind: 'login', f: { username: 'bob', password: '' }, want: { error: 'Give a password.' } },
    { name: 'too short', kind: 'signup', f: { username: 'al', password: 'password1' }, want: { error: 'A username has 3 to 20 characters.' } },
    { name: 'too long', kind: 'signup', f: { username: 'a'.repeat(21), password: 'password1' }, want: { error: 'A username has 3 to 20 characters.' } },
    { name: 'a digit first', kind: 'signup', f: { username: '9lives', password: 'password1' }, want: { error: 'A username starts with a letter.' } },
    { name: 'a space', kind: 'signup', f: { username: 'al ice', password: 'password1' }, want: { error: 'A username has only letters a-z, digits, _ and -.' } },
    { name: 'an accent', kind: 'signup', f: { username: 'élise', password: 'password1' }, want: { error: 'A username starts with a letter.' } },
    { name: 'a bidi control', kind: 'signup', f: { username: 'bob\u202e', password: 'password1' }, want: { error: 'A username has only letters a-z, digits, _ and -.' } },
    { name: 'a short password', kind: 'signup', f: { username: 'bob', password: '1234567' }, want: { error: 'A password has at least 8 characters.' } },
    { name: 'eight characters of two units', kind: 'signup', f: { username: 'bob', password: '😀'.repeat(8) }, want: { body: { username: 'bob', password: '😀'.repeat(8) } } },
    { name: 'a long password', kind: 'signup', f: { username: 'bob', password: 'p'.repeat(257) }, want: { error: 'A password has at most 256 characters.' } },
    { name: 'a login is checked less', kind: 'login', f: { username: 'x', password: 'short' }, want: { body: { username: 'x', password: 'short' } } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(accountRequest(c.kind, c.f), c.want));
  }
});
