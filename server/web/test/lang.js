// The tests' languages: inLanguage loads a catalogue of ../i18n from the
// disk and uses it, strict, so that a key no catalogue has fails a test.

import { readFileSync } from 'node:fs';

import { setCatalogue, setStrict, useLanguage } from '../i18n.js';

/** catalogue reads the catalogue of language code. */
export const catalogue = (code) => JSON.parse(readFileSync(new URL(`../i18n/${code}.json`, import.meta.url), 'utf8'));

/** inLanguage makes code the language of the module under test (English unless told). */
export function inLanguage(code = 'en') {
  setCatalogue('en', catalogue('en'));
  if (code !== 'en') setCatalogue(code, catalogue(code));
  setStrict(true);
  useLanguage(code);
}
