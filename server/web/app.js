// The site's script: "/" is the home page (home.js), "/g/{id}" a game
// (game.js). index.html holds the markup of both; the one that is not
// wanted is removed, so every data-testid names one element.

import { GamePage } from './game.js';
import { homePage } from './home.js';

const route = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
if (route) new GamePage(decodeURIComponent(route[1])).start();
else homePage();
