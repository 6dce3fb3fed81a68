// The rating history chart of a profile: a player's rating after each of
// his rated games in one pool (a board size and a speed), drawn as SVG,
// one step a game from the rating he started with, with a title and a description for screen readers and
// the figures as a table beside it. The scaling, the ticks, the line and
// the words are pure functions; ratingChart makes the elements.

import { h, svgEl } from './dom.js';
import { formatDate, t } from './i18n.js';
import { diffText } from './rated.js';

/** CHART is the drawing's size and its margins (the axis labels), in SVG units. */
export const CHART = { width: 640, height: 220, left: 46, right: 14, top: 12, bottom: 26 };

/**
 * niceTicks are about count round values (steps of 1, 2 or 5 times a power
 * of ten) covering lo..hi: {lo, hi, step, ticks}, lo and hi moved out to
 * the ticks. A range of one value is widened around it.
 */
export function niceTicks(lo, hi, count = 4) {
  if (!(hi > lo)) {
    lo -= 10;
    hi += 10;
  }
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const first = Math.floor(lo / step) * step;
  const last = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return { lo: first, hi: last, step, ticks };
}

/** startRating is the rating before the first game of a history's points. */
export const startRating = (points) => (points.length ? points[0].rating - (points[0].diff || 0) : 0);

/**
 * chartScale places the points {rating} of a history in the drawing c:
 * {x(i), y(rating), ticks}. The x axis counts the games: step 0, at the
 * left edge, is the rating before the first game, step i the rating after
 * game i, the last at the right edge. The y axis covers them all.
 */
export function chartScale(points, c = CHART) {
  const values = [startRating(points), ...points.map((p) => p.rating)];
  const { lo, hi, ticks } = niceTicks(Math.min(...values), Math.max(...values));
  const w = c.width - c.left - c.right;
  const hgt = c.height - c.top - c.bottom;
  const steps = Math.max(points.length, 1);
  return {
    x: (i) => c.left + (i * w) / steps,
    y: (r) => c.top + ((hi - r) * hgt) / (hi - lo),
    ticks,
  };
}

const fix = (v) => Math.round(v * 10) / 10;

/** chartPath is the SVG path of the line from the start through the points, scaled by scale. */
export function chartPath(points, scale) {
  const ratings = [startRating(points), ...points.map((p) => p.rating)];
  return ratings.map((r, i) => `${i ? 'L' : 'M'}${fix(scale.x(i))} ${fix(scale.y(r))}`).join('');
}

/** poolName names a rating pool: "9×9 live", "7×7 correspondence". */
export const poolName = (size, speed) => t(speed === 'correspondence' ? 'pool.correspondence' : 'pool.live', { size });

/**
 * chartSummary says what the chart of a pool's points shows, for those who
 * do not see it: where the rating stands, where it started, its highest
 * and lowest.
 */
export function chartSummary(pool, points) {
  if (points.length === 0) return t('chart.empty', { pool });
  const r = points.map((p) => Math.round(p.rating));
  const start = Math.round(startRating(points));
  return t('chart.summary', { pool, rating: r[r.length - 1], n: points.length, start, high: Math.max(...r), low: Math.min(...r) });
}

/** change writes a rating change, rounded, as the game page does: "+12", "-8", "±0". */
export const change = (diff) => diffText(Math.round(diff));

/**
 * ratingChart draws the history of one pool ({size, speed, points}) as a
 * figure: the SVG (role img, its title and description) and, under it, the
 * same figures as a table, each row linking to its game.
 */
export function ratingChart(history) {
  const pool = poolName(history.size, history.speed);
  const points = history.points || [];
  const summary = chartSummary(pool, points);
  if (points.length === 0) {
    return h('p', { class: 'muted', 'data-testid': 'chart-empty' }, summary);
  }
  const s = chartScale(points);
  const id = `chart-${history.size}-${history.speed}`;
  const svg = svgEl('svg', {
    viewBox: `0 0 ${CHART.width} ${CHART.height}`, class: 'rating-chart', role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`, 'data-testid': 'rating-chart',
  });
  svgEl('title', { id: `${id}-title` }, svg).textContent = t('chart.title', { pool });
  svgEl('desc', { id: `${id}-desc` }, svg).textContent = summary;
  for (const tick of s.ticks) {
    svgEl('line', { class: 'grid', x1: CHART.left, x2: CHART.width - CHART.right, y1: fix(s.y(tick)), y2: fix(s.y(tick)) }, svg);
    svgEl('text', { class: 'tick', x: CHART.left - 6, y: fix(s.y(tick)) + 4, 'text-anchor': 'end' }, svg).textContent = String(tick);
  }
  const first = points[0].at;
  const last = points[points.length - 1].at;
  const date = (when) => formatDate(when);
  svgEl('text', { class: 'tick', x: CHART.left, y: CHART.height - 6 }, svg).textContent = date(first);
  if (date(last) !== date(first)) {
    svgEl('text', { class: 'tick', x: CHART.width - CHART.right, y: CHART.height - 6, 'text-anchor': 'end' }, svg).textContent = date(last);
  }
  svgEl('path', { class: 'line', d: chartPath(points, s) }, svg);
  const start = svgEl('circle', { class: 'start', cx: fix(s.x(0)), cy: fix(s.y(startRating(points))), r: 3 }, svg);
  svgEl('title', {}, start).textContent = t('chart.before', { rating: Math.round(startRating(points)) });
  points.forEach((p, i) => {
    const dot = svgEl('circle', { class: 'dot', cx: fix(s.x(i + 1)), cy: fix(s.y(p.rating)), r: 4 }, svg);
    svgEl('title', {}, dot).textContent = t('chart.point', { game: i + 1, date: date(p.at), rating: Math.round(p.rating), change: change(p.diff) });
  });
  const rows = points.map((p, i) => h('tr', {},
    h('td', { class: 'num' }, String(i + 1)),
    h('td', {}, date(p.at)),
    h('td', { class: 'num' }, String(Math.round(p.rating))),
    h('td', { class: 'num' }, `±${Math.round(p.deviation)}`),
    h('td', { class: 'num' }, change(p.diff)),
    h('td', {}, h('a', { href: `/g/${encodeURIComponent(p.game)}` }, t('list.game')))));
  const table = h('details', { class: 'chart-table' },
    h('summary', {}, t('chart.as_table')),
    h('table', { class: 'games', 'data-testid': 'rating-table' },
      h('caption', { class: 'sr-only' }, t('chart.caption', { pool })),
      h('thead', {}, h('tr', {},
        h('th', { class: 'num' }, t('list.game')), h('th', {}, t('list.date')), h('th', { class: 'num' }, t('profile.rating')),
        h('th', { class: 'num' }, t('chart.deviation')), h('th', { class: 'num' }, t('chart.change')),
        h('th', {}, h('span', { class: 'sr-only' }, t('list.open'))))),
      h('tbody', {}, rows)));
  return h('figure', { class: 'chart' }, svg, table);
}
