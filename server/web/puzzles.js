// The /puzzles page (puzzles.html), its own entry: the header as on every
// page, then puzzles of GET /api/puzzles/next near the solver's rating, of
// the board and theme chosen, on a board that takes any move (anymove.js).
// Each move is checked against the solution: a right one is played and the
// opponent's reply after it; a move the rules refuse is told its rule
// (POST /api/position/why) and costs nothing; a wrong one ends the puzzle,
// told the winning move and the engine's refutation. The end is rated
// (POST /api/puzzles/{id}/attempt) and said in a live region, with the
// solution to step through. "/puzzles#ID" opens a puzzle by its id.

import { failureText, nextPuzzle, positionWhy, puzzle as fetchPuzzle, puzzleAttempt } from './api.js';
import { Board } from './board.js';
import { boot } from './boot.js';
import { $, h, hashText, rovingKeys, showMessage } from './dom.js';
import { ruleHref } from './feedback.js';
import { t } from './i18n.js';
import { ratingText } from './rated.js';
import {
  howText, instruction, isLast, isRight, nextQuery, puzzleFacts, ratingLine, readFilters, solutionPlies, wrongLines,
} from './solve.js';

const toMove = { white: 'status.to_move_white', black: 'status.to_move_black' };

/** replyDelay is how long the solver's move shows before the opponent's reply is played, in ms. */
const replyDelay = 500;

class PuzzlePage {
  constructor() {
    this.filters = readFilters(location.search);
    this.puzzle = null;
    this.ply = 0; // the ply of the line to be played next
    this.played = []; // the solver's moves so far
    this.over = false;
    this.busy = false;
    this.view = null;
    this.board = new Board($('#board'), { onMove: (m) => this.attempt(m), label: t('puzzles.board') });
    $('#puzzle-size').value = String(this.filters.size);
    $('#puzzle-theme').value = this.filters.theme;
    for (const sel of ['#puzzle-size', '#puzzle-theme']) {
      $(sel).addEventListener('change', () => this.filter());
    }
    $('#puzzle-give-up').addEventListener('click', () => this.giveUp());
    $('#puzzle-next').addEventListener('click', () => this.load(''));
    rovingKeys($('#solution-list'), '[data-testid="solution-move"]', true);
    window.addEventListener('hashchange', () => this.load(hashText(location.hash)));
  }

  /** filter takes the filters chosen, keeps them in the address and loads a puzzle of them. */
  filter() {
    this.filters = { size: Number($('#puzzle-size').value), theme: $('#puzzle-theme').value };
    history.replaceState(null, '', `/puzzles${nextQuery(this.filters).replace(/^\?size=9$/, '')}`);
    this.load('');
  }

  /** load shows the puzzle of id, or the next one of the filters. */
  async load(id) {
    let p;
    try {
      p = await (id ? fetchPuzzle(id) : nextPuzzle(nextQuery(this.filters, this.puzzle ? this.puzzle.id : '')));
    } catch (err) {
      $('#puzzle-loading')?.remove();
      $('#puzzle').hidden = !this.puzzle;
      showMessage($('#puzzle-message'), t('puzzles.unavailable', { error: err.message }));
      return;
    }
    if (id && location.hash) history.replaceState(null, '', location.pathname + location.search);
    $('#puzzle-loading')?.remove();
    showMessage($('#puzzle-message'), '', 'info');
    this.puzzle = p;
    // A puzzle opened by its id sets the board of the next ones.
    this.filters.size = p.size;
    $('#puzzle-size').value = String(p.size);
    this.ply = 0;
    this.played = [];
    this.over = false;
    this.busy = false;
    const box = $('#puzzle');
    box.hidden = false;
    box.dataset.id = p.id;
    box.dataset.state = 'playing';
    this.board.setFlipped(p.solver === 'black');
    $('#puzzle-ask').textContent = instruction(p, 0);
    this.say('', []);
    $('#puzzle-solution').hidden = true;
    $('#puzzle-give-up').hidden = false;
    $('#puzzle-you').textContent = t('puzzles.your_rating', { rating: ratingText(p.you) });
    $('#puzzle-facts').textContent = puzzleFacts(p, false).join(' ');
    this.show(p.start, true);
  }

  /** show draws a position, taking moves when interactive, animate the move that led to it. */
  show(view, interactive, animate) {
    this.view = view;
    $('#puzzle-turn').textContent = `${t(toMove[view.turn])} ${t('learn.hands', view.hands)}`;
    $('#puzzle-how').textContent = howText(view, this.puzzle ? this.puzzle.solver : view.turn);
    this.board.update({ ...view, legal: [], interactive, any: true, animate });
  }

