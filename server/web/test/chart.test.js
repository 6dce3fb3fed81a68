import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CHART, change, chartPath, chartScale, chartSummary, niceTicks, poolName, startRating } from '../chart.js';
import { inLanguage } from './lang.js';

inLanguage('en');

test('niceTicks', async (t) => {
  const cases = [
    { name: 'ratings', lo: 1472, hi: 1623, want: { lo: 1450, hi: 1650, step: 50, ticks: [1450, 1500, 1550, 1600, 1650] } },
    { name: 'a wide range', lo: 1000, hi: 2100, want: { lo: 1000, hi: 2200, step: 500, ticks: [1000, 1500, 2000, 2500] } },
    { name: 'one value', lo: 1500, hi: 1500, want: { lo: 1490, hi: 1510, step: 5, ticks: [1490, 1495, 1500, 1505, 1510] } },
    { name: 'small steps', lo: 1500, hi: 1507, want: { lo: 1500, hi: 1508, step: 2, ticks: [1500, 1502, 1504, 1506, 1508] } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = niceTicks(c.lo, c.hi);
      // The ticks cover the range, evenly.
      assert.ok(got.lo <= c.lo && got.hi >= c.hi, `${got.lo}..${got.hi} covers ${c.lo}..${c.hi}`);
      assert.equal(got.step, c.want.step);
      assert.equal(got.lo, c.want.lo);
      assert.deepEqual(got.ticks.slice(0, c.want.ticks.length - 1), c.want.ticks.slice(0, -1));
    });
  }
});

test('chartScale', async (t) => {
  const pts = [{ rating: 1662, diff: 162 }, { rating: 1580, diff: -82 }, { rating: 1640, diff: 60 }];
  const s = chartScale(pts);
  const left = CHART.left;
  const right = CHART.width - CHART.right;
  await t.test('the start, then the games, across the width', () => {
    assert.equal(startRating(pts), 1500);
    assert.equal(s.x(0), left);
    assert.equal(s.x(3), right);
    assert.equal(s.x(1), left + (right - left) / 3);
  });
  await t.test('one game: from the left edge to the right', () => {
    const one = chartScale([pts[0]]);
    assert.equal(one.x(0), left);
    assert.equal(one.x(1), right);
  });
  await t.test('ratings up, the start included', () => {
    const lo = s.ticks[0];
    const hi = s.ticks[s.ticks.length - 1];
    assert.ok(lo <= 1500 && hi >= 1662, `ticks ${s.ticks} cover the rating before the first game, 1500`);
    assert.equal(s.y(hi), CHART.top);
    assert.equal(s.y(lo), CHART.height - CHART.bottom);
    assert.ok(s.y(1662) < s.y(1580), 'a higher rating is drawn higher');
  });
  await t.test('the path, from the start', () => {
    const d = chartPath(pts, { x: (i) => i * 10, y: (r) => r / 10 });
    assert.equal(d, 'M0 150L10 166.2L20 158L30 164');
  });
});

test('chartSummary', async (t) => {
  const cases = [
    { name: 'none', points: [], want: 'No rated games on 9×9 live yet.' },
    {
      name: 'three games',
      points: [{ rating: 1662.4, diff: 162.4 }, { rating: 1580, diff: -82.4 }, { rating: 1640.2, diff: 60.2 }],
      want: '9×9 live: 1640 after 3 rated games, from 1500; highest 1662, lowest 1580.',
    },
    { name: 'one game', points: [{ rating: 1338, diff: -162 }], want: '9×9 live: 1338 after 1 rated game, from 1500; highest 1338, lowest 1338.' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(chartSummary(poolName(9, 'live'), c.points), c.want));
  }
});

test('change', () => {
  assert.deepEqual([12.4, -7.6, 0.2, 0].map(change), ['+12', '-8', '±0', '±0']);
});
