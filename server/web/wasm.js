// The engine compiled to WebAssembly (the Go command in wasm/, served as
// /engine.wasm) on the page's own thread: the rules of the game for pages
// that play without the server (the analysis board, lessons). Every answer
// is computed by the same Go code as the server's, so the legal moves, the
// ends of games and the reasons why a move is refused are the server's.
// The search runs in a worker instead (engine.js), from the same module.
//
//   const rules = await loadRules();
//   rules.state({ size: 9, moves: ['c3', 'g7'] })  // {position, turn, legal, ...}
//   rules.why('9x9 w 12/12 -', 'e5')               // {code: 'move.centre_first', rule: '4.3', ...}

import { errorText } from './i18n.js';
import './wasm_exec.js';

/** WASM_URL is where the server serves the engine. */
export const WASM_URL = '/engine.wasm';

/**
 * RulesError is a position or a move the rules refuse, as the engine
 * answers it and the server's API too ({code, params, message}): the code
 * of the pages' catalogues (error.CODE) and its params, and from them the
 * rule (params.rule, its number in the rules, for a move) and which move
 * of the list it is (params.index, from 0; null for the position); the
 * message in the page's language (the English text when the catalogue
 * has none).
 */
export class RulesError extends Error {
  constructor({ code, params = {}, message = '' }) {
    super(errorText(code, params) || message);
    this.name = 'RulesError';
    this.code = code;
    this.rule = params.rule ?? '';
    this.params = params;
    this.index = Number.isInteger(params.index) ? params.index : null;
  }
}

/** problem is a RulesError as plain data, as why gives it. */
const problem = (e) => ({ code: e.code, rule: e.rule, params: e.params, message: e.message });

let compiled = null;

/**
 * compileEngine fetches and compiles the engine, once per page: the
 * rules and the worker of the search start from the same module. It
 * rejects when WebAssembly is missing or the file cannot be had, and
 * tries again at the next call.
 */
export function compileEngine(url = WASM_URL) {
  compiled ??= (async () => {
    if (typeof WebAssembly !== 'object') throw Object.assign(new Error('this browser has no WebAssembly'), { code: 'engine.no_webassembly' });
    const resp = await fetch(url);
    if (!resp.ok) throw Object.assign(new Error(`${url}: ${resp.status} ${resp.statusText}`), { code: 'engine.unavailable' });
    return WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(resp)
      : WebAssembly.compile(await resp.arrayBuffer());
  })().catch((e) => {
    compiled = null;
    throw e;
  });
  return compiled;
}

/**
 * startEngine runs the engine's program in this thread (a page or a
 * worker) and returns its functions, which take and give JSON text (see
 * wasm/main_js.go). source is a WebAssembly.Module or the bytes of one.
 */
export async function startEngine(source) {
  const go = new globalThis.Go();
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  const instance = await WebAssembly.instantiate(module, go.importObject);
  // The program puts its functions on globalThis and waits for calls; the
  // promise of its end never settles.
  go.run(instance);
  const api = globalThis.emergoWasm;
  if (!api) throw new Error('the engine did not start');
  return api;
}

/** answer reads a JSON answer of the engine: its value, or a RulesError thrown. */
export function answer(text) {
  const a = JSON.parse(text);
  if (a.error) throw new RulesError(a.error);
  return a.ok ?? null;
}

/** gameRequest is a game as the engine takes it: a position text (or the start of size) and the moves since. */
function gameRequest({ position = '', size = 9, moves = [] } = {}) {
  return { position: position || '', size: size || 9, moves: moves || [] };
}

/**
 * Rules answers questions of the rules with the engine, synchronously.
 * Positions are texts as notation.FormatPosition writes them
 * ("9x9 w 12/12 -"), moves as the rules write them (RULES 7).
 */
export class Rules {
  constructor(api) {
    this.api = api;
  }

  /**
   * state is the game after moves from position (or from the start of
   * size): {position, size, turn, hands, board, legal (sorted; [] when
   * over), shadow, over, result, reason, moves (normalised), start}, the
   * fields of the API's state. Repetitions and the end of the game count
   * the moves given. Throws a RulesError for a position that is not one
   * or a move that is not legal (its index says which).
   */
  state(game) {
    return answer(this.api.state(JSON.stringify(gameRequest(game))));
  }

  /**
   * why is null when move is legal in position (a text, or a game as
   * state takes it), else the rule it breaks: {code, rule, params,
   * message}. Throws a RulesError when the position is not one.
   */
  why(position, move) {
    const game = typeof position === 'string' ? { position } : position;
    const p = answer(this.api.why(JSON.stringify({ ...gameRequest(game), move: String(move) })));
    return p && problem(new RulesError(p));
  }

  /** legal are the legal moves of a game as state takes it, sorted. */
  legal(game) {
    return this.state(game).legal;
  }

  /**
   * positionText is the canonical text of an edited position {size, turn,
   * hands: {white, black}, board: [{square, owner, top, prisoners}]}.
   * Throws a RulesError (position.invalid) when it is no position: a
   * column without a man on top, more men than a side has, a square off
   * the board.
   */
  positionText({ size, turn, hands = {}, board = [] }) {
    return answer(this.api.positionText(JSON.stringify({ size, turn, hands, board })));
  }

  /** format is the canonical text of a position text written loosely (columns in any order, commas). */
  format(position) {
    return this.state({ position }).position;
  }
}

let loaded = null;

/**
 * loadRules resolves to the page's Rules, the engine started once. It
 * rejects with an Error when WebAssembly is missing or the engine cannot
 * be fetched (and tries again at the next call). source, for tests: the
 * bytes of the engine instead of WASM_URL.
 */
export function loadRules(source) {
  loaded ??= (async () => new Rules(await startEngine(source ?? (await compileEngine()))))().catch((e) => {
    loaded = null;
    throw e;
  });
  return loaded;
}
