// The answer to the latest of a run of requests: a page that asks again
// before an answer comes (another position, another filter) shows only
// the answer to its last question; an earlier one that comes late is
// dropped.

/**
 * Latest numbers a page's requests. ask starts one and returns a function
 * that reports whether it is still the latest; current does the same for
 * the request under way without starting one; drop makes every request
 * under way stale.
 */
export class Latest {
  constructor() {
    this.count = 0;
  }

  ask() {
    this.count++;
    return this.current();
  }

  current() {
    const n = this.count;
    return () => n === this.count;
  }

  drop() {
    this.count++;
  }
}
