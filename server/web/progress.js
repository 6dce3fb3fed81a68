// The learner's progress through the lessons, kept in the browser
// (localStorage) as the exercises done: {"feeding": [0, 1], ...}. Pure but
// for the storage it is given, which may be missing or refuse (a private
// window): the progress then lasts as long as the page.

export const STORAGE_KEY = 'emergo.learn';

/** Progress is the exercises done, by lesson id; storage is a localStorage or null. */
export class Progress {
  constructor(storage) {
    this.storage = storage;
    this.done = new Map();
    let saved = null;
    try {
      saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null');
    } catch {
      saved = null;
    }
    if (saved && typeof saved === 'object' && !Array.isArray(saved)) {
      for (const [id, list] of Object.entries(saved)) {
        if (Array.isArray(list)) this.done.set(id, new Set(list.filter((i) => Number.isInteger(i) && i >= 0)));
      }
    }
  }

  /** exerciseDone says whether the i-th exercise of lesson id is done. */
  exerciseDone(id, i) {
    return this.done.get(id)?.has(i) ?? false;
  }

  /** lessonDone says whether every exercise of the lesson ({id, exercises}) is done. */
  lessonDone(lesson) {
    return lesson.exercises.every((_, i) => this.exerciseDone(lesson.id, i));
  }

  /** lessonsDone counts the lessons done. */
  lessonsDone(lessons) {
    return lessons.filter((l) => this.lessonDone(l)).length;
  }

  /** firstOpen is the index of the lesson's first exercise not done, 0 if all are. */
  firstOpen(lesson) {
    const i = lesson.exercises.findIndex((_, j) => !this.exerciseDone(lesson.id, j));
    return i < 0 ? 0 : i;
  }

  /** mark notes the i-th exercise of lesson id done, and keeps it. */
  mark(id, i) {
    if (!this.done.has(id)) this.done.set(id, new Set());
    this.done.get(id).add(i);
    this._save();
  }

  /** reset forgets everything done. */
  reset() {
    this.done.clear();
    try {
      this.storage?.removeItem(STORAGE_KEY);
    } catch {
      // Nothing was kept.
    }
  }

  _save() {
    const out = {};
    for (const [id, set] of this.done) out[id] = [...set].sort((a, b) => a - b);
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(out));
    } catch {
      // A full or refused storage: the progress lasts as long as the page.
    }
  }
}
