// Quick pairing, on the home page: a button a pool (7×7 3+2, 9×9 5+3, 9×9
// by correspondence), each putting the player in that pool until he is
// paired, when the page opens the game, or until he cancels or leaves the
// page (docs/api.md, "Quick pairing"). Guests see the pools, and are asked
// to log in: the games are rated.

import * as api from './api.js';
import { $, h, showMessage } from './dom.js';
import { timeText } from './deadline.js';
import { t } from './i18n.js';

/** poolLabel names a pool on its button: "7×7 · 3+2". */
export function poolLabel(p) {
  return `${p.size}×${p.size} · ${timeText(p)}`;
}

/**
 * poolStatus is what the page says of the player's place in a pool, from
 * the stream's state: the text and whether the wait is over (paired or
 * refused).
 */
export function poolStatus(st) {
  switch (st.status) {
    case 'paired':
      return { text: t('quick.paired'), done: true };
    case 'refused':
      return { text: api.failureText(0, st.error), done: true, error: true };
    default:
      return { text: t('quick.waiting', { window: st.window || 0, n: st.seeking || 0 }), done: false };
  }
}

/** quickPairing fills the quick pairing card of the home page. */
export async function quickPairing() {
  const box = $('#quick');
  const list = $('#quick-pools', box);
  const status = $('[data-testid="quick-status"]', box);
  const cancel = $('[data-testid="quick-cancel"]', box);
  let answer;
  try {
    answer = await api.pools();
  } catch (e) {
    showMessage(status, e.message);
    return;
  }
  $('[data-testid="quick-guest"]', box).hidden = Boolean(answer.me);
  let stop = null;
  const buttons = answer.pools.map((p) => h('button', {
    type: 'button', class: 'pill-button', 'data-testid': `pool-${p.id}`, 'data-pool': p.id, disabled: !answer.me || null,
  }, poolLabel(p)));
  const idle = () => {
    if (stop) stop();
    stop = null;
    cancel.hidden = true;
    for (const b of buttons) {
      b.disabled = !answer.me;
      b.removeAttribute('aria-pressed');
    }
  };
  for (const b of buttons) {
    b.addEventListener('click', () => {
      idle();
      for (const o of buttons) o.disabled = o !== b;
      b.setAttribute('aria-pressed', 'true');
      cancel.hidden = false;
      showMessage(status, t('quick.joining'), 'info');
      stop = api.seekPool(b.dataset.pool, (st) => {
        const s = poolStatus(st);
        showMessage(status, s.text, s.error ? 'error' : 'info');
        if (st.status === 'paired' && st.game) {
          stop();
          location.assign(`/g/${encodeURIComponent(st.game)}`);
        } else if (s.done) {
          idle();
        }
      }, (s) => {
        if (s === 'reconnecting') showMessage(status, t('common.reconnecting'), 'info');
      });
    });
  }
  cancel.addEventListener('click', () => {
    idle();
    showMessage(status, t('quick.cancelled'), 'info');
  });
  list.replaceChildren(...buttons);
}
