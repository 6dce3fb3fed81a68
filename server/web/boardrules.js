// Where the analysis board gets the rules and the engine: from the
// engine compiled to WebAssembly (wasm.js, engine.js), which runs in the
// browser and needs the server no more once the page is loaded; else from
// the server (POST /api/position and POST /api/analyze), for a browser
// without WebAssembly.

import * as api from './api.js';
import { errorText, t } from './i18n.js';

/**
 * MoveListError is moves that cannot be played from a start: the place of
 * the first bad one (from 0) and the message for the player.
 */
export class MoveListError extends Error {
  constructor(index, message) {
    super(message);
    this.name = 'MoveListError';
    this.index = index;
  }
}

/** moveListError is the MoveListError of a refusal of either source, which refuse alike: the rules' code, its parameters, the place (params.index). */
function moveListError(e) {
  const params = e.params || {};
  const index = Number.isInteger(params.index) ? params.index : -1;
  const message = (e.code && errorText(e.code, params)) || e.message || t('error.move.illegal');
  return new MoveListError(index, message);
}

/**
 * Rules answers where moves lead from a start (position text), as the
 * state of docs/api.md's /api/position: {position, size, turn, hands,
 * board, legal, shadow, over, result, reason, moves}, the answers cached
 * by start and moves. local says the rules run in the browser.
 */
export class Rules {
  constructor(ask, local) {
    this.ask = ask;
    this.local = local;
    this.cache = new Map();
  }

  /** state is the position after moves from position; it throws a MoveListError for a move that cannot be played. */
  async state(position, moves) {
    const key = `${position}|${moves.join(' ')}`;
    if (!this.cache.has(key)) {
      const p = Promise.resolve().then(() => this.ask({ position, moves })).catch((e) => {
        this.cache.delete(key);
        throw moveListError(e);
      });
      this.cache.set(key, p);
    }
    return this.cache.get(key);
  }
}

/**
 * rulesAtOnce is rules to use at once: the server's until the browser's
 * (load, the WebAssembly module) are loaded, which can take seconds on a
 * slow phone, then the browser's; local turns true then. Its ready
 * settles when the browser's are in, or will not be.
 */
export function rulesAtOnce(load = defaultLoad, server = api.position) {
  let local = null;
  const rules = new Rules((req) => (local ? local.state(req) : server(req)), false);
  rules.ready = load().then((r) => {
    local = r;
    rules.local = true;
  }, () => {}); // the server's stay
  return rules;
}

/** defaultLoad loads the rules of the browser's engine. */
const defaultLoad = async () => (await import('./wasm.js')).loadRules();

/**
 * loadEngine is the browser's engine (engine.js's BrowserEngine), ready to
 * search, and its analysis panel (enginepanel.js) if there is one: {engine,
 * panel module}; or null when the browser cannot run it.
 */
export async function loadEngine() {
  try {
    const mod = await import('./engine.js');
    if (!mod.BrowserEngine.supported()) return null;
    const panel = await import('./enginepanel.js').catch(() => null);
    // Ready, the worker holds all it needs: the page needs the server no more.
    const engine = new mod.BrowserEngine();
    await engine.ready;
    return { engine, panel };
  } catch {
    return null;
  }
}

/**
 * annotator analyses one position to depth for the annotations: with the
 * browser's engine when there is one, else with the server's. It answers
 * {score, mate, best} for the side to move.
 */
export function annotator(browser, game) {
  if (browser) {
    return async ({ position, moves, depth }) => {
      const r = await browser.engine.analyse({ position, moves, multipv: 1, depth });
      return { score: r.score, mate: r.mate, best: r.move };
    };
  }
  return ({ position, moves, depth }) => api.analyze({ game, position, moves, depth });
}
