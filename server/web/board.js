// The board: an SVG drawing of a position that the player can click, tap,
// drag on (drag.js) or steer with the keyboard. It knows the geometry of
// the board and, through notation.js, the notation of moves (RULES 7),
// and nothing of the server: the legal moves come in from outside, and a
// chosen move goes out through onMove, a premove through onPremove.

import { anyMoveClick } from './anymove.js';
import { svgEl } from './dom.js';
import { Drag } from './drag.js';
import { t } from './i18n.js';
import { FILES, isPlayable, parseMove, parseSquare, squareName } from './notation.js';
import { other } from './text.js';

// Drawing units: one square is C wide; the margins hold the coordinates.
const C = 100;
const ML = 34; // left, for the ranks
const MB = 34; // bottom, for the files
const MT = 6;
const MR = 6;

const reducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** columnKeys are the messages of a column's men on top, by their colour: one man, or a column of n. */
const columnKeys = {
  white: { one: 'board.man_white', many: 'board.column_white', prisoners: 'board.prisoners_white' },
  black: { one: 'board.man_black', many: 'board.column_black', prisoners: 'board.prisoners_black' },
};

/** describeColumn says what a column holds, for labels and tooltips: "white column of 3 over 2 black prisoners". */
export function describeColumn(col) {
  if (!col) return t('board.empty');
  const { owner, top, prisoners } = col;
  const keys = columnKeys[owner];
  const column = top === 1 ? t(keys.one) : t(keys.many, { n: top });
  if (prisoners === 0) return column;
  return t('board.over', { column, prisoners: t(columnKeys[other(owner)].prisoners, { n: prisoners }) });
}

/** columnTitle is the tooltip of a column: its square and what it holds. */
const columnTitle = (sq, col) => `${sq}: ${describeColumn(col)}`;

// A man is drawn as a coin seen from above at an angle: a side band and a
// face. A column is a pile of coins, prisoners at the bottom.
const RX = 32;
const RY = 15;
const TH = 7;

function coin(g, cx, y, colour, isTop) {
  const c = colour === 'white' ? 'w' : 'b';
  svgEl('path', {
    class: `man-side ${c}`,
    d: `M${cx - RX},${y}v${TH}a${RX},${RY} 0 0 0 ${2 * RX},0v${-TH}z`,
  }, g);
  svgEl('ellipse', { class: `man-face ${c}`, cx, cy: y, rx: RX, ry: RY }, g);
  if (isTop) {
    svgEl('ellipse', { class: `man-ring ${c}`, cx, cy: y, rx: RX * 0.62, ry: RY * 0.62 }, g);
  }
}

/**
 * drawStack draws a pile of men centred on (cx, cy) into g: `bottom` men of
 * one colour under `top` men of the other (either may be 0). The pile keeps
 * within a square whatever its height: the men just sit closer together.
 */
export function drawStack(g, cx, cy, topColour, top, bottom, maxHeight = 44) {
  const n = top + bottom;
  if (n === 0) return;
  const step = n > 1 ? Math.min(10, maxHeight / (n - 1)) : 0;
  const h = (n - 1) * step;
  const yBottom = cy + (h - TH) / 2;
  for (let i = 0; i < n; i++) {
    const colour = i < bottom ? other(topColour) : topColour;
    coin(g, cx, yBottom - i * step, colour, i === n - 1);
  }
}

// The count label of a tall column: a chip in the owner's colour with the
// men on top, and one in the other colour with the prisoners.
function drawBadge(g, x, y, col) {
  const parts = [[col.owner, col.top]];
  if (col.prisoners > 0) parts.push([other(col.owner), col.prisoners]);
  const widths = parts.map(([, n]) => 14 + 15 * String(n).length);
  const total = widths.reduce((a, b) => a + b, 0) + (parts.length - 1) * 2;
  let px = x - total;
  const badge = svgEl('g', { class: 'badge' }, g);
  parts.forEach(([colour, n], i) => {
    const c = colour === 'white' ? 'w' : 'b';
    svgEl('rect', { class: `chip ${c}`, x: px, y: y - 32, width: widths[i], height: 32, rx: 7 }, badge);
    const label = svgEl('text', { class: `chip-text ${c}`, x: px + widths[i] / 2, y: y - 7, 'text-anchor': 'middle' }, badge);
    label.textContent = String(n);
    px += widths[i] + 2;
  });
  return badge;
}

