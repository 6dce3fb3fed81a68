// Small pure helpers for the wording of the pages: colours, capitals,
// counts of men.

/** other is the opponent of a colour, "white" or "black". */
export const other = (c) => (c === 'white' ? 'black' : 'white');

/** capital is s with its first letter in upper case: "white" is "White". */
export const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** uncapital is s with its first letter in lower case. */
export const uncapital = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/** men counts men: "1 man", "3 men". */
export const men = (n) => `${n} ${n === 1 ? 'man' : 'men'}`;
