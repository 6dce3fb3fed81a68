import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MoveListError, Rules, rulesAtOnce } from '../boardrules.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('Rules', async (t) => {
  await t.test('answers are cached by start and moves', async () => {
    let asked = 0;
    const rules = new Rules(({ moves }) => {
      asked++;
      return { moves };
    }, true);
    assert.deepEqual(await rules.state('7x7 w 8/8 -', ['c3']), { moves: ['c3'] });
    await rules.state('7x7 w 8/8 -', ['c3']);
    await rules.state('7x7 w 8/8 -', ['c3', 'e5']);
    assert.equal(asked, 2);
  });
  const refusals = [
    {
      name: "the browser's rules: the index among the parameters",
      err: Object.assign(new Error('e5 is occupied'), { code: 'move.occupied', params: { square: 'e5', index: 1 } }),
      index: 1, message: 'e5 is occupied.',
    },
    {
      name: "the server's: the index among the parameters",
      err: Object.assign(new Error('E5 is occupied.'), { code: 'move.occupied', params: { square: 'e5', index: 2 } }),
      index: 2, message: 'e5 is occupied.',
    },
    { name: 'a code the page does not know', err: Object.assign(new Error('Something else.'), { code: 'x.y' }), index: -1, message: 'Something else.' },
  ];
  for (const c of refusals) {
    await t.test(c.name, async () => {
      const rules = new Rules(() => {
        throw c.err;
      }, false);
      await assert.rejects(rules.state('9x9 w 12/12 -', ['a1', 'e5', 'e5']),
        (e) => e instanceof MoveListError && e.index === c.index && e.message === c.message);
    });
  }
  await t.test('a refusal is not cached', async () => {
    let fail = true;
    const rules = new Rules(() => {
      if (fail) throw new Error('down');
      return { ok: true };
    }, false);
    await assert.rejects(rules.state('9x9 w 12/12 -', []));
    fail = false;
    assert.deepEqual(await rules.state('9x9 w 12/12 -', []), { ok: true });
  });
});

test('rulesAtOnce', async (t) => {
  const answer = (by) => async (req) => ({ by, moves: req.moves });
  await t.test('the server answers until the browser\'s rules are in, then they do', async () => {
    let loaded;
    const load = () => new Promise((resolve) => { loaded = resolve; });
    const rules = rulesAtOnce(load, answer('server'));
    assert.equal(rules.local, false);
    assert.equal((await rules.state('start', ['a1'])).by, 'server');
    loaded({ state: answer('browser') });
    await rules.ready;
    assert.equal(rules.local, true);
    assert.equal((await rules.state('start', ['c3'])).by, 'browser');
    assert.equal((await rules.state('start', ['a1'])).by, 'server', 'an answer had is kept');
  });
  await t.test('the server\'s stay when the browser cannot load them', async () => {
    const rules = rulesAtOnce(() => Promise.reject(new Error('no WebAssembly')), answer('server'));
    await rules.ready;
    assert.equal(rules.local, false);
    assert.equal((await rules.state('start', ['a1'])).by, 'server');
  });
});
