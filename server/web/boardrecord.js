// What the analysis board reads and writes: a record's first game (the
// PGN-style text or Abstract Play JSON of docs/records.md, read simply:
// its start, its moves and its variations; the rules check the moves
// afterwards), the main line written as a PGN-style record, and the link
// that restores the board. Pure: no DOM.

import { formatPosition, parsePosition, startPosition } from './setup.js';
import { tokens as treeTokens } from './tree.js';

/** RecordError is a record the board cannot read: the key of the catalogue's message and its parameters. */
export class RecordError extends Error {
  constructor(key, params = {}) {
    super(`${key} ${JSON.stringify(params)}`);
    this.name = 'RecordError';
    this.key = key;
    this.params = params;
  }
}

const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** isStart reports whether p is the empty board with every man in hand, White to move. */
export const isStart = (p) => formatPosition(p) === formatPosition(startPosition(p.size));

/**
 * readRecord reads the first game of a record file's text: {position (the
 * start), moves (move texts, with "(" and ")" around variations), result,
 * white, black}. JSON (an object or an array of them) is Abstract Play's
 * record, anything else the PGN-style text.
 */
export function readRecord(text) {
  const s = String(text).replace(/^\ufeff/, '').trim();
  if (s === '') throw new RecordError('record.empty');
  if (s[0] === '{' || (s[0] === '[' && !/^\[[A-Za-z]/.test(s))) {
    let data;
    try {
      data = JSON.parse(firstValue(s));
    } catch {
      throw new RecordError('record.bad_json');
    }
    return readAPJSON(Array.isArray(data) ? data[0] : data);
  }
  return readPGN(s);
}

/**
 * firstValue is the first JSON value of a text that may hold several one
 * after the other (records written one at a time): the text up to the
 * bracket that closes its first.
 */
export function firstValue(s) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if ((c === '}' || c === ']') && --depth === 0) {
      return s.slice(0, i + 1);
    }
  }
  return s;
}

/** readPGN reads the first game of a PGN-style text (docs/records.md; variations kept). */
export function readPGN(text) {
  const tags = {};
  const moves = [];
  let result = '*';
  let body = false;
  const lines = String(text).split(/\r?\n/);
  let rest = '';
  for (const line of lines) {
    if (line.startsWith('%')) continue;
    const tag = /^\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/.exec(line);
    if (tag && !body) {
      tags[tag[1]] = tag[2].replace(/\\(.)/g, '$1');
      continue;
    }
    if (line.trim() === '' && body && /(1-0|0-1|1\/2-1\/2|\*)\s*$/.test(rest.trim())) break;
    if (line.trim() !== '') body = true;
    rest += ` ${line.replace(/;.*$/, '')}`;
  }
  const words = rest.replace(/\{[^}]*\}/g, ' ').replace(/\$[0-9]+/g, ' ');
  for (const raw of treeTokens(words)) {
    if (RESULTS.has(raw)) {
      result = raw;
      break;
    }
    const w = raw.replace(/^[0-9]+\.(\.\.)?/, '').replace(/^[0-9]+…/, '').replace(/[!?]+$/, '');
    if (w === '') continue;
    moves.push(w === '(' || w === ')' ? w : w.toLowerCase().replace(/^@/, ''));
  }
  // A size the site has not is refused, as the server's reader refuses
  // it, rather than read as the standard board.
  if (tags.Size !== undefined && tags.Size !== '7' && tags.Size !== '9') throw new RecordError('record.bad_size', { size: tags.Size });
  const size = tags.Size === '7' ? 7 : 9;
  let position = startPosition(size);
  if (tags.SetUp === '1' && tags.Position) position = parsePosition(tags.Position);
  return { position, moves, result: tags.Result && RESULTS.has(tags.Result) ? tags.Result : result, white: tags.White || '', black: tags.Black || '' };
}

