// The analysis board's set-up: a position edited freely (columns of any
// make-up placed and taken away square by square, the men in hand, the
// side to move, the board's size, the empty board or the start) and
// checked before play goes on from it (setup.js). The board's squares
// come in through square(); the form is the #setup section of
// analysis.html.

import { $, showMessage } from './dom.js';
import { t } from './i18n.js';
import { clearPosition, MEN, menOnBoard, placed, problems, resized, startPosition } from './setup.js';

/** problemText says one of setup.js's problems in the page's language. */
export function problemText(p) {
  const params = { ...p.params };
  if ('hand' in params || 'board' in params) params.total = (params.board || 0) + (params.hand || 0);
  return t(p.key, params);
}

/**
 * Editor edits a position: onChange(position) after every change (the
 * page draws it), onDone(position) when the player leaves the set-up with
 * a position without problems, onCancel() when he leaves it unchanged.
 */
export class Editor {
  constructor(box, { onChange, onDone, onCancel }) {
    this.box = box;
    this.onChange = onChange;
    this.onDone = onDone;
    this.onCancel = onCancel;
    this.position = startPosition(9);
    this.msg = $('[data-testid="setup-message"]', box);
    box.addEventListener('change', (e) => this.changed(e.target));
    $('#setup-start').addEventListener('click', () => this.set(startPosition(this.position.size)));
    $('#setup-clear').addEventListener('click', () => this.set(clearPosition(this.position.size)));
    $('#setup-done').addEventListener('click', () => this.done());
    $('#setup-cancel').addEventListener('click', () => this.onCancel());
  }

  /** open shows the set-up with position to edit. */
  open(position) {
    this.box.hidden = false;
    this.set(position);
    this.msg.textContent = '';
    $('#setup-owner-white').focus();
  }

  close() {
    this.box.hidden = true;
  }

  get isOpen() {
    return !this.box.hidden;
  }

  /** set makes p the position edited and shows it in the form and on the board. */
  set(p) {
    this.position = p;
    const men = MEN[p.size];
    $('#setup-size').value = String(p.size);
    $('#setup-turn').value = p.turn;
    $('#setup-hand-white').value = String(p.hands.white);
    $('#setup-hand-black').value = String(p.hands.black);
    for (const id of ['#setup-hand-white', '#setup-hand-black', '#setup-top', '#setup-prisoners']) $(id).max = String(men);
    const count = menOnBoard(p);
    $('#setup-count').textContent = [
      t('ab.count_white', { board: count.white, hand: p.hands.white, n: men }),
      t('ab.count_black', { board: count.black, hand: p.hands.black, n: men }),
    ].join(' ');
    this.showProblems(false);
    this.onChange(p);
  }

  /** tool is the column the form would place: {owner, top, prisoners}, or null to take columns away. */
  tool() {
    const owner = $('input[name="setup-owner"]:checked', this.box).value;
    if (owner === 'none') return null;
    const men = MEN[this.position.size];
    const num = (id, lo) => Math.max(lo, Math.min(men, Math.round(Number($(id).value)) || lo));
    return { owner, top: num('#setup-top', 1), prisoners: num('#setup-prisoners', 0) };
  }

  /**
   * square changes the column on sq: the form's column placed, or taken
   * away when the square holds it already or the form takes columns away.
   */
  square(sq) {
    const c = this.tool();
    const had = this.position.board.find((x) => x.square === sq);
    const same = had && c && had.owner === c.owner && had.top === c.top && had.prisoners === c.prisoners;
    this.set(placed(this.position, sq, same ? null : c));
  }

  changed(input) {
    const p = this.position;
    switch (input.id) {
      case 'setup-size':
        this.set(resized(p, Number(input.value)));
        break;
      case 'setup-turn':
        this.set({ ...p, turn: input.value });
        break;
      case 'setup-hand-white':
      case 'setup-hand-black': {
        const colour = input.id.endsWith('white') ? 'white' : 'black';
        this.set({ ...p, hands: { ...p.hands, [colour]: Number(input.value) } });
        break;
      }
      default:
    }
  }

  /** showProblems lists what is wrong with the position; alert says them as an error. */
  showProblems(alert) {
    const list = problems(this.position);
    if (list.length === 0) {
      this.msg.textContent = '';
      return list;
    }
    if (alert) showMessage(this.msg, list.map(problemText).join(' '), 'error');
    return list;
  }

  done() {
    if (this.showProblems(true).length) return;
    this.onDone(this.position);
  }
}
