// The chat of the game page (docs/api.md, "Chat"): the players' room for
// the players, the spectators' for the others. The lines come on the game's
// event stream (sync.js), the latest of them when it opens; each is shown
// as text, never as markup, and a link stays text. The log is a polite live
// region: a screen reader reads a new line when it is done speaking.

import * as api from './api.js';
import { $, h, showMessage } from './dom.js';
import { t } from './i18n.js';

/** MAX_TEXT is the longest line the server takes, in characters. */
export const MAX_TEXT = 140;

/** KEEP is how many lines the page keeps, the latest. */
export const KEEP = 200;

/** chatRoom is the room the viewer of state writes in: the players' for a player, else the spectators'. */
export const chatRoom = (state) => (state && state.you ? 'players' : 'spectators');

/**
 * opponentAccount is the name of the account facing the viewer of state, if
 * he plays and his opponent has an account, else null: the one the page
 * offers to block.
 */
export function opponentAccount(state) {
  if (!state || !state.you || !state.players) return null;
  const them = state.players[state.you === 'white' ? 'black' : 'white'];
  return them && them.account ? them.name : null;
}

/**
 * addLine returns lines with line added in its place (by id, the order the
 * server wrote them), once whatever how often it comes, keeping the latest
 * KEEP (pure).
 */
export function addLine(lines, line) {
  if (lines.some((l) => l.id === line.id)) return lines;
  const out = [...lines, line].sort((a, b) => a.id - b.id);
  return out.length > KEEP ? out.slice(out.length - KEEP) : out;
}

/**
 * ChatPanel runs the chat's box of the game page (#chat), or of another
 * page's one room: opts.post(text, room) sends a line there (default: the
 * game id's chat), opts.title names the box (default: the room's name).
 */
export class ChatPanel {
  constructor(el, id, opts = {}) {
    this.el = el;
    this.id = id;
    this.post = opts.post || ((text, room) => api.postChat(id, text, room));
    this.title = opts.title || '';
    this.lines = [];
    this.me = undefined; // the account logged in: undefined until known, null for a guest
    this.blocked = new Set();
    this.room = 'spectators';
    this.opponent = null;
    this.log = $('#chat-log', el);
    this.form = $('#chat-form', el);
    this.input = $('#chat-input', el);
    this.msg = $('#chat-message', el);
    this.note = $('#chat-note', el);
    this.blockButton = $('#chat-block', el);
    this.input.maxLength = MAX_TEXT;
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.blockButton.addEventListener('click', () => this.toggleBlock());
    api.me().then((u) => {
      this.me = u && u.name ? u.name : null;
      this.render();
    }, () => {
      this.me = null;
      this.render();
    });
  }

  /** setState shows the room of the viewer of state. */
  setState(state) {
    const room = chatRoom(state);
    const opponent = opponentAccount(state);
    if (room === this.room && opponent === this.opponent && !this.el.hidden) return;
    this.room = room;
    this.opponent = opponent;
    this.el.hidden = false;
    this.render();
  }

  /** take shows line, a line of the stream. */
  take(line) {
    if (this.blocked.has(line.user)) return;
    const before = this.lines;
    this.lines = addLine(this.lines, line);
    if (this.lines !== before) this.renderLines();
  }

  render() {
    $('#chat-title', this.el).textContent = this.title || t(this.room === 'players' ? 'chat.players' : 'chat.spectators');
    const guest = this.me === null;
    this.form.hidden = guest || this.me === undefined;
    this.note.hidden = !guest;
    this.note.textContent = guest ? t('chat.guest') : '';
    const blocking = this.opponent && this.blocked.has(this.opponent);
    this.blockButton.hidden = !this.me || !this.opponent;
    if (this.opponent) {
      this.blockButton.textContent = t(blocking ? 'chat.unblock' : 'chat.block', { name: this.opponent });
    }
    this.renderLines();
  }

  renderLines() {
    const none = $('#chat-none', this.el);
    none.hidden = this.lines.length > 0;
    // Only the lines not shown yet are added, so that the live region
    // reads the new ones alone.
    const shown = new Set([...this.log.children].map((p) => Number(p.dataset.id)));
    const keep = new Set(this.lines.map((l) => l.id));
    for (const p of [...this.log.children]) {
      if (!keep.has(Number(p.dataset.id))) p.remove();
    }
    for (const l of this.lines) {
      if (shown.has(l.id)) continue;
      const p = h('p', { class: 'chat-line', 'data-id': l.id, 'data-testid': 'chat-line' },
        h('span', { class: 'chat-user' }, l.user), ': ', h('span', { class: 'chat-text' }, l.text));
      const next = [...this.log.children].find((c) => Number(c.dataset.id) > l.id);
      this.log.insertBefore(p, next || null);
    }
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      const line = await this.post(text, this.room);
      this.input.value = '';
      showMessage(this.msg, '');
      this.take(line);
    } catch (e) {
      showMessage(this.msg, e.message);
    }
  }

  async toggleBlock() {
    const name = this.opponent;
    if (!name) return;
    const blocking = this.blocked.has(name);
    try {
      await (blocking ? api.unblock(name) : api.block(name));
    } catch (e) {
      showMessage(this.msg, e.message);
      return;
    }
    if (blocking) {
      this.blocked.delete(name);
      showMessage(this.msg, '');
    } else {
      this.blocked.add(name);
      this.lines = this.lines.filter((l) => l.user !== name);
      showMessage(this.msg, t('chat.blocked', { name }), 'info');
    }
    this.render();
    this.blockButton.focus();
  }
}
