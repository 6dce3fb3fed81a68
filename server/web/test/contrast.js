// Contrast of colours as WCAG 2.1 measures it (relative luminance, 1.4.3
// and 1.4.11), and just enough of a CSS reader to take the colours from
// style.css: the custom properties of :root and the declarations of each
// rule. Pure; used by the tests, not served.

/** parseColour reads #rgb, #rrggbb, rgb() and rgba() as {r, g, b, a} (0-255, alpha 0-1). */
export function parseColour(text) {
  const s = text.trim().toLowerCase();
  let m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  if (m) {
    const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
    return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16), a: 1 };
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(s);
  if (m) {
    let a = m[4] === undefined ? 1 : parseFloat(m[4]);
    if (m[4] && m[4].endsWith('%')) a /= 100;
    return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a };
  }
  if (s === 'white') return { r: 255, g: 255, b: 255, a: 1 };
  if (s === 'black') return { r: 0, g: 0, b: 0, a: 1 };
  throw new Error(`contrast: cannot read the colour "${text}"`);
}

/** over is colour c laid over the opaque colour bg (alpha compositing). */
export function over(c, bg) {
  const mix = (x, y) => x * c.a + y * (1 - c.a);
  return { r: mix(c.r, bg.r), g: mix(c.g, bg.g), b: mix(c.b, bg.b), a: 1 };
}

/** luminance is the relative luminance of an opaque colour. */
export function luminance({ r, g, b }) {
  const lin = (v) => {
    const x = v / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** contrast is the contrast ratio of colour c, laid over bg, against bg (1 to 21). */
export function contrast(c, bg) {
  const a = luminance(over(c, bg));
  const b = luminance(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** cssRules are the rules of a style sheet as [{selector, decls}], decls a map of property to value; rules inside @media come in their own right. */
export function cssRules(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = [];
  for (const m of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const decls = {};
    for (const d of m[2].split(';')) {
      const i = d.indexOf(':');
      if (i > 0) decls[d.slice(0, i).trim()] = d.slice(i + 1).trim();
    }
    rules.push({ selector: m[1].trim().replace(/\s+/g, ' '), decls });
  }
  return rules;
}

/**
 * rootVars are the custom properties of the style sheet's :root, or of
 * the rules of selector over them (a board theme's
 * :root[data-board="wood"]).
 */
export function rootVars(rules, selector = ':root') {
  const vars = selector === ':root' ? {} : rootVars(rules);
  for (const r of rules.filter((r) => r.selector === selector)) {
    for (const [k, v] of Object.entries(r.decls)) if (k.startsWith('--')) vars[k] = v;
  }
  return vars;
}

/**
 * resolve puts the values of the custom properties in vars into value
 * (var(--x)), and takes the colour of scheme ("light" or "dark") from
 * each light-dark(light, dark).
 */
export function resolve(value, vars, scheme = 'light') {
  const v = value.replace(/var\((--[\w-]+)\)/g, (_, name) => {
    if (!(name in vars)) throw new Error(`contrast: no custom property ${name}`);
    return resolve(vars[name], vars, scheme);
  });
  return pickScheme(v, scheme);
}

/** pickScheme is value with each light-dark(a, b) replaced by a (scheme "light") or b (scheme "dark"). */
export function pickScheme(value, scheme) {
  const at = value.indexOf('light-dark(');
  if (at < 0) return value;
  // The arguments may hold parentheses of their own (rgba): split at the
  // comma outside them, end at the parenthesis that closes the call.
  let depth = 0;
  let comma = -1;
  let i = at + 'light-dark('.length;
  for (; i < value.length; i++) {
    const c = value[i];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) break;
    else if (c === ',' && depth === 0) comma = i;
  }
  if (comma < 0 || i === value.length) throw new Error(`contrast: cannot read "${value}"`);
  const arg = scheme === 'dark' ? value.slice(comma + 1, i) : value.slice(at + 'light-dark('.length, comma);
  return pickScheme(value.slice(0, at) + arg.trim() + value.slice(i + 1), scheme);
}

/**
 * declared is the value of property prop, resolved, as the rules of
 * selectors give it: the selectors in the order of the cascade (a base
 * rule, then those of a state), the last that declares prop winning. It
 * throws when none does. scheme is the colour scheme of light-dark().
 */
export function declared(rules, selectors, prop, vars, scheme = 'light') {
  const list = [selectors].flat();
  const rule = rules.filter((r) => list.includes(r.selector) && prop in r.decls)
    .sort((a, b) => list.indexOf(a.selector) - list.indexOf(b.selector)).pop();
  if (!rule) throw new Error(`contrast: no ${prop} for ${list.join(', ')}`);
  return resolve(rule.decls[prop], vars, scheme);
}