/**
 * drawColumn draws a board column with its tooltip into g, and its count
 * label into badges (g unless given), which it returns (null for a single
 * man). The board keeps the labels out of its squares: a square is a
 * button whose name says the counts, and figures inside it would be text
 * that its name does not hold as it shows them (WCAG 2.5.3).
 */
export function drawColumn(g, sq, x, y, col, badges = g) {
  const title = svgEl('title', {}, g);
  title.textContent = columnTitle(sq, col);
  drawStack(g, x + C / 2, y + C / 2, col.owner, col.top, col.prisoners);
  return col.top + col.prisoners > 1 ? drawBadge(badges, x + C - 3, y + C - 3, col) : null;
}

/** handStack is a small SVG of a player's men in hand. */
export function handStack(colour, count) {
  const svg = svgEl('svg', { class: 'hand-stack', viewBox: '0 0 80 80', 'aria-hidden': 'true' });
  if (count > 0) {
    const g = svgEl('g', { transform: 'translate(40 40) scale(0.95)' }, svg);
    drawStack(g, 0, 0, colour, Math.min(count, 6), 0, 30);
  } else {
    svgEl('ellipse', { class: 'hand-empty', cx: 40, cy: 44, rx: RX, ry: RY }, svg);
  }
  return svg;
}

/**
 * Board draws a position into an <svg> and turns clicks, taps, drags and
 * keys into moves. Call update with each new position; onMove(text)
 * receives a move the player completed, always one of the legal moves
 * given. While the board takes a premove (update's premove), the same
 * choices make one of any move of the player's (anymove.js), which it
 * keeps and shows (premove, takePremove, cancelPremove) and tells
 * onPremove(text), and onPremove(null) when it is cancelled. While the
 * board takes neither, onSquare(square) receives the squares clicked or
 * chosen with the keyboard (the analysis board's set-up).
 */
export class Board {
  constructor(svg, { onMove = () => {}, onSquare = () => {}, onPremove = () => {}, label = '' } = {}) {
    this.svg = svg;
    this.onMove = onMove;
    this.onSquare = onSquare;
    this.onPremove = onPremove;
    this.size = 0;
    this.flipped = false;
    this.columns = new Map(); // square -> {owner, top, prisoners}
    this.squares = new Map(); // square -> {g, bg, hl, col, dot, ring, x, y}
    this.lastMove = null;
    this.entries = new Set();
    this.paths = []; // legal steps and captures, as square lists
    this.legalKey = '';
    this.path = []; // the squares chosen so far
    this.interactive = false;
    this.any = false;
    this.focusSquare = null;
    this.anim = null;
    this.arrow = null; // the move drawn as an arrow (setArrow)
    this.premoving = false; // the board takes a premove
    this.you = ''; // the colour whose premove it takes
    this.queued = null; // the premove kept: {text, squares}
    this.mode = '';
    this.dragFrom = null; // the square whose column is dragged
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', label);
    svg.classList.add('board');
    svg.addEventListener('click', (e) => this._onClick(e));
    svg.addEventListener('keydown', (e) => this._onKey(e));
    this.drag = new Drag(this);
  }

