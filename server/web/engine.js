// The engine in the browser: the search of the engine compiled to
// WebAssembly (the same Go as the server's engine), in a Web Worker
// (engineworker.js), so that the page never freezes and the analysis goes
// on without the server once the page has loaded.
//
//   const engine = new BrowserEngine();
//   const best = await engine.analyse({ position, moves, multipv: 3 }, (line) => show(line));
//   engine.stop();  // the analysis ends within a slice of its search; its promise gives the best so far
//
// Scores are the engine's, for the side to move, in hundredths of a man
// (analysis.js's scoreText shows them from White's side).

import { RulesError, compileEngine } from './wasm.js';

/**
 * BrowserEngine is one engine in a worker: one analysis at a time, a new
 * one stopping the one before. The worker starts at once (the engine is
 * fetched and compiled once per page, shared with wasm.js's rules); ready
 * says when it can search, and rejects when it cannot (no WebAssembly, the
 * file unreachable).
 */
export class BrowserEngine {
  /** supported says whether this browser can run the engine: WebAssembly and workers. */
  static supported() {
    return typeof WebAssembly === 'object' && typeof Worker === 'function';
  }

  constructor() {
    this.worker = new Worker(new URL('./engineworker.js', import.meta.url), { type: 'module' });
    this.next = 0;
    this.current = null; // {id, onInfo, resolve, reject, best}
    this.finishing = new Map(); // id -> the analyses stopped, until their end comes
    this.ready = new Promise((resolve, reject) => {
      this.started = { resolve, reject };
    });
    this.ready.catch(() => {}); // a failure is told by analyse too
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (e) => this.fail(Object.assign(new Error(e.message || 'the engine\'s worker failed'), { code: 'engine.worker_failed' }));
    compileEngine().then(
      (module) => this.worker.postMessage({ type: 'start', module }),
      (e) => this.fail(e),
    );
  }

  fail(e) {
    this.started.reject(e);
    for (const a of [this.current, ...this.finishing.values()]) if (a) a.reject(e);
    this.current = null;
    this.finishing.clear();
  }

  receive(msg) {
    if (msg.type === 'ready') {
      this.started.resolve();
      return;
    }
    if (msg.type === 'failed') {
      this.fail(new Error(msg.message));
      return;
    }
    const a = this.current && this.current.id === msg.id ? this.current : this.finishing.get(msg.id);
    if (!a) return;
    if (msg.type === 'info') {
      if (a === this.current) a.onInfo(msg.info);
      return;
    }
    // done
    this.finishing.delete(msg.id);
    if (a === this.current) this.current = null;
    if (msg.error) a.reject(new RulesError(msg.error));
    else a.resolve(msg.best);
  }

  /**
   * analyse searches the game {position (a text, or '' for the start of
   * size), size, moves} until stop (or to depth, if given), telling onInfo
   * every line of every iteration as it comes: {depth, multipv, score,
   * mate, bound, pv, nodes, nps, ms, final}, final for the lines of the
   * result. It resolves to the best move found {move, score, mate, pv,
   * depth, nodes, ms, lines}, and rejects with a RulesError for a game the
   * rules refuse or one that is over. With level (1 to 10) it is the move of
   * the engine at that level instead, as it plays in a game. A call while
   * an analysis runs stops that one first.
   */
  async analyse({ position = '', size = 9, moves = [], multipv = 1, depth = Infinity, level = 0 } = {}, onInfo = () => {}) {
    await this.ready;
    this.stop();
    const id = ++this.next;
    const request = {
      position: position || '', size: size || 9, moves: moves || [],
      multipv, depth: Number.isFinite(depth) ? depth : 0, level: level || 0,
    };
    return new Promise((resolve, reject) => {
      this.current = { id, onInfo, resolve, reject };
      this.worker.postMessage({ type: 'analyse', id, request });
    });
  }

  /** stop ends the analysis under way, whose promise resolves with the best move found so far. */
  stop() {
    if (!this.current) return;
    this.finishing.set(this.current.id, this.current);
    this.current = null;
    this.worker.postMessage({ type: 'stop' });
  }

  /** close ends the worker; an analysis under way is rejected. */
  close() {
    this.worker.terminate();
    this.fail(new Error('the engine was closed'));
  }
}
