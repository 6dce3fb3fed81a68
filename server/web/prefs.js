// What the browser remembers between visits (localStorage): the player's
// name and the choices of the new-game form. Storage may be refused
// (private windows): then nothing is remembered, and nothing fails.

const NAME_KEY = 'emergo.name';
const PREFS_KEY = 'emergo.newgame';

/** storedName is the name the player gave last, or "". */
export function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

/** storeName remembers a name; an empty one leaves the old one. */
export function storeName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
  } catch {
    // Private windows may refuse storage; the name is then asked again.
  }
}

/** newGamePrefs are the last choices of the new-game form, or {}. */
export function newGamePrefs() {
  try {
    const prefs = JSON.parse(localStorage.getItem(PREFS_KEY) || '{}');
    return prefs && typeof prefs === 'object' ? prefs : {};
  } catch {
    return {}; // unreadable preferences: the form keeps its defaults
  }
}

/** storeNewGamePrefs remembers the choices of the new-game form. */
export function storeNewGamePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Storage refused: nothing to remember.
  }
}
