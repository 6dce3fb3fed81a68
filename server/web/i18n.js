// The site's languages: English, Portuguese, Russian and Elefen. Every
// text a page shows comes from a catalogue, i18n/{code}.json (one key
// set, the same in every language), through t(key, params); the server
// chooses the page's language and says it in <html lang> (docs/api.md).
//
// A message is a text with {name} places for its parameters, or, for a
// count, its plural forms {"one": ..., "few": ..., "many": ..., "other":
// ...} chosen by the parameter n under the language's plural rules
// (Intl.PluralRules; Elefen, which browsers have no rules for, has its
// own: one for 1, other for the rest, as its nouns take -s or -es). Keys
// are written out in full where they are used, t('home.title'), and
// data-i18n="key" in the HTML, so that a test finds every one.
//
// Dates and numbers are formatted by Intl in the page's language; Elefen
// uses the conventions of French (05/03/2026, 14:05, 1 234,5), its
// European neighbours', with dates in figures only, since a month's name
// would be French.

/** LANGUAGES are the site's languages, each with its own name for itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'pt', name: 'Português' },
  { code: 'ru', name: 'Русский' },
  { code: 'lfn', name: 'Elefen' },
];

/** DEFAULT is the language of a page that names none the site has. */
export const DEFAULT = 'en';

/** intlLocales are the locales Intl formats each language's dates and numbers in. */
const intlLocales = { en: 'en', pt: 'pt-PT', ru: 'ru', lfn: 'fr' };

/** wordlessDates are the languages whose dates are written in figures only. */
const wordlessDates = new Set(['lfn']);

const catalogues = new Map();
let current = DEFAULT;
let strict = false;

/** known reports whether code is one of the site's languages. */
export const known = (code) => LANGUAGES.some((l) => l.code === code);

/** setCatalogue gives the messages of language code. */
export function setCatalogue(code, messages) {
  catalogues.set(code, messages);
}

/** useLanguage makes code the language of t and the formats. */
export function useLanguage(code) {
  current = known(code) ? code : DEFAULT;
}

/** lang is the language in use. */
export const lang = () => current;

/**
 * setStrict makes t throw on a key no catalogue has, instead of showing
 * the key: the tests' setting, so that a slip fails them.
 */
export function setStrict(on) {
  strict = on;
}

/**
 * pluralCategory is the CLDR plural category of n in language code: "one",
 * "few", "many" or "other" (Russian 1, 2, 5: one, few, many). Elefen has
 * no CLDR rules in browsers: one for exactly 1, other for the rest.
 */
export function pluralCategory(code, n) {
  if (code === 'lfn') return Math.abs(n) === 1 ? 'one' : 'other';
  return new Intl.PluralRules(intlLocales[code] || code).select(n);
}

/**
 * message is the entry of key in the language in use, else in English
 * (never when strict), else undefined.
 */
function message(key) {
  const own = catalogues.get(current);
  if (own && Object.hasOwn(own, key)) return own[key];
  if (strict) return undefined;
  const en = catalogues.get(DEFAULT);
  if (en && Object.hasOwn(en, key)) return en[key];
  return undefined;
}

/** text is the text of message m for params: the plural form of params.n for a count. */
function text(key, m, params) {
  if (m === undefined) {
    if (strict) throw new Error(`i18n: no message ${key}`);
    return key;
  }
  if (typeof m === 'object') {
    const n = Number(params.n);
    if (strict && !Number.isFinite(n)) throw new Error(`i18n: ${key} needs a count n`);
    return m[pluralCategory(current, n)] ?? m.other;
  }
  return m;
}

