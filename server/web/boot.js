// The start of every page: its language first (the catalogue, the static
// markup translated, the switch in the header), then the account area of
// the header. The entry modules (app.js, board-app.js, explorer.js,
// learn.js, puzzles.js, notfound.js) call boot, then start their page.

import { accountArea } from './account.js';
import { start } from './i18n.js';
import { languageSwitch } from './langswitch.js';

/**
 * boot sets up the page's language and its header's account area;
 * onAccountChange runs after a login or a logout on the page (default:
 * nothing).
 */
export async function boot(onAccountChange) {
  await start();
  languageSwitch(document.getElementById('lang'));
  accountArea(onAccountChange);
}
