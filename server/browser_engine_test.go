package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserRules: a page of the site, under its security policy, loads
// the rules module with the engine, and asks it what a page asks: the
// state after some moves and why a move is refused, with the server's
// reasons and rule numbers.
func TestBrowserRules(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped under -short")
	}
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
	type answer struct {
		Position string   `json:"position"`
		Legal    []string `json:"legal"`
		Code     string   `json:"code"`
		Rule     string   `json:"rule"`
		Index    int      `json:"index"`
		Why      string   `json:"why"`
	}
	got := evalJS[answer](b, `(async () => {
  const { loadRules } = await import('/wasm.js');
  const rules = await loadRules();
  const s = rules.state({ size: 7, moves: ['d6', 'c7', 'f6'] });
  let refused = {};
  try { rules.state({ size: 7, moves: ['d6', 'c7', 'f6', 'a1'] }); } catch (e) { refused = e; }
  return { position: s.position, legal: s.legal, code: refused.code, rule: refused.rule, index: refused.index,
    why: rules.why('7x7 w 8/8 -', 'd4').code };
})()`)
	want := answer{Position: "7x7 b 6/7 d6:W1 f6:W1 c7:B1", Legal: []string{"c7xe5xg7"}, Code: "move.must_capture", Rule: "3.5", Index: 3, Why: "move.centre_first"}
	if got.Position != want.Position || len(got.Legal) != 1 || got.Legal[0] != want.Legal[0] || got.Code != want.Code || got.Rule != want.Rule || got.Index != want.Index || got.Why != want.Why {
		t.Errorf("the rules in the browser: %+v, want %+v", got, want)
	}
}
