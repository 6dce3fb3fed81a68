import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { contrast, cssRules, declared, luminance, over, parseColour, pickScheme, resolve, rootVars } from './contrast.js';

const css = readFileSync(new URL('../style.css', import.meta.url), 'utf8');
const rules = cssRules(css);
const vars = rootVars(rules);

test('contrast: the ratios WCAG gives', () => {
  const cases = [
    { name: 'black on white', fg: '#000', bg: '#fff', want: 21 },
    { name: 'same colour', fg: '#7c9c74', bg: '#7c9c74', want: 1 },
    { name: 'grey 777 on white', fg: '#777777', bg: '#ffffff', want: 4.48 },
    { name: 'half-transparent black on white is grey 808080', fg: 'rgba(0, 0, 0, .5)', bg: '#fff', want: 3.98 },
    { name: 'the rules page code before: muted on its background (axe, cutting, says 4.44)', fg: '#6d685e', bg: '#ebe6da', want: 4.45 },
  ];
  for (const c of cases) {
    assert.equal(Number(contrast(parseColour(c.fg), parseColour(c.bg)).toFixed(2)), c.want, c.name);
  }
});

test('contrast: colours read and laid over others', () => {
  assert.deepEqual(parseColour('#abc'), { r: 170, g: 187, b: 204, a: 1 });
  assert.deepEqual(parseColour('rgba(255, 196, 46, .75)'), { r: 255, g: 196, b: 46, a: 0.75 });
  assert.deepEqual(parseColour('rgb(0 0 0 / 35%)'), { r: 0, g: 0, b: 0, a: 0.35 });
  assert.deepEqual(over(parseColour('rgba(0, 0, 0, .5)'), parseColour('#fff')), { r: 127.5, g: 127.5, b: 127.5, a: 1 });
  assert.equal(luminance(parseColour('#fff')), 1);
  assert.throws(() => parseColour('var(--x)'), /cannot read/);
  assert.equal(resolve('var(--a)', { '--a': 'var(--b)', '--b': '#fff' }), '#fff');
  assert.throws(() => resolve('var(--nope)', {}), /no custom property --nope/);
  const vs = { '--a': 'light-dark(rgba(1, 2, 3, .5), #000)', '--b': 'light-dark(#fff, var(--a))' };
  assert.equal(resolve('var(--a)', vs), 'rgba(1, 2, 3, .5)');
  assert.equal(resolve('var(--a)', vs, 'dark'), '#000');
  assert.equal(resolve('var(--b)', vs, 'dark'), '#000');
  assert.equal(pickScheme('1px solid light-dark(#fff, rgb(0 0 0)) x', 'dark'), '1px solid rgb(0 0 0) x');
});

// markers are the board's markers: the rule that draws each and the
// properties that carry its colours. A marker of two colours (a dark ink
// in a light halo) is seen where either stands out, so each square is
// measured against the one that contrasts most with it.
const markers = [
  { name: 'target dot', selector: ['.board .sq .dot', '.board .sq.target .dot'], props: ['fill', 'stroke'] },
  { name: 'entry dot', selector: ['.board .sq .dot', '.board .sq.target .dot', '.board .sq.target.entry .dot'], props: ['fill', 'stroke'] },
  { name: 'last move frame', selector: '.board .sq.last .hl', props: ['stroke'] },
  { name: 'selected frame', selector: '.board .sq.chosen .hl', props: ['stroke'] },
  { name: '"can move" ring', selector: '.board .sq.movable .ring', props: ['stroke'] },
  { name: 'capture path', selector: '.board .path-line', props: ['stroke'] },
  { name: 'capture path dot', selector: '.board .path-dot', props: ['fill', 'stroke'] },
  { name: 'focus ring', selector: '.board .sq:focus-visible .focus', props: ['stroke'] },
  { name: 'premove frame', selector: '.board .sq.premove .hl', props: ['stroke'] },
  { name: 'rules diagram: arrow', selector: '.diagram .arrow', props: ['stroke'] },
  { name: 'rules diagram: dashed arrow', selector: '.diagram .arrow.dashed', props: ['stroke'] },
  { name: 'rules diagram: allowed square', selector: '.diagram .mark-ok', props: ['fill', 'stroke'] },
  { name: 'rules diagram: forbidden square', selector: '.diagram .mark-no', props: ['stroke'] },
  { name: 'rules diagram: marked square', selector: '.diagram .mark-sq', props: ['stroke'] },
  { name: 'engine arrow', selector: '.board .arrow-line', props: ['stroke'] },
];

