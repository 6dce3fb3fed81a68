// Drag-and-drop on the board by mouse, pen or finger (Pointer Events): a
// column picked up on its square, or a man taken from the hand, follows
// the pointer and is dropped on a square, which the board then takes as
// a click there. A press that does not travel is left to the click, so
// clicks, taps and keys play as they always have.

/** SLOP is how far (CSS pixels) a press travels before it is a drag. */
export const SLOP = 6;

/**
 * Drag follows the pointer over the board's svg for board, which answers
 * canPickUp(square), pickUp(drag), dragTo(drag, point), drop(drag,
 * square) and endDrag(drag); point and square are its own (SVG units, a
 * square's name or null off the board).
 */
export class Drag {
  constructor(board) {
    this.board = board;
    this.d = null;
    this.swallow = false; // the click that ends a drag is not a click
    const svg = board.svg;
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', () => this.cancel());
    // The board losing the pointer ends a drag; a square's man losing it
    // to the board (a finger's implicit capture, moved) does not.
    svg.addEventListener('lostpointercapture', (e) => {
      if (e.target === svg) this.cancel();
    });
    svg.addEventListener('click', (e) => {
      if (!this.swallow) return;
      this.swallow = false;
      e.stopImmediatePropagation();
    }, true);
  }

  /** dragging says whether a drag is under way (the pointer is down and has travelled). */
  get dragging() {
    return Boolean(this.d && this.d.moving);
  }

  down(e) {
    this.swallow = false;
    if (e.button !== 0 || !e.isPrimary) return;
    const g = e.target.closest && e.target.closest('[data-square]');
    if (!g || !this.board.canPickUp(g.getAttribute('data-square'))) return;
    this.d = { from: g.getAttribute('data-square'), id: e.pointerId, x: e.clientX, y: e.clientY, moving: false };
  }

  /**
   * fromHand starts a drag of a man of colour from the hand, by the press
   * e on the hand's element (out of the board): the pointer is the
   * board's from now on.
   */
  fromHand(e, colour) {
    if (e.button !== 0 || !e.isPrimary) return;
    this.cancel();
    this.d = { from: 'hand', colour, id: e.pointerId, x: e.clientX, y: e.clientY, moving: false };
    this.board.svg.setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  move(e) {
    const d = this.d;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moving) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < SLOP) return;
      d.moving = true;
      // Captured only once it is a drag: a click keeps its own target.
      if (!this.board.svg.hasPointerCapture(e.pointerId)) this.board.svg.setPointerCapture(e.pointerId);
      this.board.pickUp(d);
    }
    this.board.dragTo(d, this.point(e));
  }

  up(e) {
    const d = this.d;
    if (!d || e.pointerId !== d.id) return;
    this.d = null;
    if (!d.moving) return;
    this.swallow = true;
    this.board.endDrag(d);
    this.board.drop(d, this.board.squareAt(this.point(e)));
  }

  /** cancel forgets a drag under way: the man goes back where it was. */
  cancel() {
    const d = this.d;
    this.d = null;
    if (d && d.moving) this.board.endDrag(d);
  }

  // point is where the pointer of e is, in the board's units.
  point(e) {
    const m = this.board.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
}
