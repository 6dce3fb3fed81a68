// The language switch of the header, on every page: a <select> of the
// site's languages, each in its own name. The choice goes to the server
// (POST /api/lang), which keeps it in this browser's cookie and in the
// account logged in, and the page is loaded again in that language.

import * as api from './api.js';
import { h } from './dom.js';
import { lang, LANGUAGES } from './i18n.js';

/** languageSwitch fills select with the languages and makes it switch. */
export function languageSwitch(select) {
  if (!select) return;
  select.replaceChildren(...LANGUAGES.map((l) => h('option', { value: l.code, lang: l.code }, l.name)));
  select.value = lang();
  select.hidden = false;
  select.addEventListener('change', async () => {
    const code = select.value;
    select.disabled = true;
    try {
      await api.setLang(code);
      location.reload();
    } catch {
      // The server could not be reached: the page stays as it was.
      select.value = lang();
      select.disabled = false;
    }
  });
}
