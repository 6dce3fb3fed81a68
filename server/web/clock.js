// The players' clocks. A state carries the server's figures (white_ms,
// black_ms, whose clock runs); between states the page counts the running
// one down itself, from the moment the state came in.

/** LOW_MS is the time below which a running clock is shown as low. */
export const LOW_MS = 20000;

/**
 * formatClock is a time left as a clock shows it: m:ss, h:mm:ss from an
 * hour on, and tenths under ten seconds (0:09.5). Seconds are rounded up,
 * so a clock shows 0:00 only when the time is out; below zero is zero.
 */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(ms / 1000);
  const hrs = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return hrs > 0 ? `${hrs}:${String(min).padStart(2, '0')}:${sec}` : `${min}:${sec}`;
}

/**
 * clockBase is what the clocks count from: a state's figures, the colour
 * whose clock runs (none once the game is over) and the moment t0 the state
 * was taken. It is null for a game without a clock.
 */
export function clockBase(state, t0) {
  if (!state.clock) return null;
  const running = state.over ? null : state.clock.running;
  return { white: state.clock.white_ms, black: state.clock.black_ms, running, t0 };
}

/**
 * clockReading is one clock at the moment now: {ms, text, running, low}.
 * Only the running clock has gone down since t0.
 */
export function clockReading(base, colour, now) {
  const running = base.running === colour;
  const ms = base[colour] - (running ? now - base.t0 : 0);
  return { ms, text: formatClock(ms), running, low: running && ms < LOW_MS };
}

/**
 * Clocks shows the two clocks of a game in their elements (given with
 * attach, again whenever they are made anew) and ticks the running one;
 * onLow(colour) hears of a clock as it turns low (the sound of low time).
 */
export class Clocks {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.base = null;
    this.timer = 0;
    this.els = {};
    this.low = {}; // the clocks shown low at the last tick
    this.onLow = () => {}; // told the colour of a clock as it turns low
  }

  /** attach makes el the clock of colour. */
  attach(colour, el) {
    this.els[colour] = el;
  }

  /** sync starts again from a state's figures. */
  sync(state) {
    clearInterval(this.timer);
    this.timer = 0;
    this.base = clockBase(state, this.now());
    if (!this.base) return;
    this.tick();
    if (this.base.running) this.timer = setInterval(() => this.tick(), 100);
  }

  /** tick shows the clocks as they read now. */
  tick() {
    const b = this.base;
    if (!b) return;
    const now = this.now();
    for (const c of ['white', 'black']) {
      const el = this.els[c];
      if (!el) continue;
      const r = clockReading(b, c, now);
      el.textContent = r.text;
      el.classList.toggle('running', r.running);
      el.classList.toggle('low', r.low);
      if (r.low && !this.low[c]) this.onLow(c);
      this.low[c] = r.low;
    }
  }
}
