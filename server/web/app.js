// The site's script: the account area of the header on every page, then
// the page: "/" is the home page (home.js), "/g/{id}" a game (game.js),
// "/my" the viewer's games (my.js), "/@/{name}" a player's page
// (profile.js, with his follows of following.js), "/lobby" the lobby
// (lobby.js), "/notifications" the viewer's notifications
// (notifications.js), "/following" the games of the players he follows
// (following.js), "/tv" the best games going on (tv.js), and the rules
// page has nothing more.
// index.html holds the markup of the home, game, my-games, player and
// lobby pages; those not wanted are removed, so every data-testid names
// one element. First of all the page's language is set up (i18n.js): its
// catalogue, the static markup translated, the switch in the header.

import { boot } from './boot.js';
import { decoded } from './dom.js';
import { followingPage, followsPart } from './following.js';
import { GamePage } from './game.js';
import { homePage } from './home.js';
import { lobbyPage } from './lobby.js';
import { myGamesPage } from './my.js';
import { notificationsPage } from './notifications.js';
import { profilePage } from './profile.js';
import { tvPage } from './tv.js';

/** only keeps the page (a <main>) with id, and marks its link in the header as the current page. */
function only(id, path) {
  for (const main of document.querySelectorAll('main')) {
    if (main.id !== id) main.remove();
  }
  const link = document.querySelector(`.topbar nav a[href="${path}"]`);
  if (link) link.setAttribute('aria-current', 'page');
}

const path = location.pathname;
const route = /^\/g\/([^/]+)\/?$/.exec(path);
const my = /^\/my\/?$/.test(path);
const player = /^\/@\/([^/]+)\/?$/.exec(path);
const lobby = /^\/lobby\/?$/.test(path);
const notes = /^\/notifications\/?$/.test(path);
const following = /^\/following\/?$/.test(path);
const tv = /^\/tv\/?$/.test(path);
// A game and the list of one's games show what they show by who is
// looking: after a login or a logout they are loaded again, for whoever
// looks now.
await boot(route || my || lobby || player || notes || following ? () => location.reload() : undefined);
if (route) {
  only('game', '');
  new GamePage(decoded(route[1])).start();
} else if (my) {
  only('my', '/my');
  myGamesPage();
} else if (player) {
  only('profile', '');
  profilePage(decoded(player[1]), followsPart);
} else if (lobby) {
  only('lobby', '/lobby');
  lobbyPage();
} else if (notes) {
  only('notifications', '');
  notificationsPage();
} else if (following) {
  only('following', '');
  followingPage();
} else if (tv) {
  only('tv', '/tv');
  tvPage();
} else if (document.getElementById('home')) {
  only('home', '/');
  homePage();
}