  /** setFlipped turns the board so that Black sits at the bottom (true). */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this._finishAnim();
    this.flipped = flipped;
    if (this.size) {
      const hadFocus = this.svg.contains(document.activeElement) ? this.focusSquare : null;
      this._build();
      this._render();
      if (hadFocus) this.squares.get(hadFocus)?.g.focus();
    }
  }

  /**
   * update shows a position. p: {size, board, lastMove, legal, interactive,
   * any, premove, you, animate}: board as the API's column list, legal as
   * move texts (only used when interactive), animate a move text to play
   * out (the move that led to this position). With any, the board takes
   * any move, legal or not (anymove.js); give it no legal moves, so that
   * it marks no square as a destination. With premove (and not
   * interactive), it takes a premove of you, the colour to move next.
   */
  update(p) {
    this._finishAnim();
    if (p.size !== this.size) {
      this.size = p.size;
      this.focusSquare = null;
      this._build();
    }
    this.columns = new Map((p.board || []).map((c) => [c.square, c]));
    this.lastMove = p.lastMove ? parseMove(p.lastMove) : null;
    this.interactive = Boolean(p.interactive);
    this.any = Boolean(p.any);
    this.premoving = !this.interactive && Boolean(p.premove);
    this.you = p.you || '';
    // What a half-chosen move was chosen for has gone: a premove's
    // squares are no move's, nor a move's a premove's.
    const mode = this.interactive ? 'move' : this.premoving ? 'premove' : '';
    if (mode !== this.mode) {
      this.mode = mode;
      this.path = [];
      this.drag.cancel();
    }
    const legal = this.interactive ? p.legal || [] : [];
    const key = legal.join(' ');
    if (key !== this.legalKey) {
      this.legalKey = key;
      this.entries = new Set();
      this.paths = [];
      for (const text of legal) {
        const m = parseMove(text);
        if (!m) continue;
        if (m.kind === 'entry') this.entries.add(m.squares[0]);
        else this.paths.push(m);
      }
      this.path = [];
    }
    this._render();
    if (p.animate && !reducedMotion()) this._animate(p.animate);
  }

  /** clearSelection forgets a half-chosen move. */
  clearSelection() {
    if (this.path.length === 0) return;
    this.path = [];
    this._render();
  }

  /** premove is the text of the premove kept, or null. */
  get premove() {
    return this.queued ? this.queued.text : null;
  }

  /** takePremove forgets the premove kept and returns its text, or null: the page plays it. */
  takePremove() {
    const text = this.premove;
    if (text) {
      this.queued = null;
      this._render();
    }
    return text;
  }

  /** cancelPremove forgets the premove kept, and says so to onPremove. */
  cancelPremove() {
    if (!this.queued) return;
    this.queued = null;
    this._render();
    this.onPremove(null);
  }

  /** handDrag starts a drag of a man of colour from its hand by the press e, if the board takes an entry of it. */
  handDrag(e, colour) {
    if (colour !== this.you) return;
    const enters = this.interactive ? this.entries.size > 0 && !this.any : this.premoving && colour === this.you && !this.queued;
    if (enters && this.path.length === 0) this.drag.fromHand(e, colour);
  }

  _xy(f, r) {
    const n = this.size;
    const col = this.flipped ? n - 1 - f : f;
    const row = this.flipped ? r : n - 1 - r;
    return { x: ML + col * C, y: MT + row * C };
  }

  /** squareAt is the playable square at the point {x, y} of the drawing, or null. */
  squareAt(pt) {
    if (!pt) return null;
    const n = this.size;
    const col = Math.floor((pt.x - ML) / C);
    const row = Math.floor((pt.y - MT) / C);
    if (col < 0 || row < 0 || col >= n || row >= n) return null;
    const f = this.flipped ? n - 1 - col : col;
    const r = this.flipped ? row : n - 1 - row;
    return isPlayable(f, r) ? squareName(f, r) : null;
  }

  _centre(sq) {
    const { f, r } = parseSquare(sq);
    const { x, y } = this._xy(f, r);
    return { x: x + C / 2, y: y + C / 2 };
  }

  _build() {
    const svg = this.svg;
    const n = this.size;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    this.squares.clear();
    const w = ML + n * C + MR;
    const h = MT + n * C + MB;
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svgEl('rect', { class: 'frame', x: ML - 4, y: MT - 4, width: n * C + 8, height: n * C + 8, rx: 6 }, svg);
    const light = svgEl('g', { class: 'light' }, svg);
    const coords = svgEl('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
    const dark = svgEl('g', { class: 'squares' }, svg);
    this.badgeLayer = svgEl('g', { class: 'badge-layer', 'aria-hidden': 'true', 'pointer-events': 'none' }, svg);
    this.pathLayer = svgEl('g', { class: 'path-layer', 'pointer-events': 'none' }, svg);
    this.arrowLayer = svgEl('g', { class: 'arrow-layer', 'pointer-events': 'none' }, svg);
    this.animLayer = svgEl('g', { class: 'anim-layer', 'pointer-events': 'none' }, svg);
    this.dragLayer = svgEl('g', { class: 'drag-layer', 'pointer-events': 'none' }, svg);
    for (let i = 0; i < n; i++) {
      const f = this.flipped ? n - 1 - i : i;
      const fx = ML + i * C + C / 2;
      svgEl('text', { x: fx, y: MT + n * C + 27, 'text-anchor': 'middle' }, coords).textContent = FILES[f];
      const r = this.flipped ? i : n - 1 - i;
      svgEl('text', { x: ML / 2 - 1, y: MT + i * C + C / 2 + 8, 'text-anchor': 'middle' }, coords).textContent = String(r + 1);
    }
    // Rows from the top of the picture down, so that the lower squares are
    // drawn last and nothing of theirs hides under an upper neighbour.
    const order = [];
    for (let row = 0; row < n; row++) {
      for (let colm = 0; colm < n; colm++) {
        const f = this.flipped ? n - 1 - colm : colm;
        const r = this.flipped ? row : n - 1 - row;
        order.push([f, r]);
      }
    }
    for (const [f, r] of order) {
      const { x, y } = this._xy(f, r);
      if (!isPlayable(f, r)) {
        svgEl('rect', { x, y, width: C, height: C }, light);
        continue;
      }
      const name = squareName(f, r);
      const g = svgEl('g', { class: 'sq', 'data-square': name, role: 'button', tabindex: -1 }, dark);
      const bg = svgEl('rect', { class: 'bg', x, y, width: C, height: C }, g);
      // The markers, inset so that their frames do not meet: the last
      // move's or the chosen square's at 6, the movable column's at 9,
      // the focus at the edge.
      const hl = svgEl('rect', { class: 'hl', x: x + 6, y: y + 6, width: C - 12, height: C - 12, rx: 3 }, g);
      const col = svgEl('g', { class: 'col' }, g);
      const dot = svgEl('circle', { class: 'dot', cx: x + C / 2, cy: y + C / 2, r: 15 }, g);
      const ring = svgEl('rect', { class: 'ring', x: x + 11, y: y + 11, width: C - 22, height: C - 22, rx: 4 }, g);
      svgEl('rect', { class: 'focus', x: x + 2.5, y: y + 2.5, width: C - 5, height: C - 5, rx: 3 }, g);
      g.addEventListener('focus', () => this._setFocus(name));
      this.squares.set(name, { g, bg, hl, col, dot, ring, x, y });
    }
    const centre = squareName((n - 1) / 2, (n - 1) / 2);
    this._setFocus(this.focusSquare && this.squares.has(this.focusSquare) ? this.focusSquare : centre);
  }

  _setFocus(name) {
    if (this.focusSquare && this.squares.has(this.focusSquare)) {
      this.squares.get(this.focusSquare).g.setAttribute('tabindex', '-1');
    }
    this.focusSquare = name;
    this.squares.get(name)?.g.setAttribute('tabindex', '0');
  }

  // The moves that go on from the squares chosen so far.
  _continuations() {
    const p = this.path;
    return this.paths.filter((m) => m.squares.length > p.length && p.every((s, i) => m.squares[i] === s));
  }

  _startsAt(sq) {
    return this.paths.some((m) => m.squares[0] === sq);
  }

  _render() {
    const last = new Set(this.lastMove ? this.lastMove.squares : []);
    const chosen = new Set(this.path);
    const next = new Set(this.path.length ? this._continuations().map((m) => m.squares[this.path.length]) : []);
    const movable = new Set(this.path.length === 0 ? this.paths.map((m) => m.squares[0]) : []);
    const premove = new Set(this.queued ? this.queued.squares : []);
    this.badgeLayer.replaceChildren();
    for (const [name, s] of this.squares) {
      const col = this.columns.get(name);
      while (s.col.firstChild) s.col.removeChild(s.col.firstChild);
      s.col.removeAttribute('transform');
      s.col.classList.remove('pop');
      s.badge = col ? drawColumn(s.col, name, s.x, s.y, col, this.badgeLayer) : null;
      const target = next.has(name) || (this.path.length === 0 && this.entries.has(name));
      const flags = {
        entry: target && this.path.length === 0,
        last: last.has(name),
        chosen: chosen.has(name),
        target,
        movable: movable.has(name),
        occupied: Boolean(col),
        premove: premove.has(name),
        'drag-from': this.dragFrom === name,
      };
      for (const [k, v] of Object.entries(flags)) s.g.classList.toggle(k, v);
      const notes = [name, describeColumn(col)];
      if (chosen.has(name)) notes.push(name === this.path[0] ? t('board.selected') : t('board.on_path'));
      if (target) notes.push(this.entries.has(name) && this.path.length === 0 ? t('board.can_enter') : t('board.destination'));
      else if (movable.has(name)) notes.push(t('board.can_move'));
      if (last.has(name)) notes.push(t('board.last_move'));
      if (premove.has(name)) notes.push(t('board.premove'));
      const label = notes.join(', ');
      s.g.setAttribute('aria-label', label);
      s.g.setAttribute('aria-pressed', String(chosen.has(name)));
    }
    this.svg.classList.toggle('interactive', this.interactive);
    this.svg.classList.toggle('premoving', this.premoving);
    this._renderPath();
    this._renderArrow();
  }

  /**
   * setArrow draws a move as an arrow over the board, every jump of a
   * capture its own, or a ring on the square of an entry (the engine's
   * best move); label is its text for screen readers. null takes it away.
   */
  setArrow(move, label = '') {
    this.arrow = move ? { move: parseMove(move), label } : null;
    if (this.size) this._renderArrow();
  }

  _renderArrow() {
    const layer = this.arrowLayer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    const a = this.arrow;
    if (!a || !a.move || a.move.squares.some((sq) => !this.squares.has(sq))) {
      layer.removeAttribute('role');
      layer.removeAttribute('aria-label');
      return;
    }
    layer.setAttribute('role', 'img');
    layer.setAttribute('aria-label', a.label);
    layer.setAttribute('data-move', a.move.text);
    svgEl('title', {}, layer).textContent = a.label;
    const pts = a.move.squares.map((sq) => this._centre(sq));
    if (pts.length === 1) {
      svgEl('circle', { class: 'arrow-casing', cx: pts[0].x, cy: pts[0].y, r: 30 }, layer);
      svgEl('circle', { class: 'arrow-line', cx: pts[0].x, cy: pts[0].y, r: 30 }, layer);
      return;
    }
    // Each jump ends short of its square's centre, under its own head, so
    // that a route that comes back through a square stays readable.
    for (let i = 1; i < pts.length; i++) {
      const p = pts[i - 1];
      const q = pts[i];
      const len = Math.hypot(q.x - p.x, q.y - p.y);
      const ux = (q.x - p.x) / len;
      const uy = (q.y - p.y) / len;
      const tip = { x: q.x - ux * 14, y: q.y - uy * 14 };
      const base = { x: tip.x - ux * 30, y: tip.y - uy * 30 };
      const start = { x: p.x + ux * (i === 1 ? 0 : 14), y: p.y + uy * (i === 1 ? 0 : 14) };
      const head = `${tip.x},${tip.y} ${base.x - uy * 18},${base.y + ux * 18} ${base.x + uy * 18},${base.y - ux * 18}`;
      const line = { x1: start.x, y1: start.y, x2: base.x, y2: base.y };
      svgEl('line', { class: 'arrow-casing', ...line }, layer);
      svgEl('polygon', { class: 'arrow-head-casing', points: head }, layer);
      svgEl('line', { class: 'arrow-line', ...line }, layer);
      svgEl('polygon', { class: 'arrow-head', points: head }, layer);
    }
  }

  // The line through the squares of a half-chosen capture.
  _renderPath() {
    const layer = this.pathLayer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (this.path.length < 2) return;
    const pts = this.path.map((s) => this._centre(s));
    const points = pts.map((p) => `${p.x},${p.y}`).join(' ');
    svgEl('polyline', { class: 'path-casing', points }, layer);
    svgEl('polyline', { class: 'path-line', points }, layer);
    for (const p of pts.slice(1)) svgEl('circle', { class: 'path-dot', cx: p.x, cy: p.y, r: 9 }, layer);
  }

  _onClick(e) {
    const g = e.target.closest && e.target.closest('[data-square]');
    if (!g || !this.svg.contains(g)) return;
    this._setFocus(g.getAttribute('data-square'));
    this._activate(g.getAttribute('data-square'));
  }

  _activate(sq) {
    if (!this.interactive) {
      if (this.premoving) this._activatePremove(sq);
      else this.onSquare(sq);
      return;
    }
    if (this.any) {
      this._activateAny(sq);
      return;
    }
    const path = this.path;
    if (path.length === 0) {
      if (this.entries.has(sq)) {
        this.onMove(sq);
        return;
      }
      if (this._startsAt(sq)) {
        this.path = [sq];
        this._render();
      }
      return;
    }
    const next = new Set(this._continuations().map((m) => m.squares[path.length]));
    if (next.has(sq)) {
      this.path = [...path, sq];
      const left = this._continuations();
      const exact = this.paths.find((m) => m.squares.length === this.path.length &&
        m.squares.every((s, i) => s === this.path[i]));
      const done = exact || (left.length === 1 ? left[0] : null);
      if (done) this.path = done.squares.slice();
      this._render();
      if (done) this.onMove(done.text);
      return;
    }
    if (path.length === 1 && sq === path[0]) {
      this.path = [];
    } else if (this._startsAt(sq)) {
      this.path = [sq];
    } else {
      this.path = [];
    }
    this._render();
  }

  _activateAny(sq) {
    const { path, move } = anyMoveClick({ path: this.path, sq, columns: this.columns, size: this.size });
    this.path = path;
    this._render();
    if (move) this.onMove(move);
  }

  // A premove is chosen as any move is, from a column of the player's
  // own or an empty square; a click while one is kept cancels it.
  _activatePremove(sq) {
    if (this.queued) {
      this.cancelPremove();
      return;
    }
    const col = this.columns.get(sq);
    if (this.path.length === 0 && col && col.owner !== this.you) return;
    const { path, move } = anyMoveClick({ path: this.path, sq, columns: this.columns, size: this.size });
    this.path = path;
    if (move) this.queued = { text: move, squares: move.split(/[x-]/) };
    this._render();
    if (move) this.onPremove(move);
  }

  // ------------------------------------------------------------ dragging (drag.js)

  /** canPickUp says whether a press on sq may pick its column up: one that can move, or a premove's. */
  canPickUp(sq) {
    if (this.interactive) {
      if (this.any) return this.columns.has(sq);
      return this._startsAt(sq) || this.path[this.path.length - 1] === sq;
    }
    return this.premoving && !this.queued && this.columns.get(sq)?.owner === this.you;
  }

  /** pickUp starts drag d: its column is chosen, as a click on it would, and a copy follows the pointer. */
  pickUp(d) {
    const ghost = svgEl('g', {}, this.dragLayer);
    if (d.from === 'hand') {
      drawStack(ghost, 0, 0, d.colour, 1, 0);
      d.at = { x: 0, y: 0 };
    } else {
      if (this.path[this.path.length - 1] !== d.from) this._activate(d.from);
      const s = this.squares.get(d.from);
      for (const c of s.col.childNodes) if (c.nodeName !== 'title') ghost.appendChild(c.cloneNode(true));
      d.at = this._centre(d.from);
      this.dragFrom = d.from;
      s.g.classList.add('drag-from');
    }
    d.ghost = ghost;
  }

  /** dragTo moves the copy of drag d to the point pt. */
  dragTo(d, pt) {
    if (d.ghost && pt) d.ghost.setAttribute('transform', `translate(${(pt.x - d.at.x).toFixed(1)} ${(pt.y - d.at.y).toFixed(1)})`);
  }

  /** endDrag takes the copy of drag d away. */
  endDrag(d) {
    d.ghost?.remove();
    if (this.dragFrom) this.squares.get(this.dragFrom)?.g.classList.remove('drag-from');
    this.dragFrom = null;
  }

  /**
   * drop ends drag d on sq (null off the board) as a click on sq would,
   * but that a column dropped on the last square of a capture, away from
   * where its next jump lands, plays the one legal capture ending there.
   */
  drop(d, sq) {
    if (!sq || sq === d.from) return;
    if (d.from === 'hand') {
      if (this.path.length === 0 && !this.columns.has(sq)) this._activate(sq);
      return;
    }
    if (this.interactive && !this.any) {
      const left = this._continuations();
      const next = left.some((m) => m.squares[this.path.length] === sq);
      const ends = left.filter((m) => m.squares[m.squares.length - 1] === sq);
      if (!next && ends.length === 1) {
        this.path = ends[0].squares.slice();
        this._render();
        this.onMove(ends[0].text);
        return;
      }
    }
    this._activate(sq);
  }

  _onKey(e) {
    const g = e.target.closest && e.target.closest('[data-square]');
    if (!g) return;
    const sq = g.getAttribute('data-square');
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'Spacebar') {
      e.preventDefault();
      this._activate(sq);
      return;
    }
    if (e.key === 'Escape') {
      if (this.path.length || this.queued) {
        e.preventDefault();
        e.stopPropagation();
        if (this.path.length) this.clearSelection();
        else this.cancelPremove();
      }
      return;
    }
    const dirs = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const d = dirs[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    const flip = this.flipped ? -1 : 1;
    const { f, r } = parseSquare(sq);
    const n = this.size;
    const ok = (a, b) => a >= 0 && b >= 0 && a < n && b < n;
    let to = null;
    if (d[0] !== 0) {
      const nf = f + 2 * d[0] * flip;
      if (ok(nf, r)) to = [nf, r];
    } else {
      const nr = r + d[1] * flip;
      for (const nf of [f + flip, f - flip]) {
        if (ok(nf, nr)) {
          to = [nf, nr];
          break;
        }
      }
    }
    if (to) {
      const name = squareName(to[0], to[1]);
      this._setFocus(name);
      this.squares.get(name).g.focus();
    }
  }

  // The move that led to the position on the board, played out: the column
  // travels along its path (hopping over the men it takes), or drops in.
  _animate(text) {
    const mv = parseMove(text);
    if (!mv) return;
    const end = mv.squares[mv.squares.length - 1];
    const s = this.squares.get(end);
    if (!s || !s.col.firstChild) return;
    if (mv.kind === 'entry') {
      s.col.classList.add('pop');
      return;
    }
    const pts = mv.squares.map((q) => this._centre(q));
    const e = this._centre(end);
    const legs = pts.length - 1;
    const leg = Math.max(110, Math.min(250, 650 / legs));
    const total = leg * legs;
    const hop = mv.kind === 'capture' ? 22 : 0;
    const col = s.col;
    this.animLayer.appendChild(col);
    // The count label waits on the last square until the column is there.
    if (s.badge) s.badge.style.visibility = 'hidden';
    const start = performance.now();
    const anim = { col, home: s, raf: 0 };
    const frame = (now) => {
      // A frame's time may be a little before start: it is when the frame began.
      const u = Math.max(0, Math.min(1, (now - start) / total));
      if (u >= 1) {
        this._finishAnim();
        return;
      }
      const k = Math.min(legs - 1, Math.floor(u * legs));
      let f = u * legs - k;
      f = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
      const a = pts[k];
      const b = pts[k + 1];
      const x = a.x + (b.x - a.x) * f - e.x;
      const y = a.y + (b.y - a.y) * f - e.y - hop * Math.sin(Math.PI * f);
      col.setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
      anim.raf = requestAnimationFrame(frame);
    };
    this.anim = anim;
    const p0 = pts[0];
    col.setAttribute('transform', `translate(${p0.x - e.x} ${p0.y - e.y})`);
    anim.raf = requestAnimationFrame(frame);
  }

  _finishAnim() {
    const a = this.anim;
    if (!a) return;
    this.anim = null;
    cancelAnimationFrame(a.raf);
    a.col.removeAttribute('transform');
    a.home.g.insertBefore(a.col, a.home.dot);
    if (a.home.badge) a.home.badge.style.visibility = '';
  }
}
