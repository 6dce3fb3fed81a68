// The tournaments, /tournaments, the entry module of tournaments.html
// (boot first): the list of the upcoming, running and finished ones (GET
// /api/tournaments, asked again every half minute while the page is in
// sight), each row a link to its page, and for an account the form that
// makes one (POST /api/tournaments), which then opens it.

import * as api from './api.js';
import { boot } from './boot.js';
import { $, h, showMessage } from './dom.js';
import { t } from './i18n.js';
import { createRequest, listSections } from './tournamentview.js';

/** REFRESH_MS is how often the list is asked for again while the page is in sight. */
const REFRESH_MS = 30000;

/** listTable is one part of the list, as a table with its caption; null when empty. */
function listTable(section) {
  if (section.rows.length === 0) return null;
  const col = (key, cls) => h('th', { scope: 'col', class: cls }, t(key));
  return h('table', { class: 'games tournament-list', 'data-testid': `tournaments-${section.key}` },
    h('caption', {}, section.title),
    h('thead', {}, h('tr', {},
      col('tournaments.name'), col('tournaments.system'), col('list.board', 'hide-narrow'), col('list.time'),
      col('tournaments.col_rated', 'hide-narrow'), col('tournaments.col_players', 'num hide-narrow'), col('tournaments.col_start'))),
    h('tbody', {}, section.rows.map((r) => h('tr', { 'data-testid': 'tournament-row', 'data-tournament': r.href.slice(3) },
      h('th', { scope: 'row' }, h('a', { href: r.href, 'data-testid': 'tournament-link' }, r.name)),
      h('td', {}, r.system),
      h('td', { class: 'hide-narrow' }, r.board),
      h('td', {}, r.time),
      h('td', { class: 'hide-narrow' }, r.rated),
      h('td', { class: 'num hide-narrow' }, r.players),
      h('td', {}, r.start || r.status)))));
}

/** listPage runs the list and the form. */
async function listPage() {
  const box = $('#tournament-list');
  const msg = $('[data-testid="tournaments-message"]');
  const form = $('#tournament-form');
  const f = form.elements;
  const formMsg = $('[data-testid="tf-message"]');

  const load = async () => {
    try {
      const list = await api.tournaments();
      const tables = listSections(list).map(listTable).filter(Boolean);
      box.replaceChildren(...(tables.length ? tables : [h('p', { class: 'muted', 'data-testid': 'tournaments-empty' }, t('tournaments.empty'))]));
      showMessage(msg, '');
    } catch (e) {
      showMessage(msg, e.message);
    }
  };

  // The fields of the system chosen, and of live or correspondence games.
  const sync = () => {
    for (const el of form.querySelectorAll('[data-system]')) el.hidden = el.dataset.system !== f.system.value;
    const corr = f.speed.value === 'correspondence';
    f.minutes.disabled = corr;
    f.increment.disabled = corr;
    f.days.disabled = !corr;
  };
  f.system.addEventListener('change', sync);
  f.speed.addEventListener('change', sync);

  const account = async () => {
    let user = null;
    try {
      user = await api.me();
    } catch {
      user = null;
    }
    $('#tournaments-guest').hidden = Boolean(user);
    form.hidden = !user;
    sync();
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const { body, error } = createRequest({
      name: f.name.value, system: f.system.value, size: f.size.value, speed: f.speed.value,
      minutes: f.minutes.value, increment: f.increment.value, days: f.days.value, rated: f.rated.checked,
      arenaMinutes: f.arenaMinutes.value, rounds: f.rounds.value, double: f.double.checked, start: f.start.value,
      minRating: f.minRating.value, maxRating: f.maxRating.value, minRatedGames: f.minRatedGames.value,
      invited: f.invited.value, password: f.password.value,
    });
    if (error) {
      showMessage(formMsg, error);
      return;
    }
    try {
      const made = await api.createTournament(body);
      showMessage(formMsg, t('tournaments.created'), 'info');
      location.assign(`/t/${encodeURIComponent(made.id)}`);
    } catch (err) {
      showMessage(formMsg, err.message);
    }
  });

  await Promise.all([load(), account()]);
  setInterval(() => {
    if (document.visibilityState === 'visible') load();
  }, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') load();
  });
  return account;
}

let onAccount = () => {};
await boot(() => onAccount());
onAccount = await listPage();
