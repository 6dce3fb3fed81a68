// The opening explorer, /explorer: its own page and entry module. A board
// on which the visitor plays moves from the start of either size, and
// for the position reached, the moves of the engine's opening book and
// those of the games finished on the site (GET /api/explorer), each with
// its games and a bar of how they ended, and the engine's evaluation: the
// book's, else a search of the analysis queue (POST /api/analyze).
// Clicking a move of a table plays it; the line played is kept, so that
// going back and forward again (the buttons, or the arrow keys, Home and
// End) needs no new choice; the page's address names the position.

import { scoreText } from './analysis.js';
import * as api from './api.js';
import { Board } from './board.js';
import { boot } from './boot.js';
import { $, h, keepFocus, rovingKeys, showMessage } from './dom.js';
import { formatNumber, t } from './i18n.js';
import { Latest } from './latest.js';
import { moveNumber } from './notation.js';
import { explorerQuery, lineAfter, readQuery, shares } from './opening.js';

/** resultKeys name a finished game's result. */
const resultKeys = { '1-0': 'result.white_won', '0-1': 'result.black_won', '1/2-1/2': 'result.draw' };

class ExplorerPage {
  constructor() {
    const { size, moves } = readQuery(location.search);
    this.size = size;
    this.line = moves;
    this.ply = moves.length;
    this.latest = new Latest(); // only the answer to the last request is shown
    this.board = new Board($('#explorer-board'), {
      onMove: (text) => this.play(text),
      label: t('explorer.board_label'),
    });
    this.sizeSelect = $('#explorer-size');
    this.message = $('#explorer-message');
  }

  start() {
    this.sizeSelect.value = String(this.size);
    this.sizeSelect.addEventListener('change', () => {
      this.size = Number(this.sizeSelect.value);
      this.line = [];
      this.go(0);
    });
    for (const b of document.querySelectorAll('#explorer [data-nav]')) {
      b.addEventListener('click', () => this.go(this.target(b.dataset.nav)));
    }
    document.addEventListener('keydown', (e) => this.onKey(e));
    for (const table of document.querySelectorAll('.explorer-table')) rovingKeys(table, '[data-testid="explorer-move"]');
    this.go(this.ply);
  }

  /** target is the ply a navigation button or key leads to. */
  target(nav) {
    return { first: 0, prev: Math.max(0, this.ply - 1), next: Math.min(this.line.length, this.ply + 1), last: this.line.length }[nav];
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (e.target.closest && e.target.closest('input, select, textarea, [data-square]')) return;
    const nav = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
    if (!nav) return;
    e.preventDefault();
    this.go(this.target(nav));
  }

  /** play plays a move of the position shown. */
  play(text) {
    this.line = lineAfter(this.line, this.ply, text);
    this.go(this.ply + 1);
  }

  /** go shows the position after ply moves of the line. */
  async go(ply) {
    this.ply = ply;
    const pos = { size: this.size, moves: this.line.slice(0, ply) };
    const query = explorerQuery(pos);
    history.replaceState(null, '', `/explorer?${query}`);
    $('#explorer-link').href = `/explorer?${query}`;
    keepExplorerFocus(() => this.renderLine());
    const current = this.latest.ask();
    $('#explorer').setAttribute('aria-busy', 'true');
    try {
      const a = await api.explorer(query);
      if (!current()) return;
      showMessage(this.message, '');
      keepExplorerFocus(() => this.render(a));
    } catch (err) {
      if (!current()) return;
      showMessage(this.message, err.message);
    } finally {
      if (current()) $('#explorer').removeAttribute('aria-busy');
    }
  }

  render(a) {
    this.board.update({ size: a.size, board: a.board, lastMove: a.lastMove, legal: a.legal, interactive: a.result === '*' });
    $('#explorer-position').textContent = a.position;
    $('#explorer-turn').textContent = a.result === '*'
      ? t(a.turn === 'white' ? 'explorer.white_to_move' : 'explorer.black_to_move')
      : t(resultKeys[a.result] || 'result.draw');
    this.renderEval(a);
    this.renderTable($('#explorer-book'), a.book && a.book.moves, a.turn);
    $('#explorer-book-note').textContent = a.book
      ? t('explorer.book_games', { n: a.book.games })
      : t('explorer.book_none');
    this.renderTable($('#explorer-site'), a.site && a.site.moves, null);
    $('#explorer-site-note').textContent = a.site && a.site.games
      ? t('explorer.site_games', { n: a.site.games })
      : t('explorer.site_none');
    $('#explorer').dataset.position = a.position;
  }

