import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Latest } from '../latest.js';

test('Latest', async (t) => {
  await t.test('the last request asked is the latest', () => {
    const l = new Latest();
    const first = l.ask();
    assert.equal(first(), true);
    const second = l.ask();
    assert.equal(first(), false);
    assert.equal(second(), true);
  });
  await t.test('current checks the request under way without starting one', () => {
    const l = new Latest();
    const asked = l.ask();
    const same = l.current();
    assert.equal(same(), true);
    l.ask();
    assert.equal(asked(), false);
    assert.equal(same(), false);
  });
  await t.test('drop makes every request under way stale', () => {
    const l = new Latest();
    const asked = l.ask();
    l.drop();
    assert.equal(asked(), false);
  });
});
