// The site's script: "/" is the home page (home.js), "/g/{id}" a game
// (game.js), "/my" the viewer's games (my.js). index.html holds the markup
// of every page; those not wanted are removed, so every data-testid names
// one element.

import { GamePage } from './game.js';
import { homePage } from './home.js';
import { myGamesPage } from './my.js';

/** only keeps the page (a <main>) with id, and marks its link in the header as the current page. */
function only(id, path) {
  for (const main of document.querySelectorAll('main')) {
    if (main.id !== id) main.remove();
  }
  const link = document.querySelector(`.topbar nav a[href="${path}"]`);
  if (link) link.setAttribute('aria-current', 'page');
}

const route = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
if (route) {
  only('game', '');
  new GamePage(decodeURIComponent(route[1])).start();
} else if (/^\/my\/?$/.test(location.pathname)) {
  only('my', '/my');
  myGamesPage();
} else {
  only('home', '/');
  homePage();
}
