// The entry point of the analysis board's page, analysis.html: the page's
// language (its catalogue, the markup translated, the switch), the
// account area of the header, then the board (board-page.js).

import { accountArea } from './account.js';
import { boardPage } from './board-page.js';
import { start } from './i18n.js';
import { languageSwitch } from './langswitch.js';

await start();
languageSwitch(document.getElementById('lang'));
accountArea();
await boardPage();
document.documentElement.dataset.ready = 'true';
