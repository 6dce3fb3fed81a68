// Small pure helpers for the wording of the pages: colours, capitals,
// counts of men, the endings of games, in the page's language.

import { t } from './i18n.js';

/** other is the opponent of a colour, "white" or "black". */
export const other = (c) => (c === 'white' ? 'black' : 'white');

/** capital is s with its first letter in upper case: "white" is "White". */
export const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** uncapital is s with its first letter in lower case. */
export const uncapital = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/** men counts men: "1 man", "3 men". */
export const men = (n) => t('count.men', { n });

/** colourName names a colour, "white" or "black", as a side: "White". */
export const colourName = (c) => (c === 'white' ? t('colour.white') : t('colour.black'));

/**
 * reasonKeys are the messages of the ways a game ends, by the words of
 * the API's reason (the Termination of the records, which stay English).
 */
const reasonKeys = {
  'all men taken prisoner': 'reason.no_men',
  'no legal move': 'reason.no_move',
  'threefold repetition': 'reason.repetition',
  resignation: 'reason.resignation',
  agreement: 'reason.agreement',
  'time forfeit': 'reason.time_forfeit',
  adjudication: 'reason.adjudication',
  aborted: 'reason.aborted',
  'illegal move': 'reason.illegal_move',
  crash: 'reason.crash',
  abandoned: 'reason.abandoned',
};

/**
 * reasonText is how a game ended, from the API's reason, as a sentence in
 * the page's language ("" for none); a record's own word, which is none
 * of the site's, is shown as the record has it.
 */
export function reasonText(reason) {
  if (!reason) return '';
  const word = reason.split(':')[0].trim();
  return Object.hasOwn(reasonKeys, word) ? t(reasonKeys[word]) : capital(reason);
}

/** formatScore is a score in hundredths of a man as men: +0.35, −1.20, 0.00. */
export function formatScore(score) {
  const v = score / 100;
  if (v === 0) return '0.00';
  return (v > 0 ? '+' : '−') + Math.abs(v).toFixed(2);
}
