// The viewer's notifications: the bell in the header of every page (a
// link to /notifications with the count of the unread ones, asked for
// again every minute while the page is in sight), the page /notifications
// (the latest first, marked read once shown), and the switch of this
// browser's push notifications on that page: asked for by a click on its
// button only, never by itself. The service worker that shows the pushes
// is sw.js.

import * as api from './api.js';
import { $, h, showMessage } from './dom.js';
import { formatDate, t } from './i18n.js';

/** BELL_REFRESH_MS is how often the bell asks for the count again while the page is in sight. */
const BELL_REFRESH_MS = 60000;

/**
 * PUSH_WAIT_MS is how long the page waits for the browser's push service
 * to make a subscription: a browser without one (headless, or with it
 * blocked) may never answer.
 */
const PUSH_WAIT_MS = 30000;

/** within is promise p, or a refusal with message once ms have passed. */
function within(p, ms, message) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

// The messages of each type, with the name of who made it happen and
// without (a guest opponent).
const texts = {
  yourTurn: ['notify.your_turn', 'notify.your_turn_anon'],
  gameOver: ['notify.game_over', 'notify.game_over_anon'],
  challenge: ['notify.challenge', 'notify.challenge'],
  follower: ['notify.follower', 'notify.follower'],
  vacation: ['notify.vacation', 'notify.vacation'],
  tournamentRound: ['notify.tournament_round', 'notify.tournament_round'],
};

/**
 * notificationView is what the list says of a notification n of the API:
 * {text, href, unread, date}: the game for a turn or an end, the lobby for
 * a challenge, the follower's page for a follow.
 */
export function notificationView(n) {
  const [named, anon] = texts[n.type] || ['notify.title', 'notify.title'];
  const text = n.from ? t(named, { from: n.from }) : t(anon);
  let href = '/';
  if (n.game) href = `/g/${encodeURIComponent(n.game)}`;
  else if (n.type === 'challenge') href = '/lobby';
  else if (n.type === 'follower' && n.from) href = `/@/${encodeURIComponent(n.from)}`;
  return { text, href, unread: !n.read, date: n.created ? formatDate(n.created) : '' };
}

const bellIcon = () => {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M12 2a6 6 0 0 0-6 6v4l-2 4h16l-2-4V8a6 6 0 0 0-6-6zm-2.5 16a2.5 2.5 0 0 0 5 0z');
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
};

let bellParts = null;

/** setUnread shows n unread notifications on the bell. */
function setUnread(n) {
  if (!bellParts) return;
  bellParts.count.textContent = n > 0 ? String(n) : '';
  bellParts.count.hidden = n <= 0;
  bellParts.link.setAttribute('aria-label', t('notify.bell', { n }));
  bellParts.link.dataset.unread = String(n);
}

async function refreshBell() {
  try {
    setUnread((await api.notifications()).unread || 0);
  } catch {
    // The bell keeps its count: the next refresh tries again.
  }
}

/**
 * bell is the header's link to the notifications, with the count of the
 * unread ones; the account area puts it beside the username.
 */
export function bell() {
  const count = h('span', { class: 'bell-count', 'data-testid': 'bell-count', hidden: true });
  const link = h('a', { href: '/notifications', class: 'bell', 'data-testid': 'bell', title: t('notify.title') }, bellIcon(), count);
  if (location.pathname === '/notifications') link.setAttribute('aria-current', 'page');
  const first = bellParts === null;
  bellParts = { link, count };
  setUnread(0);
  refreshBell();
  if (first) {
    setInterval(() => { if (!document.hidden) refreshBell(); }, BELL_REFRESH_MS);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshBell(); });
  }
  return link;
}

/** notificationsPage runs /notifications: the list, then marks it read; the push switch. */
export async function notificationsPage() {
  $('#notifications').hidden = false;
  document.title = t('title.notifications');
  pushSwitch();
  const box = $('#notification-list');
  let list;
  try {
    list = await api.notifications();
  } catch (e) {
    box.replaceChildren(h('p', { class: 'muted' }, e.message));
    return;
  }
  show(box, list.notifications || []);
  if (list.unread > 0) {
    try {
      setUnread((await api.readNotifications({ all: true })).unread || 0);
    } catch {
      // Left unread: shown so again next time.
    }
  }
}

/** show lists the notifications ns in box, the unread marked. */
function show(box, ns) {
  if (ns.length === 0) {
    box.replaceChildren(h('p', { class: 'muted', 'data-testid': 'notifications-none' }, t('notify.none')));
    return;
  }
  box.replaceChildren(h('ul', { class: 'notifications' }, ns.map((n) => {
    const v = notificationView(n);
    return h('li', { class: v.unread ? 'unread' : null, 'data-testid': 'notification', 'data-type': n.type },
      h('a', { href: v.href }, v.text),
      v.unread ? h('span', { class: 'pill new' }, t('notify.new')) : null,
      h('span', { class: 'muted small' }, v.date));
  })));
}

/** SW_URL is the service worker, served at the root so that its scope is the whole site. */
const SW_URL = new URL('./sw.js', import.meta.url);

/** pushSupported reports whether this browser can receive push notifications. */
const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** base64url of a key as the Push API takes it. */
function keyBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/**
 * pushSwitch runs the page's switch of this browser's push notifications:
 * a button to turn them on (the browser asks its permission then, and
 * only then), or, when on, a button to turn them off.
 */
async function pushSwitch() {
  const status = $('#push-status');
  const button = $('#push-toggle');
  const msg = $('#push-message');
  if (!pushSupported()) {
    status.textContent = t('notify.push_unsupported');
    button.hidden = true;
    return;
  }
  let reg = null;
  let sub = null;
  const render = () => {
    status.textContent = sub ? t('notify.push_is_on') : '';
    button.textContent = sub ? t('notify.push_off') : t('notify.push_on');
    button.dataset.state = sub ? 'on' : 'off';
    button.hidden = false;
  };
  try {
    reg = await navigator.serviceWorker.register(SW_URL, { scope: '/' });
    sub = await reg.pushManager.getSubscription();
  } catch (e) {
    showMessage(msg, t('notify.push_failed', { error: e.message }));
  }
  render();
  button.addEventListener('click', async () => {
    showMessage(msg, '');
    button.disabled = true;
    try {
      if (sub) {
        const endpoint = sub.endpoint;
        await sub.unsubscribe();
        sub = null;
        await api.pushUnsubscribe(endpoint);
      } else {
        if (await Notification.requestPermission() !== 'granted') {
          showMessage(msg, t('notify.push_denied'));
          return;
        }
        reg = reg || await navigator.serviceWorker.register(SW_URL, { scope: '/' });
        const { key } = await api.pushKey();
        const made = await within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }),
          PUSH_WAIT_MS, t('notify.push_no_service'));
        await api.pushSubscribe(made.toJSON());
        sub = made;
      }
    } catch (e) {
      showMessage(msg, t('notify.push_failed', { error: e.message }));
    } finally {
      button.disabled = false;
      render();
    }
  });
}