  async attempt(move) {
    if (this.busy || this.over) return;
    const p = this.puzzle;
    const i = this.ply;
    if (!this.view.legal.includes(move)) {
      this.busy = true;
      try {
        const answer = await positionWhy(this.view.position, move);
        if (p === this.puzzle) this.say('illegal', [t('learn.illegal', { move }), failureText(200, answer)], answer.params?.rule || '');
      } catch (err) {
        this.say('error', [err.message]);
      } finally {
        this.busy = false;
      }
      this.board.clearSelection();
      return;
    }
    this.played.push(move);
    if (!isRight(p, i, move)) {
      this.show(this.view, false);
      this.finish(false);
      return;
    }
    this.show(p.line[i].after, false, move);
    if (isLast(p, i)) {
      this.finish(true);
      return;
    }
    this.say('right', [t('puzzles.right', { move })]);
    this.busy = true;
    setTimeout(() => {
      this.busy = false;
      if (p !== this.puzzle || this.over) return;
      const reply = p.line[i + 1];
      this.ply = i + 2;
      this.show(reply.after, true, reply.move);
      $('#puzzle-ask').textContent = instruction(p, this.ply);
      this.say('right', [t('puzzles.right', { move }), t('puzzles.reply', { move: reply.move })]);
    }, replyDelay);
  }

  giveUp() {
    if (this.over || this.busy) return;
    this.finish(false, true);
  }

  /** finish sends the attempt, then says how it ended, the ratings and the solution. */
  async finish(solved, gaveUp = false) {
    const p = this.puzzle;
    this.over = true;
    this.busy = true;
    // The solution button hides itself: the focus it had goes on to the next puzzle's.
    if (document.activeElement === $('#puzzle-give-up')) $('#puzzle-next').focus();
    $('#puzzle-give-up').hidden = true;
    $('#puzzle').dataset.state = solved ? 'solved' : 'failed';
    $('#puzzle-ask').textContent = t(solved ? 'puzzles.solved' : 'puzzles.failed');
    let res;
    try {
      res = await puzzleAttempt(p.id, this.played, gaveUp);
    } catch (err) {
      this.say('error', [err.message]);
      return;
    } finally {
      this.busy = false;
    }
    if (p !== this.puzzle) return;
    if (solved) {
      this.say('solved', [t('puzzles.solved'), ratingLine(res)]);
    } else if (res.wrong) {
      this.show(res.wrong.after, false, res.wrong.move);
      this.say('wrong', [t('puzzles.wrong', { move: res.wrong.move }), ...wrongLines(res.wrong), ratingLine(res)]);
    } else {
      this.say('wrong', [t('puzzles.gave_up', { move: p.line[this.ply].move }), ratingLine(res)]);
    }
    $('#puzzle-you').textContent = t('puzzles.your_rating', { rating: ratingText(res.you) });
    $('#puzzle-facts').textContent = puzzleFacts({ ...p, rating: res.rating, plays: p.plays + (res.rated ? 1 : 0) }, true).join(' ');
    this.solution();
  }

  /** solution lists the solution's moves, each a button that shows the position after it; the list is one Tab stop (rovingKeys). */
  solution() {
    const p = this.puzzle;
    $('#solution-list').replaceChildren(...solutionPlies(p).map((s) => h('li', { class: s.solver ? 'solver' : '' },
      h('button', { type: 'button', 'data-ply': String(s.ply), 'data-testid': 'solution-move', tabindex: s.ply === 1 ? '0' : '-1' }, s.move))));
    for (const b of $('#solution-list').querySelectorAll('button')) {
      b.addEventListener('click', () => {
        const ply = Number(b.dataset.ply);
        for (const o of $('#solution-list').querySelectorAll('button')) o.removeAttribute('aria-current');
        b.setAttribute('aria-current', 'step');
        this.show(p.line[ply - 1].after, false, p.line[ply - 1].move);
      });
    }
    $('#puzzle-solution').hidden = false;
  }

  /** say puts what the page tells the solver in the live region: kind right, solved, wrong, illegal or error. */
  say(kind, lines, rule = '') {
    const box = $('#feedback');
    if (kind) box.dataset.kind = kind;
    else delete box.dataset.kind;
    const parts = lines.map((l, i) => h('p', { class: i === 0 ? 'verdict' : '' }, l));
    if (rule) parts.push(h('p', {}, h('a', { href: ruleHref(rule), 'data-testid': 'feedback-rule' }, t('learn.read_rule', { rule }))));
    box.replaceChildren(...parts);
    if (lines.length) box.scrollIntoView({ block: 'nearest' });
  }
}

await boot();
new PuzzlePage().load(hashText(location.hash));
