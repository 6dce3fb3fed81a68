// Vacation from the correspondence games: what a game page says of its
// players away (their deadlines paused), what a profile says of its
// player, and the form on one's own profile that begins a vacation, or
// ends it early, within the days of the year's allowance left.

import * as api from './api.js';
import { h, showMessage } from './dom.js';
import { formatDate, t } from './i18n.js';

/**
 * vacationNotes are what a game page says of the players of the state s
 * on vacation (s.vacation: {white|black: until}): "Bob is on vacation
 * until 12 December 2026", or "You are on vacation until ..." for the
 * viewer; none for a state without.
 */
export function vacationNotes(s) {
  const away = (s && s.vacation) || {};
  return ['white', 'black'].filter((c) => away[c]).map((c) => {
    const date = formatDate(away[c], 'long');
    return s.you === c ? t('vacation.you_until', { date })
      : t('vacation.player_until', { name: (s.players && s.players[c] && s.players[c].name) || '?', date });
  });
}

/** showVacationNotes writes the notes of the state s into el, hidden without any. */
export function showVacationNotes(el, s) {
  const notes = vacationNotes(s);
  el.hidden = notes.length === 0;
  el.textContent = notes.join(' ');
}

/**
 * vacationStatus is what one's own profile says of one's vacation, from
 * the account {vacation, vacationDaysLeft} (GET /api/account/me or the
 * answer of a change): {on, text, left, max}: on vacation, until when, the
 * days left this year, and the most days a new vacation may take.
 */
export function vacationStatus(me) {
  const left = Math.max(0, Number(me && me.vacationDaysLeft) || 0);
  const on = Boolean(me && me.vacation);
  const text = on ? t('vacation.you_until', { date: formatDate(me.vacation, 'long') }) : t('vacation.off');
  return { on, text, left: t('vacation.days_left', { n: left }), max: left };
}

/**
 * vacationForm fills box with the viewer's vacation and its form: the
 * days and "Go on vacation", or "End the vacation" while one runs.
 */
export function vacationForm(box, me) {
  const status = h('p', { 'data-testid': 'vacation-status' });
  const left = h('p', { class: 'muted small', 'data-testid': 'vacation-left' });
  const days = h('input', { type: 'number', name: 'days', min: 1, value: 1, required: true, 'data-testid': 'vacation-days' });
  const start = h('button', { type: 'submit', class: 'primary', 'data-testid': 'vacation-start' }, t('vacation.start'));
  const end = h('button', { type: 'button', 'data-testid': 'vacation-end' }, t('vacation.end'));
  const msg = h('p', { class: 'message', 'data-testid': 'vacation-message', role: 'alert', 'aria-live': 'assertive' });
  const field = h('label', { class: 'field' }, h('span', {}, t('vacation.days')), days);
  const form = h('form', { class: 'vacation-form', 'data-testid': 'vacation-form' }, field, h('div', { class: 'actions' }, start, end));
  const show = (v) => {
    const st = vacationStatus(v);
    status.textContent = st.text;
    left.textContent = st.left;
    days.max = String(Math.max(st.max, 1));
    field.hidden = st.on || st.max === 0;
    start.hidden = st.on || st.max === 0;
    end.hidden = !st.on;
  };
  const act = async (f) => {
    start.disabled = end.disabled = true;
    try {
      const v = await f();
      show({ vacation: v.until, vacationDaysLeft: v.daysLeft });
      showMessage(msg, '');
    } catch (e) {
      showMessage(msg, e.message);
    } finally {
      start.disabled = end.disabled = false;
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    act(() => api.startVacation(Number(days.value)));
  });
  end.addEventListener('click', () => act(() => api.endVacation()));
  show(me);
  box.replaceChildren(h('p', { class: 'muted small' }, t('vacation.note', { n: me.vacationAllowance })), status, left, form, msg);
  box.closest('section').hidden = false;
}
