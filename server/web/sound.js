// The sounds of play: a move, a capture, the player's time running low,
// the end of the game. Each is a few short tones made in the browser
// (Web Audio), so there is no file to load and nothing from elsewhere.
// Whether they play is the reader's choice (settings.js), else the
// default of soundDefault.

/**
 * TONES are the sounds, each a list of notes: f the pitch (Hz), at its
 * start and d its length (seconds), type the oscillator's wave, gain its
 * loudness (0 to 1). A move is a soft knock, a capture two harder ones
 * falling, low time two high beeps, the end a rising chord.
 */
export const TONES = {
  move: [{ f: 440, at: 0, d: 0.07, type: 'triangle', gain: 0.3 }],
  capture: [
    { f: 330, at: 0, d: 0.06, type: 'square', gain: 0.12 },
    { f: 220, at: 0.06, d: 0.1, type: 'square', gain: 0.12 },
  ],
  low: [
    { f: 988, at: 0, d: 0.1, type: 'sine', gain: 0.2 },
    { f: 988, at: 0.18, d: 0.1, type: 'sine', gain: 0.2 },
  ],
  end: [
    { f: 523, at: 0, d: 0.18, type: 'triangle', gain: 0.22 },
    { f: 659, at: 0.14, d: 0.18, type: 'triangle', gain: 0.22 },
    { f: 784, at: 0.28, d: 0.36, type: 'triangle', gain: 0.22 },
  ],
};

/**
 * soundOf is the sound that the state s makes after prev, the one shown
 * before: the end of the game, else the move just played, a capture or
 * another; null for none (the first state, another game, a take-back).
 */
export function soundOf(prev, s) {
  if (!prev || !s || prev.id !== s.id) return null;
  if (!prev.over && s.over) return 'end';
  if (s.moves.length !== prev.moves.length + 1) return null;
  return s.moves[s.moves.length - 1].includes('x') ? 'capture' : 'move';
}

/**
 * soundDefault is whether sound plays for a reader who has not chosen:
 * not on a phone or a tablet (a coarse pointer and no hover), where a
 * sound is heard by everyone around and the page is often open in a
 * pocket; elsewhere it does, as players of the other sites expect.
 */
export function soundDefault(matches = (q) => typeof matchMedia === 'function' && matchMedia(q).matches) {
  return !(matches('(pointer: coarse)') && !matches('(hover: hover)'));
}

/** soundOn is whether sound plays: the reader's choice ("on", "off"), else the default. */
export function soundOn(choice, byDefault) {
  return choice === 'on' || (choice !== 'off' && byDefault);
}

/**
 * Sounds plays TONES through an AudioContext made on the first sound
 * (newContext, for tests), and only while enabled() says so.
 */
export class Sounds {
  constructor({ enabled = () => soundOn(document.documentElement.dataset.sound, soundDefault()), newContext } = {}) {
    this.enabled = enabled;
    this.newContext = newContext || (() => (typeof AudioContext === 'function' ? new AudioContext() : null));
    this.ctx = null;
  }

  /** play plays the sound kind (a key of TONES), if sound is on and the browser has Web Audio. */
  play(kind) {
    const notes = TONES[kind];
    if (!notes || !this.enabled()) return;
    if (!this.ctx) this.ctx = this.newContext();
    const ctx = this.ctx;
    if (!ctx) return;
    // A context made before the reader touched the page starts
    // suspended; it resumes once he has.
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    const t0 = ctx.currentTime;
    for (const n of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = n.type;
      osc.frequency.value = n.f;
      // A quick rise and an exponential fall: no click at either end.
      gain.gain.setValueAtTime(0.0001, t0 + n.at);
      gain.gain.exponentialRampToValueAtTime(n.gain, t0 + n.at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + n.at + n.d);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + n.at);
      osc.stop(t0 + n.at + n.d + 0.02);
    }
  }
}
