// The engine's worker (engine.js starts it): the search of the engine
// compiled to WebAssembly, off the page's thread, so that the page never
// waits for it.
//
// Go runs its goroutines on this one thread and never preempts them, so a
// message cannot reach a search that keeps the thread. The search hands
// the thread back after every slice of it (wasm/main_js.go): it calls
// pause(resume), which posts to a MessageChannel and returns to the event
// loop; the worker's own messages (a stop) are handled, then the channel's
// message calls resume() and the search goes on, or ends if it was
// stopped.
//
// Messages in: {type: 'start', module} (the compiled WebAssembly.Module),
// {type: 'analyse', id, request}, {type: 'stop'}. Out: {type: 'ready'} or
// {type: 'failed', message}; {type: 'info', id, info} for every line of
// the search as it comes; {type: 'done', id, best} (with paused: {count,
// ms}, the search's pauses) or {type: 'done', id, error} (the rules'
// refusal, {code, params, message}) at its end.

import { startEngine } from './wasm.js';

let api = null;

const slices = new MessageChannel();
let resume = null;
// What the pauses of the search cost: their number and the time the
// search waited in them, told with its end (paused).
let paused = { count: 0, ms: 0 };
let since = 0;
slices.port1.onmessage = () => {
  const r = resume;
  resume = null;
  paused.ms += performance.now() - since;
  if (r) r();
};
const pause = (r) => {
  resume = r;
  paused.count++;
  since = performance.now();
  slices.port2.postMessage(null);
};

self.onmessage = async ({ data: msg }) => {
  switch (msg.type) {
    case 'start':
      try {
        api = await startEngine(msg.module);
        self.postMessage({ type: 'ready' });
      } catch (e) {
        self.postMessage({ type: 'failed', message: String(e && e.message ? e.message : e) });
      }
      break;
    case 'analyse': {
      const { id, request } = msg;
      paused = { count: 0, ms: 0 };
      api.analyse(
        JSON.stringify(request),
        (line) => self.postMessage({ type: 'info', id, info: JSON.parse(line) }),
        (text) => {
          const a = JSON.parse(text);
          self.postMessage(a.error ? { type: 'done', id, error: a.error } : { type: 'done', id, best: { ...a.ok, paused } });
        },
        pause,
      );
      break;
    }
    case 'stop':
      if (api) api.stop();
      break;
  }
};
