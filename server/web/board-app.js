// The entry point of the analysis board's page, analysis.html: the page's
// language (its catalogue, the markup translated, the switch), the
// account area of the header, then the board (board-page.js).

import { boardPage } from './board-page.js';
import { boot } from './boot.js';

await boot();
await boardPage();
document.documentElement.dataset.ready = 'true';