// The board is measured in every colour scheme and board theme of the
// style sheet: the themes' squares (:root[data-board=...]) under the
// site's colours, each light-dark() taken as the scheme says.
const schemes = ['light', 'dark'];
const boards = ['green', 'wood', 'slate'];

/** themes are the pairs of scheme and board, each with its custom properties. */
const themes = schemes.flatMap((scheme) => boards.map((board) => ({
  scheme, board, vars: board === 'green' ? vars : rootVars(rules, `:root[data-board="${board}"]`),
})));

test('contrast: the style sheet has the board themes and the dark scheme', () => {
  for (const board of boards.slice(1)) {
    assert.ok(rules.some((r) => r.selector === `:root[data-board="${board}"]` && '--dark-sq' in r.decls), `no board theme ${board}`);
  }
  assert.match(css, /@media \(prefers-color-scheme: dark\) \{\s*:root \{ color-scheme: dark; \}/);
  assert.notEqual(declared(rules, '.board .sq .bg', 'fill', vars, 'dark'), declared(rules, '.board .sq .bg', 'fill', vars, 'light'));
});

for (const { scheme, board, vars: themeVars } of themes) {
  const squares = {
    'light square': declared(rules, '.board .light rect', 'fill', themeVars, scheme),
    'dark square': declared(rules, '.board .sq .bg', 'fill', themeVars, scheme),
  };
  const what = `${scheme} scheme, ${board} board`;

  test(`contrast: every marker of the board stands 3:1 against both squares (WCAG 1.4.11), ${what}`, (t) => {
    for (const m of markers) {
      const colours = m.props.map((p) => declared(rules, m.selector, p, themeVars, scheme));
      const figures = [];
      for (const [sqName, sq] of Object.entries(squares)) {
        const bg = parseColour(sq);
        const best = Math.max(...colours.map((c) => contrast(parseColour(c), bg)));
        figures.push(`${sqName} ${best.toFixed(2)}`);
        assert.ok(best >= 3, `${what}: ${m.name} (${colours.join(', ')}) on the ${sqName} ${sq}: ${best.toFixed(2)}, want 3 or more`);
      }
      t.diagnostic(`${m.name}: ${figures.join(', ')}`);
    }
  });

  test(`contrast: a marker in two colours has its halo 3:1 from its ink, ${what}`, () => {
    for (const m of markers.filter((m) => m.props.length === 2)) {
      const [a, b] = m.props.map((p) => parseColour(declared(rules, m.selector, p, themeVars, scheme)));
      assert.ok(contrast(a, b) >= 3, `${what}: ${m.name}: ${contrast(a, b).toFixed(2)}`);
    }
  });
}

test('contrast: the count chips and the rules page\'s code are text of 4.5:1, in both schemes', () => {
  const cases = [
    { name: 'white chip', fg: ['.badge .chip-text.w', 'fill'], bg: ['.badge .chip.w', 'fill'] },
    { name: 'black chip', fg: ['.badge .chip-text.b', 'fill'], bg: ['.badge .chip.b', 'fill'] },
    { name: 'rules code', fg: ['.rules code', 'color'], bg: ['.rules code', 'background'] },
  ];
  for (const scheme of schemes) {
    for (const c of cases) {
      const fg = parseColour(declared(rules, ...c.fg, vars, scheme));
      const bg = parseColour(declared(rules, ...c.bg, vars, scheme));
      assert.ok(contrast(fg, bg) >= 4.5, `${scheme}: ${c.name}: ${contrast(fg, bg).toFixed(2)}`);
    }
  }
});
