// The game page's markup filled from a state: the player bars, the status
// and result, the move list, the seats and invitation, the controls and
// offers. Each function draws one part from the state (and the position
// shown); the words come from status.js and replay.js, and what the player
// does goes back through the callbacks given.

import { lastMoveText } from './announce.js';
import { handStack } from './board.js';
import { $, botTag, breakable, displayName, h, playerLink } from './dom.js';
import { t } from './i18n.js';
import { playAgain, ratingChanges, rematchView } from './rated.js';
import { firstSide, moveRows, navDisabled, shownSide, viewText } from './replay.js';
import { analysisNote, controls, gameLink, idleNote, inviteTitle, openSeats, playerName, resultText, statusLine } from './status.js';
import { colourName, other } from './text.js';

/**
 * renderPlayer fills box with colour's bar: name, men in hand, the shadow
 * piece and the clock, for the position shown (view, or the live one). It
 * returns the clock's element, made anew.
 */
export function renderPlayer(box, s, view, colour) {
  const v = shownSide(s, view);
  const p = (s.players && s.players[colour]) || {};
  const n = v.hands[colour] ?? 0;
  box.dataset.testid = `player-${colour}`;
  const toMove = !v.over && v.turn === colour;
  box.classList.toggle('to-move', toMove);
  // A guest's name is marked by a tag of its own, which a long name cut
  // short cannot hide.
  const name = playerName(s, colour);
  const who = h('div', { class: 'who' },
    h('span', { class: `swatch ${colour}`, 'aria-hidden': 'true' }),
    p.account && p.joined ? playerLink(p.name, true, { class: 'name', title: p.name })
      : h('span', { class: p.guest ? 'name guest' : 'name', title: name }, p.guest ? displayName(p.name) || name : name),
    p.rating ? h('span', { class: 'rating', 'data-testid': `rating-${colour}`, title: t('player.rating_title') }, p.rating) : null,
    p.engine ? h('span', { class: 'tag' }, t('player.engine_tag')) : null,
    botTag(p.bot, { 'data-testid': `bot-${colour}` }),
    p.guest ? h('span', { class: 'tag', 'data-testid': `guest-${colour}` }, t('player.guest_tag')) : null,
    s.you === colour ? h('span', { class: 'tag you' }, t('player.you_tag')) : null,
    toMove ? h('span', { class: 'tag turn', 'data-testid': `turn-${colour}` }, t('a11y.to_move')) : null);
  const hand = h('div', { class: 'hand', title: t(colour === 'white' ? 'player.hand_white' : 'player.hand_black', { n }) },
    handStack(colour, n),
    h('span', { class: 'hand-count', 'data-testid': `hand-${colour}` }, String(n)),
    h('span', { class: 'hand-label' }, t('player.in_hand')));
  const shadow = !v.over && v.turn === colour && v.shadow > 1
    ? h('div', { class: 'shadow', 'data-testid': `shadow-${colour}` }, t('player.shadow', { n: v.shadow }))
    : null;
  const clock = h('div', {
    class: 'clock', 'data-testid': `clock-${colour}`, role: 'timer',
    'aria-label': t(colour === 'white' ? 'player.clock_white' : 'player.clock_black'),
  });
  clock.hidden = !s.clock;
  box.replaceChildren(h('div', { class: 'player-main' }, who, hand), shadow || '', clock);
  return clock;
}

/**
 * renderStatus fills the result box, the status line, the note on how an
 * engine game ends when left, and the bar of an earlier position; invite
 * is the invitation of the page's link.
 */
export function renderStatus(s, view, invite) {
  const status = $('[data-testid="status"]');
  const result = $('[data-testid="result"]');
  const r = resultText(s);
  if (r) {
    result.replaceChildren(
      h('strong', {}, r.head), ' ', h('span', { class: 'score' }, r.score),
      h('div', { class: 'reason', hidden: !r.reason }, r.reason),
      h('div', { class: 'mine', hidden: !r.mine }, r.mine),
      ...ratingChanges(s).map((c) => h('div', { class: 'rating-change', 'data-testid': `rating-change-${c.colour}` },
        `${c.name} `, h('span', { class: 'rating' }, c.rating), ' ', h('strong', { 'data-testid': `rating-diff-${c.colour}` }, c.diff))));
    result.hidden = false;
  } else {
    result.hidden = true;
    result.replaceChildren();
  }
  const line = statusLine(s, Boolean(view), invite);
  status.textContent = line.text;
  status.className = line.cls;
  const last = lastMoveText(s);
  $('#last-move').textContent = last;
  $('#last-move').hidden = !last;
  const idle = idleNote(s);
  $('#idle-note').textContent = idle;
  $('#idle-note').hidden = !idle;
  if (view) $('#view-text').textContent = viewText(view.ply, s.moves.length);
  $('#view-bar').hidden = !view;
}

/**
 * renderMoves fills the move list, the ply shown marked, and keeps that
 * ply (or the newest move) in sight; it sets the navigation buttons. The
 * list is a listbox of one Tab stop: the move shown (the first one at the
 * start) takes the focus, and the arrow keys go from move to move
 * (game.js); a list that had the focus gives it to that move again.
 */
