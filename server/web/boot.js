// The start of every page: its language first (the catalogue, the static
// markup translated, the switch in the header), the settings of the
// header, then its account area. The entry modules (app.js, board-app.js, explorer.js,
// learn.js, puzzles.js, notfound.js) call boot, then start their page.

import { accountArea } from './account.js';
import { start } from './i18n.js';
import { languageSwitch } from './langswitch.js';
import { settingsMenu } from './settings.js';

/**
 * boot sets up the page's language and its header's account area;
 * onAccountChange runs after a login or a logout on the page (default:
 * nothing).
 */
export async function boot(onAccountChange) {
  await start();
  languageSwitch(document.getElementById('lang'));
  settingsMenu(document.getElementById('lang'));
  accountArea(onAccountChange);
}