  /**
   * renderLine shows the line as numbered moves, the one reached marked;
   * each goes to the position after it. The line is one Tab stop, the
   * move reached (the first at the start), and the arrow keys go from move
   * to move (onKey); a line that had the focus gives it to that move again.
   */
  renderLine() {
    const list = $('#explorer-line');
    const hadFocus = list.contains(document.activeElement);
    const stop = Math.max(1, this.ply);
    list.replaceChildren();
    this.line.forEach((m, i) => {
      if (i % 2 === 0) list.append(h('span', { class: 'no' }, `${moveNumber(i)}.`));
      list.append(h('button', {
        type: 'button', class: `mv${i + 1 === this.ply ? ' current' : ''}`, 'data-ply': i + 1,
        'aria-current': i + 1 === this.ply ? 'step' : null, tabindex: i + 1 === stop ? '0' : '-1', onclick: () => this.go(i + 1),
      }, m));
    });
    if (hadFocus) list.querySelector('[tabindex="0"]')?.focus({ preventScroll: true });
    if (this.line.length === 0) list.append(h('span', { class: 'muted' }, t('explorer.line_empty')));
    const at = { first: this.ply === 0, prev: this.ply === 0, next: this.ply >= this.line.length, last: this.ply >= this.line.length };
    for (const b of document.querySelectorAll('#explorer [data-nav]')) b.disabled = at[b.dataset.nav];
  }

  /** renderEval shows the engine's evaluation: the book's, else a search. */
  renderEval(a) {
    const box = $('#explorer-eval');
    const show = (verdict, facts) => {
      box.replaceChildren(h('strong', { class: 'score' }, verdict.head), ' ', verdict.note, h('span', { class: 'facts' }, ` · ${facts}`));
    };
    if (a.result !== '*') {
      box.textContent = t('explorer.eval_over');
      return;
    }
    if (a.book) {
      show(scoreText(a.book, a.turn), t('explorer.eval_book', { depth: a.book.depth, best: a.book.best }));
      return;
    }
    box.textContent = t('explorer.evaluating');
    const current = this.latest.current();
    api.analyze({ size: a.size, moves: a.moves, depth: 8 }).then((res) => {
      if (current()) show(scoreText(res, a.turn), t('explorer.eval_search', { depth: res.depth, best: res.best || '—' }));
    }, (err) => {
      if (current()) box.textContent = t('explorer.eval_unavailable', { why: err.message });
    });
  }

  /**
   * renderTable fills a table's body with moves, or hides it without any;
   * turn, for the book's table, is the side that plays them, for whom
   * their scores are. The table is one Tab stop, its first move, and the
   * arrow keys go from move to move (rovingKeys).
   */
  renderTable(table, moves, turn) {
    const body = table.tBodies[0];
    body.replaceChildren();
    table.hidden = !moves || moves.length === 0;
    for (const [i, m] of (moves || []).entries()) {
      const sh = shares(m);
      const text = t('explorer.results_text', {
        white: formatNumber(sh.white), draws: formatNumber(sh.draws), black: formatNumber(sh.black),
        nw: formatNumber(m.white), nd: formatNumber(m.draws), nb: formatNumber(m.black),
      });
      const bar = h('div', { class: 'wdl', 'aria-hidden': 'true' });
      for (const k of ['white', 'draws', 'black']) {
        const seg = h('span', { class: `wdl-${k}` }, sh[k] >= 12 ? `${sh[k]}%` : '');
        seg.style.width = `${sh[k]}%`;
        bar.append(seg);
      }
      const cells = [
        h('th', { scope: 'row' }, h('button', {
          type: 'button', class: 'move-button', 'data-testid': 'explorer-move', 'data-move': m.move, tabindex: i === 0 ? '0' : '-1',
          'aria-label': t('explorer.play', { move: m.move }), onclick: () => this.play(m.move),
        }, m.move)),
        h('td', { class: 'num', 'data-testid': 'explorer-games' }, formatNumber(m.games)),
        h('td', { class: 'results' }, bar, h('span', { class: 'sr-only', 'data-testid': 'explorer-results' }, text)),
      ];
      if (turn) {
        cells.push(h('td', { class: 'num eval' }, m.score === undefined ? '' : scoreText({ score: m.score, mate: m.mate || 0 }, turn).head));
      }
      body.append(h('tr', { 'data-move': m.move }, cells));
    }
  }
}

/** focusParts are the parts of the page drawn anew as the position changes; keepExplorerFocus keeps the focus within them. */
const focusParts = '#explorer-line, .explorer-table, .navbar';

/** keepExplorerFocus runs fn, which redraws the page, and keeps the focus where it was (dom.js), else on the line or the board. */
function keepExplorerFocus(fn) {
  keepFocus(fn, focusParts, () => $('#explorer-line [tabindex="0"]') || $('#explorer-board [tabindex="0"]'));
}

await boot();
new ExplorerPage().start();
