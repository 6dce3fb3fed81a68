// The service worker of the site's push notifications, served at /sw.js
// so that its scope is the whole site. It shows each push the server
// sends (notify.Message: {type, game, from, lang, url}) in the language
// of the account it is for, from the page's catalogue, and opens its
// page (the game, the lobby, the follower's page) when it is clicked:
// the window already showing it if there is one. It does nothing else:
// no cache, no fetch handler.

// The messages of each type, with the name of who made it happen and
// without (a guest opponent), as the notifications page says them
// (notifications.js).
const texts = {
  yourTurn: ['notify.your_turn', 'notify.your_turn_anon'],
  gameOver: ['notify.game_over', 'notify.game_over_anon'],
  challenge: ['notify.challenge', 'notify.challenge'],
  follower: ['notify.follower', 'notify.follower'],
  vacation: ['notify.vacation', 'notify.vacation'],
  tournamentRound: ['notify.tournament_round', 'notify.tournament_round'],
};

const languages = ['en', 'pt', 'ru', 'lfn'];

/**
 * catalogue is the messages of lang (the account's choice), else of the
 * browser's language, else of English; or none.
 */
async function catalogue(lang) {
  const asked = String(lang || self.navigator.language || '').toLowerCase().split('-')[0];
  const code = languages.includes(asked) ? asked : 'en';
  try {
    const res = await fetch(`/i18n/${code}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

/** fill puts params into a message's {places}. */
const fill = (text, params) => String(text).replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));

/** shown is the notification's title and options for the push data d. */
async function shown(d) {
  const cat = await catalogue(d.lang);
  const [named, anon] = texts[d.type] || ['notify.title', 'notify.title'];
  const key = d.from ? named : anon;
  const body = typeof cat[key] === 'string' ? fill(cat[key], { from: d.from || '' }) : '';
  return {
    title: typeof cat['site.name'] === 'string' ? cat['site.name'] : 'Emergo',
    options: { body, tag: d.game || d.type || 'emergo', icon: '/favicon.svg', data: { url: d.url || '/' } },
  };
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (ev) => ev.waitUntil(self.clients.claim()));

self.addEventListener('push', (ev) => {
  let d = {};
  try {
    d = ev.data ? ev.data.json() : {};
  } catch {
    d = {};
  }
  ev.waitUntil(shown(d).then(({ title, options }) => self.registration.showNotification(title, options)));
});

self.addEventListener('notificationclick', (ev) => {
  ev.notification.close();
  const url = new URL(ev.notification.data && ev.notification.data.url || '/', self.location.origin);
  if (url.origin !== self.location.origin) return;
  ev.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((wins) => {
    const open = wins.find((w) => new URL(w.url).pathname === url.pathname);
    return open ? open.focus() : self.clients.openWindow(url.href);
  }));
});
