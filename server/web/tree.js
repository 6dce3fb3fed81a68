// The move tree of the analysis board: a start position's moves, the
// first child of each node its main continuation and the others its
// variations, as in a PGN with ( ) around a variation. The tree holds
// move texts only: whether a move is legal is the rules' to say, the page
// checks each before it adds it. Pure: no DOM.

/** node makes a node after move (null for the root) under parent. */
function node(move, parent) {
  return { move, parent, children: [] };
}

/** newTree is the root of an empty tree: the start position. */
export const newTree = () => node(null, null);

/**
 * play is the node of move after n: its child with that move if there is
 * one, else a new child, the main continuation if n had none, else n's
 * last variation.
 */
export function play(n, move) {
  const had = n.children.find((c) => c.move === move);
  if (had) return had;
  const c = node(move, n);
  n.children.push(c);
  return c;
}

/** plyOf is the number of moves from the root to n. */
export function plyOf(n) {
  let k = 0;
  for (let p = n; p.parent; p = p.parent) k++;
  return k;
}

/** rootOf is the root of n's tree. */
export function rootOf(n) {
  let p = n;
  while (p.parent) p = p.parent;
  return p;
}

/** movesTo are the moves from the root to n. */
export function movesTo(n) {
  const moves = [];
  for (let p = n; p.parent; p = p.parent) moves.push(p.move);
  return moves.reverse();
}

/** mainLine are the nodes that follow n along the first children, n excluded. */
export function mainLine(n) {
  const line = [];
  for (let p = n.children[0]; p; p = p.children[0]) line.push(p);
  return line;
}

/** lastOf is the end of n's main continuation (n when it has none). */
export function lastOf(n) {
  const line = mainLine(n);
  return line.length ? line[line.length - 1] : n;
}

/** isMain reports whether n lies on the main line of its tree. */
export function isMain(n) {
  for (let p = n; p.parent; p = p.parent) {
    if (p.parent.children[0] !== p) return false;
  }
  return true;
}

/**
 * promote raises the variation that holds n one level: the nearest node
 * from n up that is not its parent's first child becomes it. It reports
 * whether anything moved (not on the main line).
 */
export function promote(n) {
  let p = n;
  while (p.parent && p.parent.children[0] === p) p = p.parent;
  if (!p.parent) return false;
  const kids = p.parent.children;
  kids.splice(kids.indexOf(p), 1);
  kids.unshift(p);
  return true;
}

/** remove cuts n and everything after it from its tree, and returns its parent. */
export function remove(n) {
  const p = n.parent;
  if (!p) return n;
  p.children.splice(p.children.indexOf(n), 1);
  n.parent = null;
  return p;
}

/**
 * numbering is how the move after ply moves is numbered in a game that
 * first began: {number, white}, White's moves numbered "N." and Black's
 * "N…" where a number is needed.
 */
export function numbering(ply, first) {
  const j = ply + (first === 'black' ? 1 : 0);
  return { number: Math.floor(j / 2) + 1, white: j % 2 === 0 };
}

/**
 * listing is the tree as the move list shows it: the main line from the
 * root as items {node, ply, number} (number "3." before White's moves,
 * "3…" before a Black move that opens a line or follows a variation, else
 * ""), a move's variations in its item's variations, each a listing of
 * its own.
 */
export function listing(root, first = 'white') {
  const line = (start, ply) => {
    const items = [];
    let numberNext = true;
    for (let m = start, k = ply; m; m = m.children[0], k++) {
      const { number, white } = numbering(k, first);
      // A variation's first move is listed under the move it replaces.
      const own = m === start && m.parent.children[0] !== m;
      const variations = own ? [] : m.parent.children.slice(1).map((v) => line(v, k));
      items.push({ node: m, ply: k + 1, number: white ? `${number}.` : numberNext ? `${number}…` : '', variations });
      numberNext = variations.length > 0;
    }
    return items;
  };
  return root.children[0] ? line(root.children[0], 0) : [];
}

/** order is every node of the tree after the root in the order of its movetext (see movetext). */
export function order(root) {
  const out = [];
  const walk = (n) => {
    // n's main continuation, then n's variations with their lines, then on.
    for (let p = n; p.children.length; p = p.children[0]) {
      const [main, ...vars] = p.children;
      out.push(main);
      for (const v of vars) {
        out.push(v);
        walk(v);
      }
    }
  };
  walk(root);
  return out;
}

/**
 * movetext writes the tree as moves separated by spaces, a variation in
 * ( ) after the move it replaces, as in PGN but without numbers:
 * "c3 d4 (e5 f6) g7".
 */
export function movetext(root) {
  const words = [];
  const walk = (n) => {
    for (let p = n; p.children.length; p = p.children[0]) {
      const [main, ...vars] = p.children;
      words.push(main.move);
      for (const v of vars) {
        words.push('(', v.move);
        walk(v);
        words.push(')');
      }
    }
  };
  walk(root);
  return words.join(' ').replaceAll('( ', '(').replaceAll(' )', ')');
}

/** TreeTextError is movetext that cannot be read: what is wrong, and the token. */
export class TreeTextError extends Error {
  constructor(problem, token) {
    super(`${problem}: ${token}`);
    this.name = 'TreeTextError';
    this.problem = problem;
    this.token = token;
  }
}

/**
 * readMovetext reads movetext (the moves as tokens, with "(" and ")") into
 * a new tree: each variation replaces the move before it. It throws a
 * TreeTextError on a "(" with no move before it, or an unbalanced ")".
 */
export function readMovetext(tokens) {
  const root = newTree();
  let cur = root;
  let before = null; // the node before the last move, where a variation starts
  const stack = [];
  for (const tok of tokens) {
    if (tok === '(') {
      if (!before) throw new TreeTextError('variation', tok);
      stack.push([cur, before]);
      cur = before;
      before = null;
    } else if (tok === ')') {
      if (!stack.length) throw new TreeTextError('unbalanced', tok);
      [cur, before] = stack.pop();
    } else {
      before = cur;
      cur = play(cur, tok);
    }
  }
  if (stack.length) throw new TreeTextError('unbalanced', '(');
  return root;
}

/** tokens splits movetext into moves, "(" and ")". */
export const tokens = (text) => String(text).replace(/([()])/g, ' $1 ').split(/\s+/).filter(Boolean);
