import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hashText } from '../dom.js';

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