/** readAPJSON reads one Abstract Play game record (docs/records.md) into the board's start and moves. */
export function readAPJSON(rec) {
  const header = rec && rec.header;
  if (!header || !header.game || String(header.game.name).toLowerCase() !== 'emergo' || !Array.isArray(rec.moves)) {
    throw new RecordError('record.not_emergo');
  }
  const size = (header.game.variants || []).includes('7x7') ? 7 : 9;
  const position = header.startingPosition ? parsePosition(header.startingPosition) : startPosition(size);
  const moves = [];
  for (const entry of rec.moves.flat()) {
    const m = entry && typeof entry === 'object' ? entry.move : entry;
    if (typeof m !== 'string' || ['resign', 'timeout', 'draw'].includes(m)) continue;
    moves.push(m.toLowerCase().replace(/^@/, ''));
  }
  const players = header.players || [];
  let result = '*';
  if (!header.unfinished && players.length === 2) {
    const [w, b] = players.map((p) => Number(p.result));
    result = w > b ? '1-0' : b > w ? '0-1' : '1/2-1/2';
  }
  return { position, moves, result, white: (players[0] && players[0].name) || '', black: (players[1] && players[1].name) || '' };
}

/** MAX_LINE is where the PGN writer breaks its lines, as the record package does. */
const MAX_LINE = 79;

// A tag's value stays on its line: a control character (a name with a
// line break, from a pasted record) is a space, as records allow none.
const quoted = (v) => `"${String(v).replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[\\"]/g, '\\$&')}"`;

/**
 * exportPGN writes a game as the PGN-style record of docs/records.md: the
 * seven-tag roster, the size, the set-up position if it is not the
 * start, the moves numbered, each with its comment if comments has one
 * (the engine's evaluation), the result (that of the board where it ended
 * the game, else "*") with its Termination.
 */
export function exportPGN({ position, moves, comments = [], result = '*', reason = '', white = '?', black = '?', date = '????.??.??' }) {
  const tags = [
    ['Event', 'Analysis'], ['Site', '?'], ['Date', date], ['Round', '?'],
    ['White', white || '?'], ['Black', black || '?'], ['Result', result], ['Size', String(position.size)],
  ];
  if (!isStart(position)) tags.push(['SetUp', '1'], ['Position', formatPosition(position)]);
  tags.push(['Termination', reason || 'unterminated']);
  const out = tags.map(([k, v]) => `[${k} ${quoted(v)}]`);
  const toks = [];
  let afterComment = false;
  moves.forEach((m, i) => {
    const j = i + (position.turn === 'black' ? 1 : 0);
    const n = Math.floor(j / 2) + 1;
    if (j % 2 === 0) toks.push(`${n}. ${m}`);
    else toks.push(i === 0 || afterComment ? `${n}... ${m}` : m);
    const c = String(comments[i] || '').replace(/[{}]/g, '').trim();
    afterComment = c !== '';
    // A comment's words may go to the next line, as the record package writes them.
    if (afterComment) toks.push(...`{${c}}`.split(/\s+/));
  });
  toks.push(result);
  const lines = [];
  let line = '';
  for (const tok of toks) {
    if (line && line.length + 1 + tok.length > MAX_LINE) {
      lines.push(line);
      line = tok;
    } else {
      line = line ? `${line} ${tok}` : tok;
    }
  }
  lines.push(line);
  return `${out.join('\n')}\n\n${lines.join('\n')}\n`;
}

/**
 * linkHash is the part of the board's link after "#": the start position
 * (left out for the start of 9x9), the moves with their variations
 * (tree.js movetext) and the move shown (its place in movetext, counting
 * moves from 1; 0 or none for the start).
 */
export function linkHash({ position, line = '', at = 0 }) {
  const q = new URLSearchParams();
  if (!(isStart(position) && position.size === 9)) q.set('pos', formatPosition(position));
  if (line) q.set('line', line);
  if (at) q.set('at', String(at));
  return q.toString();
}

/**
 * readLink reads linkHash's text (with or without its "#"): {position,
 * line, at}, or null when it holds no board. A position that cannot be
 * read throws the PositionTextError of setup.js.
 */
export function readLink(hash) {
  const q = new URLSearchParams(String(hash).replace(/^#/, ''));
  if (!q.has('pos') && !q.has('line')) return null;
  const position = q.has('pos') ? parsePosition(q.get('pos')) : startPosition(9);
  const at = Number(q.get('at'));
  return { position, line: q.get('line') || '', at: Number.isInteger(at) && at > 0 ? at : 0 };
}
