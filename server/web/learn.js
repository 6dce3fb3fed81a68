// The /learn page (learn.html), its own entry: the header as on every
// page, then the course of GET /api/lessons listed with the learner's
// progress (progress.js), and each lesson's exercises on a board that
// takes any move (anymove.js), and shows none of the legal ones. Every attempt is judged by POST
// /api/position/why and said in a live region (feedback.js): a wrong move
// is told which rule refuses it, with a link to the rule. "/learn#feeding"
// opens a lesson, "/learn" the list.

import { lessons as fetchLessons, positionWhy } from './api.js';
import { Board } from './board.js';
import { boot } from './boot.js';
import { $, h, hashText, showMessage } from './dom.js';
import { headline, ruleHref, verdict } from './feedback.js';
import { t, tParts } from './i18n.js';
import { Progress } from './progress.js';

const toMove = { white: 'status.to_move_white', black: 'status.to_move_black' };

/** storage is the browser's localStorage, or null where it is refused. */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

class LearnPage {
  constructor(course) {
    this.lessons = course;
    this.progress = new Progress(storage());
    this.lesson = null;
    this.index = 0;
    this.view = null;
    this.solved = false;
    this.busy = false;
    this.board = new Board($('#board'), { onMove: (m) => this.attempt(m), label: t('learn.board') });
    $('#learn-reset').addEventListener('click', () => this.askReset(true));
    $('#learn-reset-no').addEventListener('click', () => this.askReset(false));
    $('#learn-reset-yes').addEventListener('click', () => this.reset());
    $('#learn-again').addEventListener('click', () => this.open(this.index));
    $('#learn-next').addEventListener('click', () => this.open(this.index + 1));
    window.addEventListener('hashchange', () => this.route(true));
  }

  /** route shows what the address asks for: a lesson, or the list. */
  route(focus) {
    const id = hashText(location.hash);
    const i = this.lessons.findIndex((l) => l.id === id);
    if (i < 0) {
      this.showList(id ? t('learn.no_lesson', { id }) : '', focus);
      return;
    }
    this.lesson = this.lessons[i];
    $('#learn-list').hidden = true;
    $('#learn-lesson').hidden = false;
    $('#lesson-number').textContent = t('learn.lesson_number', { number: i + 1, total: this.lessons.length });
    $('#lesson-title').textContent = t(this.lesson.title);
    $('#lesson-text').textContent = t(this.lesson.text);
    $('#lesson-rules').replaceChildren(...this.lesson.rules.flatMap((r, j) => [
      j ? ', ' : '', h('a', { href: ruleHref(r), 'data-rule': r }, t('learn.rule', { rule: r })),
    ]));
    const prev = this.lessons[i - 1];
    const next = this.lessons[i + 1];
    $('#learn-prev').hidden = !prev;
    $('#learn-prev').href = prev ? `#${prev.id}` : '#';
    $('#learn-next-lesson').href = next ? `#${next.id}` : '#';
    document.title = `${t(this.lesson.title)} · ${t('learn.title')}`;
    this.open(this.progress.firstOpen(this.lesson));
    if (focus) $('#lesson-title').focus();
  }

  showList(message, focus) {
    this.lesson = null;
    $('#learn-lesson').hidden = true;
    $('#learn-list').hidden = false;
    document.title = t('learn.title');
    const done = this.progress.lessonsDone(this.lessons);
    $('#learn-progress').textContent = t('learn.progress', { done, n: this.lessons.length });
    $('#lesson-list').replaceChildren(...this.lessons.map((l, i) => {
      const ok = this.progress.lessonDone(l);
      return h('li', { class: ok ? 'done' : '' },
        h('a', { href: `#${l.id}`, 'data-testid': 'lesson-link', 'data-lesson': l.id, 'data-done': String(ok) },
          h('span', { class: 'lesson-name' }, `${i + 1}. ${t(l.title)}`),
          h('span', { class: `lesson-state${ok ? ' done' : ''}` }, ok ? `✓ ${t('learn.done')}` : t('learn.todo'))));
    }));
    const all = $('#learn-all-done');
    all.hidden = done < this.lessons.length;
    all.replaceChildren(...tParts('learn.all_done', { play: h('a', { href: '/?size=7', 'data-testid': 'learn-play' }, t('learn.play')) }));
    showMessage($('#learn-message'), message, 'info');
    this.askReset(false);
    if (focus) $('#learn-heading').focus();
  }