export function renderMoves(s, view) {
  const box = $('#moves');
  const n = s.moves.length;
  const current = view ? view.ply : n;
  const stop = current === 0 ? 1 : current;
  const rows = moveRows(s.moves, firstSide(n, s.turn)).map((row) => h('div', { class: 'row', role: 'group' },
    h('span', { class: 'no', 'aria-hidden': 'true' }, `${row.number}.`),
    row.plies.map((p) => (p
      ? h('button', {
        type: 'button', class: `mv${p.ply === current ? ' current' : ''}`, 'data-ply': p.ply, role: 'option',
        'aria-selected': String(p.ply === current), 'aria-label': p.label, tabindex: p.ply === stop ? '0' : '-1',
      }, breakable(p.text))
      : h('span', { class: 'mv empty', 'aria-hidden': 'true' }, '…')))));
  const hadFocus = box.contains(document.activeElement);
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  box.replaceChildren(...rows);
  box.hidden = n === 0;
  $('#no-moves').hidden = n > 0;
  if (hadFocus) box.querySelector('[tabindex="0"]')?.focus({ preventScroll: true });
  const cur = box.querySelector('.current');
  if (view && cur) {
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  } else if (atEnd || !view) {
    box.scrollTop = box.scrollHeight;
  }
  for (const [where, disabled] of Object.entries(navDisabled(current, n))) {
    $(`[data-nav="${where}"]`).disabled = disabled;
  }
}

/**
 * renderSeats offers a watcher the open seats (onJoin takes one), those
 * kept for an invited friend only with the invitation, and a player the
 * link to send.
 */
export function renderSeats(s, invite, onJoin) {
  const open = openSeats(s, invite);
  const joinBox = $('#join-box');
  if (open.length > 0) {
    const buttons = open.map((c, i) => h('button', {
      type: 'button', class: 'primary', 'data-testid': i === 0 ? 'join' : `join-${c}`, 'data-seat': c,
      onclick: onJoin,
    }, t(c === 'white' ? 'game.join_white' : 'game.join_black')));
    $('#join-buttons').replaceChildren(...buttons);
    joinBox.hidden = false;
  } else {
    joinBox.hidden = true;
  }
  const box = $('#invite-box');
  if (s.mode === 'friend' && s.you) {
    const opp = (s.players || {})[other(s.you)] || {};
    $('#invite-title').textContent = inviteTitle(Boolean(opp.joined));
    $('#invite-link').value = gameLink(location.origin, s);
    box.hidden = false;
  } else {
    box.hidden = true;
  }
}

/**
 * renderAnalysis opens the analysis button and the link to the analysis
 * board when the state allows it, and says why not when it does not; busy
 * is an analysis on its way.
 */
export function renderAnalysis(s, busy) {
  const note = analysisNote(s);
  $('#analyse').disabled = busy || Boolean(note);
  $('#analysis-note').textContent = note;
  $('#analysis-note').hidden = !note;
  $('#open-board').hidden = Boolean(note);
}

/** closeResign puts the resign button back in place of its confirmation. */
export function closeResign() {
  $('#resign-confirm-box').hidden = true;
  $('#resign').hidden = false;
}

/**
 * renderControls sets the seated player's buttons and lists the offers;
 * onAnswer(what, action) answers one ("draw" or "takeback", "accept" or
 * "decline").
 */
export function renderControls(s, onAnswer) {
  const c = controls(s);
  $('#controls').hidden = !c.playing;
  $('#abort').hidden = !c.abort;
  if (!c.playing) closeResign();
  // Offering a draw or asking for a take-back makes its button say so and
  // stand idle, but it keeps the focus: aria-disabled, not disabled
  // (game.js ignores its clicks).
  for (const [id, b] of [['#draw', c.draw], ['#takeback', c.takeback]]) {
    $(id).setAttribute('aria-disabled', String(b.disabled));
    $(id).textContent = b.text;
  }
  const items = c.offers.map((o) => h('div', { class: 'offer' }, h('span', {}, o.label),
    o.answer ? h('span', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': `${o.what}-accept`, onclick: () => onAnswer(o.what, 'accept') }, t('game.accept')),
      h('button', { type: 'button', 'data-testid': `${o.what}-decline`, onclick: () => onAnswer(o.what, 'decline') }, t('game.decline'))) : null));
  const offers = $('#offers');
  offers.replaceChildren(...items);
  offers.hidden = items.length === 0;
  $('#move-form').hidden = !s.you || s.over;
}

/**
 * renderRematch fills the rematch box of a finished game between people:
 * the offer, the answer to the opponent's, the way to the new game;
 * onRematch(action) sends "offer", "accept", "decline" or "cancel". Of a
 * finished game against the engine it holds "Play again", which calls
 * onPlayAgain with the request of a game with the same settings.
 */
export function renderRematch(s, onRematch, onPlayAgain) {
  const box = $('#rematch-box');
  const v = rematchView(s);
  if (!v && playAgain(s)) {
    box.replaceChildren(h('div', { class: 'offer' },
      h('span', { class: 'actions' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'play-again', onclick: () => onPlayAgain(playAgain(s)) }, t('rematch.play_again')))));
    box.hidden = false;
    return;
  }
  if (!v) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const button = (action, text, primary) => h('button', {
    type: 'button', class: primary ? 'primary' : null, 'data-testid': `rematch-${action}`, onclick: () => onRematch(action),
  }, text);
  box.replaceChildren(h('div', { class: 'offer' },
    v.label ? h('span', { 'data-testid': 'rematch-label' }, v.label) : null,
    h('span', { class: 'actions' },
      v.offer ? button('offer', t('rematch.offer'), true) : null,
      v.answer ? [button('accept', t('game.accept'), true), button('decline', t('game.decline'))] : null,
      v.cancel ? button('cancel', t('game.withdraw')) : null,
      v.game ? h('a', { class: 'pill primary', href: `/g/${encodeURIComponent(v.game)}`, 'data-testid': 'rematch-game' }, t('rematch.go')) : null)));
  box.hidden = false;
}