/** fill puts params into the {name} places of s. */
function fill(s, params) {
  return s.replace(/\{([a-z_][a-z0-9_]*)\}/gi, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** shown are params as the places show them: a count n written as the language writes numbers. */
const shown = (params) => (typeof params.n === 'number' ? { ...params, n: formatNumber(params.n) } : params);

/**
 * t is the message key in the page's language, its {name} places filled
 * from params; the count n, which chooses the plural form, is written as
 * the language writes numbers (12,345 / 12 345).
 */
export function t(key, params = {}) {
  return fill(text(key, message(key), params), shown(params));
}

/** has reports whether key is a message of the catalogues. */
export const has = (key) => message(key) !== undefined;

/**
 * tParts is t for a message some of whose places hold elements: the text
 * split at them, [string | element], ready to append. parts maps a place's
 * name to its element (or any value); the others are filled from params.
 */
export function tParts(key, parts, params = {}) {
  const s = text(key, message(key), params);
  params = shown(params);
  const out = [];
  let last = 0;
  for (const m of s.matchAll(/\{([a-z_][a-z0-9_]*)\}/gi)) {
    if (!Object.hasOwn(parts, m[1])) continue;
    out.push(fill(s.slice(last, m.index), params), parts[m[1]]);
    last = m.index + m[0].length;
  }
  out.push(fill(s.slice(last), params));
  return out.filter((x) => x !== '');
}

/** errorText is the message of the server's error code (docs/api.md) with its params, or "" if the catalogues have none. */
export function errorText(code, params = {}) {
  const key = `error.${code}`;
  return code && has(key) ? t(key, params) : '';
}

/** locale is the locale Intl formats the language in use with. */
export const locale = () => intlLocales[current] || current;

/** formatNumber writes n as the language does: 12,345 / 12 345. */
export const formatNumber = (n, options) => new Intl.NumberFormat(locale(), options).format(n);

const dateStyles = {
  short: { year: 'numeric', month: '2-digit', day: '2-digit' },
  long: { year: 'numeric', month: 'long', day: 'numeric' },
};

/**
 * formatDate writes a date (a Date, a time in ms or a date text) as the
 * language does, style "short" (05/03/2026) or "long" (5 March 2026; in
 * figures where the language has no month names).
 */
export function formatDate(when, style = 'short') {
  const d = when instanceof Date ? when : new Date(when);
  const s = wordlessDates.has(current) ? 'short' : style;
  return new Intl.DateTimeFormat(locale(), dateStyles[s]).format(d);
}

/**
 * translate puts the messages into the static markup under root: the text
 * of each data-i18n="key" element (with the count data-i18n-n, if it has
 * one), and the attributes named by
 * data-i18n-placeholder, -title, -aria-label and -alt. An element whose
 * message has places for its children (data-i18n-slot="name") keeps those
 * children, moved to their places.
 */
export function translate(root) {
  for (const e of root.querySelectorAll('[data-i18n]')) {
    const params = e.dataset.i18nN === undefined ? {} : { n: Number(e.dataset.i18nN) };
    const slots = {};
    for (const c of e.querySelectorAll(':scope > [data-i18n-slot]')) slots[c.dataset.i18nSlot] = c;
    if (Object.keys(slots).length) e.replaceChildren(...tParts(e.dataset.i18n, slots, params));
    else e.textContent = t(e.dataset.i18n, params);
  }
  for (const attr of ['placeholder', 'title', 'aria-label', 'alt']) {
    for (const e of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      e.setAttribute(attr, t(e.getAttribute(`data-i18n-${attr}`)));
    }
  }
}

/**
 * start sets up the page's language: the one <html lang> names (the
 * server's choice), its catalogue fetched, English's instead if that
 * fails, and the static markup translated; then <html data-translated>
 * names the language.
 */
export async function start(doc = document) {
  const want = known(doc.documentElement.lang) ? doc.documentElement.lang : DEFAULT;
  for (const code of new Set([want, DEFAULT])) {
    try {
      const res = await fetch(`/i18n/${code}.json`);
      if (!res.ok) continue;
      setCatalogue(code, await res.json());
      useLanguage(code);
      doc.documentElement.lang = code;
      break;
    } catch {
      // The next language, or the keys themselves: the page still works.
    }
  }
  translate(doc);
  // Said for the tests, which wait for it: the static markup is translated.
  doc.documentElement.dataset.translated = current;
}
