// The time of a correspondence game in words: its days per move and the
// time left to the deadline of the player to move. A state carries the
// time left when it was made (correspondence.left_ms); the page counts
// down from the moment it came in, as the clocks do.

import { t } from './i18n.js';

const MINUTE = 60000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** unitKeys are the messages of the units of a time left: "3 days". */
const unitKeys = { day: 'time.days', hour: 'time.hours', minute: 'time.minutes' };

/** daysPerMove is a correspondence control: "1 day per move", "3 days per move". */
export const daysPerMove = (days) => t('time.days_per_move', { n: days });

/**
 * formatLeft is a time left in its two largest units, rounded down: "2
 * days 4 hours", "5 hours 12 minutes", "12 minutes", "3 days"; under a
 * minute "less than a minute", and "no time" once it is out.
 */
export function formatLeft(ms) {
  if (!(ms > 0)) return t('time.no_time');
  if (ms < MINUTE) return t('time.under_a_minute');
  const units = [[Math.floor(ms / DAY), 'day'], [Math.floor((ms % DAY) / HOUR), 'hour'], [Math.floor((ms % HOUR) / MINUTE), 'minute']];
  const first = units.findIndex(([n]) => n > 0);
  return units.slice(first, first + 2).filter(([n]) => n > 0).map(([n, unit]) => t(unitKeys[unit], { n })).join(' ');
}

/**
 * deadlineText is what a game page says of a correspondence game,
 * {text, low}: "3 days per move, 2 days 4 hours left" while a turn runs,
 * elapsed ms after the state s was made, or "3 days per move" alone (before
 * both players are there, after the end). low says that the player to move
 * has less than a quarter of his days, or a day, left. It is null for a
 * game without days per move.
 */
export function deadlineText(s, elapsed = 0) {
  const c = s && s.correspondence;
  if (!c) return null;
  const head = daysPerMove(c.days);
  if (!c.running || s.result !== '*') return { text: head, low: false };
  const left = c.left_ms - elapsed;
  return { text: t('time.per_move_left', { per_move: head, left: formatLeft(left) }), low: left < Math.min(DAY, (c.days * DAY) / 4) };
}

/**
 * Deadline shows a state's deadlineText in an element (hidden for a game
 * without days per move), counting down while a turn runs.
 */
export class Deadline {
  constructor(el, now = () => performance.now()) {
    this.el = el;
    this.now = now;
    this.state = null;
    this.t0 = 0;
    this.timer = 0;
  }

  /** sync starts again from a state; the state shown already goes on counting. */
  sync(s) {
    if (s === this.state) return;
    clearInterval(this.timer);
    this.timer = 0;
    this.state = s;
    this.t0 = this.now();
    this.show();
    const c = s.correspondence;
    if (c && c.running && s.result === '*') this.timer = setInterval(() => this.show(), 10000);
  }

  /** show writes the text as it reads now. */
  show() {
    const d = deadlineText(this.state, this.now() - this.t0);
    this.el.hidden = !d;
    this.el.textContent = d ? d.text : '';
    this.el.classList.toggle('low', Boolean(d && d.low));
  }
}

/** timeText is a challenge's time control: "5+3" (minutes and seconds added), or "3 days per move". */
export function timeText(c) {
  if (c.days) return daysPerMove(c.days);
  if (!c.clock) return '';
  const m = c.clock.initial / 60;
  return `${Number.isInteger(m) ? m : m.toFixed(1)}+${c.clock.increment}`;
}
