import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatScore } from '../text.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('formatScore', async (t) => {
  const cases = [
    { name: 'level', score: 0, want: '0.00' },
    { name: 'White ahead', score: 35, want: '+0.35' },
    { name: 'Black ahead, with a true minus sign', score: -120, want: '−1.20' },
    { name: 'several men', score: 1234, want: '+12.34' },
    { name: 'a hundredth', score: -1, want: '−0.01' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(formatScore(c.score), c.want));
  }
});
