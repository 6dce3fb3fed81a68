// The few DOM helpers every page uses: finding and making elements, and
// showing a message.

import { t } from './i18n.js';
import { moveParts } from './notation.js';

/** $ is the first element matching sel in root. */
export const $ = (sel, root = document) => root.querySelector(sel);

/** focusable reports whether e can have the focus: shown and not disabled. */
export const focusable = (e) => !e.disabled && e.getClientRects().length > 0;

/**
 * keepFocus runs fn, which redraws part of the page, and keeps the focus
 * on the page when fn took it away (a button it disabled, hid or made
 * anew): on the same element if it can still have it (or the one drawn
 * in its place: of the same data-testid, else its list's Tab stop), else on the next one of the same
 * part of the page, one of parts (the one before, when none follows),
 * else on what fallback answers. The focus never falls to the body.
 */
export function keepFocus(fn, parts, fallback) {
  const had = document.activeElement;
  const part = had && had !== document.body ? had.closest(parts) : null;
  fn();
  const now = document.activeElement;
  if (!part || (now && now !== document.body && focusable(now))) return;
  const testid = had.dataset && had.dataset.testid;
  // An element drawn anew is replaced by the one of its data-testid, or
  // the Tab stop of its list when it was one of a roving tabindex.
  const same = had.isConnected ? had : (testid && part.querySelector(`[data-testid="${testid}"]`))
    || (had.hasAttribute('tabindex') && part.querySelector('[tabindex="0"]'));
  if (same && focusable(same)) {
    same.focus({ preventScroll: true });
    return;
  }
  const near = [...part.querySelectorAll('button, input, select, a[href], [tabindex="0"]')].filter(focusable);
  const next = had.isConnected ? near.find((e) => had.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) : null;
  (next || near[near.length - 1] || fallback())?.focus({ preventScroll: true });
}

/**
 * rovingKeys makes the elements of box that match sel one Tab stop, the
 * one with tabindex 0 (the caller draws them so), between which the arrow
 * keys up and down (left and right too when across), Home and End take the
 * focus.
 */
export function rovingKeys(box, sel, across = false) {
  box.addEventListener('keydown', (e) => {
    const items = [...box.querySelectorAll(sel)];
    const i = items.indexOf(e.target);
    const side = across ? { ArrowLeft: i - 1, ArrowRight: i + 1 } : {};
    const to = { ArrowUp: i - 1, ArrowDown: i + 1, Home: 0, End: items.length - 1, ...side }[e.key];
    if (i < 0 || to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const next = items[Math.max(0, Math.min(items.length - 1, to))];
    for (const it of items) it.setAttribute('tabindex', it === next ? '0' : '-1');
    next.focus();
  });
}

/** svgEl makes an SVG element with attributes, appended to parent if one is given. */
export function svgEl(name, attrs = {}, parent = null) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** h makes an HTML element: h('button', {class: 'x', onclick}, 'text', child). */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** showMessage puts text in a message element; kind is "error" or "info". */
export function showMessage(el, text, kind = 'error') {
  el.textContent = text || '';
  el.className = `message ${text ? kind : ''}`;
}

/** breakable is a move's text with a line-break chance between squares. */
export function breakable(m) {
  return moveParts(m).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
}

/**
 * displayName is a player's name as the page shows it: the names the
 * server gives, which the records keep, in the page's language: the
 * engine's seat ("Emergo level 3") and a guest without a name
 * ("Anonymous").
 */
export function displayName(name) {
  if (name === 'Anonymous') return t('player.anonymous');
  const m = /^Emergo level (\d+)$/.exec(name || '');
  return m ? t('player.engine', { level: Number(m[1]) }) : name;
}

/**
 * nameText is a player's name as the page writes it (displayName), a
 * guest's marked so ("Ann (guest)"): the server keeps the engine's names
 * and the accounts' from guests, and the mark keeps a guest's name from
 * passing for someone else's.
 */
export function nameText(name, guest) {
  const n = displayName(name);
  return guest && n ? t('player.guest_name', { name: n }) : n;
}

/**
 * decoded is a part of an address with its escapes decoded: one typed or
 * cut badly ("%zz", "%E0%A4", no UTF-8) is read as it is, not refused, so
 * that the page can say there is no such thing.
 */
export function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return String(text);
  }
}

/** hashText is the text of an address's hash, without its "#", decoded. */
export const hashText = (hash) => decoded(String(hash).replace(/^#/, ''));

/** profileHref is the address of a player's page. */
export const profileHref = (name) => `/@/${encodeURIComponent(name)}`;

/**
 * botTag is the mark of a bot account's name ("BOT"), wherever a name
 * shows, or null for a person's: a program plays that account.
 */
export function botTag(bot, attrs = {}) {
  return bot ? h('span', { ...attrs, class: 'tag bot', title: t('player.bot_title') }, t('player.bot_tag')) : null;
}

/**
 * playerLink is a player's name, a link to his page when he has an account
 * (a guest and the engine have none).
 */
export function playerLink(name, account, attrs = {}) {
  return account ? h('a', { ...attrs, class: `player-link ${attrs.class || ''}`.trim(), href: profileHref(name) }, name)
    : h('span', attrs, name);
}
