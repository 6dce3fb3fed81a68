// The board's sounds, premoves and settings: the pure parts of sound.js,
// premove.js and settings.js, and Clocks' word of low time.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Clocks } from '../clock.js';
import { canPremove, legalPremove } from '../premove.js';
import { cookiePrefs, readerPrefs } from '../settings.js';
import { soundDefault, soundOf, soundOn, Sounds, TONES } from '../sound.js';

const game = (moves, extra = {}) => ({ id: 'g1', moves, over: false, ...extra });

test('soundOf: the sound a new state makes', () => {
  const cases = [
    { name: 'the first state', prev: null, s: game(['d4']), want: null },
    { name: 'a step', prev: game(['d4']), s: game(['d4', 'c3-d2']), want: 'move' },
    { name: 'an entry', prev: game([]), s: game(['d4']), want: 'move' },
    { name: 'a capture', prev: game(['d4']), s: game(['d4', 'c3xe5xc7']), want: 'capture' },
    { name: 'the end, by a capture', prev: game(['d4']), s: game(['d4', 'c3xe5'], { over: true }), want: 'end' },
    { name: 'the end, by resigning', prev: game(['d4']), s: game(['d4'], { over: true }), want: 'end' },
    { name: 'the same state again', prev: game(['d4']), s: game(['d4']), want: null },
    { name: 'a take-back', prev: game(['d4', 'c3']), s: game(['d4']), want: null },
    { name: 'another game', prev: game(['d4']), s: { ...game(['d4', 'c3']), id: 'g2' }, want: null },
    { name: 'after the end', prev: game(['d4'], { over: true }), s: game(['d4'], { over: true, version: 9 }), want: null },
  ];
  for (const c of cases) assert.equal(soundOf(c.prev, c.s), c.want, c.name);
});

test('soundDefault and soundOn: off on a phone until chosen, on elsewhere', () => {
  const media = (coarse, hover) => (q) => (q === '(pointer: coarse)' ? coarse : q === '(hover: hover)' ? hover : false);
  assert.equal(soundDefault(media(true, false)), false, 'a phone');
  assert.equal(soundDefault(media(false, true)), true, 'a desktop');
  assert.equal(soundDefault(media(true, true)), true, 'a touch screen with a mouse');
  for (const [choice, byDefault, want] of [['on', false, true], ['off', true, false], ['', true, true], ['', false, false], [undefined, true, true]]) {
    assert.equal(soundOn(choice, byDefault), want, `${choice} over a default of ${byDefault}`);
  }
});

// fakeAudio records what Sounds asks of an AudioContext.
function fakeAudio() {
  const log = { made: 0, started: [], resumed: 0 };
  const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const ctx = {
    state: 'suspended', currentTime: 10, destination: {},
    resume() { log.resumed++; this.state = 'running'; return Promise.resolve(); },
    createOscillator: () => ({ frequency: param(), connect: (g) => g, start: (at) => log.started.push(at), stop() {} }),
    createGain: () => ({ gain: param(), connect: (d) => d }),
  };
  return { log, newContext: () => { log.made++; return ctx; } };
}

test('Sounds: a note an oscillator, one context, nothing while off', () => {
  let on = false;
  const { log, newContext } = fakeAudio();
  const sounds = new Sounds({ enabled: () => on, newContext });
  sounds.play('move');
  assert.equal(log.made, 0, 'no context while sound is off');
  on = true;
  sounds.play('capture');
  sounds.play('end');
  sounds.play(null);
  sounds.play('nothing');
  assert.equal(log.made, 1);
  assert.equal(log.resumed, 1, 'the suspended context is resumed once');
  assert.deepEqual(log.started, [...TONES.capture, ...TONES.end].map((n) => 10 + n.at));
  for (const [kind, notes] of Object.entries(TONES)) {
    for (const n of notes) assert.ok(n.f > 0 && n.d > 0 && n.d < 1 && n.gain > 0 && n.gain <= 0.3, `${kind}: ${JSON.stringify(n)}`);
  }
  assert.doesNotThrow(() => new Sounds({ enabled: () => true, newContext: () => null }).play('move'), 'a browser without Web Audio');
});

test('canPremove: the viewer seated, both there, the opponent to move, live', () => {
  const both = { white: { joined: true }, black: { joined: true } };
  const s = { you: 'white', turn: 'black', over: false, players: both };
  const cases = [
    { name: 'the opponent to move', s, want: true },
    { name: 'his own turn', s: { ...s, turn: 'white' }, want: false },
    { name: 'a watcher', s: { ...s, you: null }, want: false },
    { name: 'over', s: { ...s, over: true }, want: false },
    { name: 'an earlier position shown', s, view: { ply: 1 }, want: false },
    { name: 'the seat still open', s: { ...s, players: { white: { joined: true }, black: { joined: false } } }, want: false },
    { name: 'no state', s: null, want: false },
  ];
  for (const c of cases) assert.equal(canPremove(c.s, c.view || null), c.want, c.name);
});

test('legalPremove: the legal move a premove is, or null', () => {
  const legal = ['a1', 'c3-d4', 'e5xc3', 'e5xg3xe1'];
  const cases = [
    { premove: 'a1', want: 'a1' },
    { premove: 'c3-d4', want: 'c3-d4' },
    { premove: 'C3-D4', want: 'c3-d4' },
    { premove: 'e5xg3xe1', want: 'e5xg3xe1' },
    { premove: 'e5xg3', want: null },
    { premove: 'c3-b4', want: null },
    { premove: 'b2', want: null },
    { premove: 'nonsense', want: null },
  ];
  for (const c of cases) assert.equal(legalPremove(c.premove, legal), c.want, c.premove);
  assert.equal(legalPremove('a1', null), null);
});

test('cookiePrefs and readerPrefs: the browser\'s choices, the account\'s over them', () => {
  const none = { theme: '', board: '', sound: '' };
  assert.deepEqual(cookiePrefs(''), none);
  assert.deepEqual(cookiePrefs(undefined), none);
  const jar = 'emergo_lang=pt; emergo_theme=dark;emergo_board=wood ; other=1; emergo_soundx=on';
  assert.deepEqual(cookiePrefs(jar), { theme: 'dark', board: 'wood', sound: '' });
  assert.deepEqual(readerPrefs(jar, null), { theme: 'dark', board: 'wood', sound: '' });
  assert.deepEqual(readerPrefs(jar, { name: 'a', prefs: { theme: 'light', board: '', sound: 'off' } }), { theme: 'light', board: 'wood', sound: 'off' });
  assert.deepEqual(readerPrefs(jar, { name: 'a' }), { theme: 'dark', board: 'wood', sound: '' });
});

test('Clocks: onLow hears of the running clock once as it turns low', () => {
  let now = 0;
  const clocks = new Clocks(() => now);
  const heard = [];
  clocks.onLow = (c) => heard.push(c);
  const el = () => ({ textContent: '', classList: { toggle() {} } });
  clocks.attach('white', el());
  clocks.attach('black', el());
  clocks.sync({ clock: { white_ms: 20500, black_ms: 60000, running: 'white' }, over: false });
  clearInterval(clocks.timer);
  assert.deepEqual(heard, []);
  now = 1000;
  clocks.tick();
  now = 2000;
  clocks.tick();
  assert.deepEqual(heard, ['white']);
});