  askReset(on) {
    $('#learn-reset').hidden = on;
    $('#learn-reset-confirm').hidden = !on;
    if (on) $('#learn-reset-no').focus();
  }

  reset() {
    this.progress.reset();
    this.showList(t('learn.reset_done'), false);
    $('#learn-reset').focus();
  }

  /** open shows the lesson's i-th exercise, to be tried. */
  open(i) {
    const ex = this.lesson.exercises[i];
    this.index = i;
    this.solved = false;
    $('#exercise-number').textContent = t('learn.exercise_number', { number: i + 1, total: this.lesson.exercises.length });
    $('#exercise-ask').textContent = t(ex.ask);
    $('#feedback').replaceChildren();
    delete $('#feedback').dataset.kind;
    this.show(ex.view, true);
    this.buttons();
  }

  /** show draws a position: the exercise's, to be tried, or the one after the right move. */
  show(view, interactive, animate) {
    this.view = view;
    $('#exercise-turn').textContent = `${t(toMove[view.turn])} ${t('learn.hands', view.hands)}`;
    this.board.update({ ...view, legal: [], interactive, any: true, animate });
  }

  buttons() {
    const last = this.index === this.lesson.exercises.length - 1;
    const lastLesson = this.lessons[this.lessons.length - 1] === this.lesson;
    $('#learn-again').hidden = !this.solved;
    $('#learn-next').hidden = !this.solved || last;
    $('#learn-next-lesson').hidden = !(this.solved && last && !lastLesson);
    $('#learn-lesson-done').hidden = !(this.solved && this.progress.lessonDone(this.lesson));
  }

  async attempt(move) {
    if (this.busy || this.solved) return;
    this.busy = true;
    const ex = this.lesson.exercises[this.index];
    const lesson = this.lesson;
    let answer;
    try {
      answer = await positionWhy(this.view.position, move);
    } catch (err) {
      this.say({ kind: 'error', move, text: err.message, rule: '' });
      this.board.clearSelection();
      return;
    } finally {
      this.busy = false;
    }
    if (lesson !== this.lesson || ex !== lesson.exercises[this.index]) return; // the learner went elsewhere meanwhile
    const v = verdict(ex, answer);
    if (v.kind === 'right') {
      this.solved = true;
      this.progress.mark(lesson.id, this.index);
      this.show(answer.after, false, answer.move);
    } else {
      this.board.clearSelection();
    }
    this.say(v);
    this.buttons();
  }

  /** say puts a verdict in the live region: its headline, its explanation, and the rule to read. */
  say(v) {
    const box = $('#feedback');
    box.dataset.kind = v.kind;
    box.dataset.rule = v.rule;
    const parts = [h('p', { class: 'verdict' }, v.kind === 'error' ? '' : headline(v)), h('p', {}, v.text)];
    if (v.rule) parts.push(h('p', {}, h('a', { href: ruleHref(v.rule), 'data-testid': 'feedback-rule' }, t('learn.read_rule', { rule: v.rule }))));
    box.replaceChildren(...parts);
    // On a phone the verdict comes below the board: it is brought into
    // view, as it is read out.
    box.scrollIntoView({ block: 'nearest' });
  }
}

await boot();
try {
  const { lessons } = await fetchLessons();
  $('#learn-loading').remove();
  new LearnPage(lessons).route(false);
} catch (err) {
  $('#learn-loading').remove();
  $('#learn-list').hidden = false;
  showMessage($('#learn-message'), t('learn.unavailable', { error: err.message }));
}
