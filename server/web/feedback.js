// What the lessons say of an attempt: right, refused by a rule, or legal
// but not what the exercise asks, with the exercise's own explanation of
// the tempting wrong moves and the rule to read. Pure, but for the
// catalogue.

import { failureText } from './api.js';
import { t } from './i18n.js';

/** sections are the parts of the rules page, by a rule's chapter (docs/rules.md). */
const sections = { 1: 'board', 2: 'columns', 3: 'capturing', 4: 'entering', 5: 'moving', 6: 'end', 7: 'notation' };

/** ruleHref is the address of the section of the rules page that states rule ("4.4", "3.1-3.4"). */
export function ruleHref(rule) {
  const section = sections[String(rule).split(/[.-]/)[0]];
  return section ? `/rules#${section}` : '/rules';
}

/**
 * verdict judges an attempt at an exercise (as GET /api/lessons gives it)
 * from the answer of POST /api/position/why: {kind, move, text, rule},
 * kind "right", "illegal" or "legal" (legal but not asked for), text the
 * explanation in the page's language, rule the rule to read ("" for none).
 */
export function verdict(exercise, answer) {
  const move = answer.move;
  if (answer.legal && exercise.accept.includes(move)) return { kind: 'right', move, text: t(exercise.done), rule: '' };
  const kind = answer.legal ? 'legal' : 'illegal';
  const wrong = exercise.wrong.find((w) => w.move === move);
  if (wrong) return { kind, move, text: t(wrong.note), rule: wrong.rule };
  if (answer.legal) return { kind, move, text: t('learn.other_legal'), rule: '' };
  return { kind, move, text: failureText(200, answer), rule: answer.params?.rule || '' };
}

const headlines = { right: 'learn.right', illegal: 'learn.illegal', legal: 'learn.legal' };

/** headline is the first line of what the page says of a verdict: "c3xe5: right!". */
export const headline = (v) => t(headlines[v.kind], { move: v.move });
