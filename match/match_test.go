package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"emergo/game"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

func mustSpec(t *testing.T, text string) Spec {
	t.Helper()
	sp, err := ParseSpec(text, SpecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// runMatch runs cfg and returns its summary and its records read back.
func runMatch(t *testing.T, cfg Config) (Summary, []record.Record) {
	t.Helper()
	var pgn bytes.Buffer
	cfg.PGN = &pgn
	played := 0
	sum, err := Run(context.Background(), cfg, func(p Progress) {
		played++
		if p.Played != played || p.Total != sum0(cfg) {
			t.Errorf("progress %d/%d after %d games", p.Played, p.Total, played)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadPGN(&pgn)
	if err != nil {
		t.Fatalf("the PGN does not read back: %v", err)
	}
	if len(recs) != len(sum.Games) {
		t.Fatalf("%d records for %d games", len(recs), len(sum.Games))
	}
	return sum, recs
}

func sum0(cfg Config) int { return (cfg.Games + 1) / 2 * 2 }

// TestRunInProcess plays random against greedy and checks the games, the
// records and the pairing of colours.
func TestRunInProcess(t *testing.T) {
	cfg := Config{
		P1: mustSpec(t, "random"), P2: mustSpec(t, "greedy"),
		Games: 8, Sizes: []int{7}, Concurrency: 2, MaxPlies: 300, Seed: 5,
	}
	sum, recs := runMatch(t, cfg)
	c := &sum.Counts
	if len(sum.Games) != 8 || c.Games() != 8 || c.PairCount() != 4 {
		t.Fatalf("%d games, counted %d, %d pairs; want 8, 8, 4", len(sum.Games), c.Games(), c.PairCount())
	}
	if c.WhiteWins+c.BlackWins+c.Draws != 8 {
		t.Errorf("colour counts %+v do not add up", c)
	}
	// White's pairs hold White's points over both games of each opening.
	var whitePoints, pairs int
	for k, n := range c.WhitePairs {
		whitePoints += k * n
		pairs += n
	}
	if pairs != 4 || float64(whitePoints)/2 != float64(c.WhiteWins)+float64(c.Draws)/2 {
		t.Errorf("White's pairs %v: %d pairs, %d half points; want 4 pairs and White's %d-%d-%d",
			c.WhitePairs, pairs, whitePoints, c.WhiteWins, c.Draws, c.BlackWins)
	}
	for i, g := range sum.Games {
		// Every move after the opening is timed, in order, by its mover.
		n := g.Plies - len(g.Times)
		for j, mt := range g.Times {
			if mt.Ply != n+j+1 || mt.Side != rules.Color((n+j)%2) || mt.Took < 0 {
				t.Errorf("game %d: move time %d is %+v", i+1, j, mt)
				break
			}
		}
	}
	for i, rec := range recs {
		g := &sum.Games[i]
		if g.Number != i+1 || rec.Tag("Round") != strconv.Itoa(i+1) {
			t.Errorf("record %d is game %d, round %s", i+1, g.Number, rec.Tag("Round"))
		}
		if rec.Result != g.Result || rec.Tag("Termination") != g.Termination.String() {
			t.Errorf("game %d: record says %s (%s), summary %s (%s)", g.Number, rec.Result, rec.Tag("Termination"), g.Result, g.Termination)
		}
		if rec.Tag("Size") != "7" {
			t.Errorf("game %d: Size %q", g.Number, rec.Tag("Size"))
		}
		gm, err := rec.Game()
		if err != nil {
			t.Fatalf("game %d does not replay: %v", g.Number, err)
		}
		if o := gm.Outcome(); o.Over() && (game.EndingOf(o) != game.Ending{Result: g.Result, Termination: g.Termination}) {
			t.Errorf("game %d: the board says %s, the match %s (%s)", g.Number, o, g.Result, g.Termination)
		}
		// Games 2k-1 and 2k share an opening with the colours swapped.
		wantWhite := "random"
		if i%2 == 1 {
			wantWhite = "greedy"
		}
		if rec.Tag("White") != wantWhite || g.P1White != (i%2 == 0) {
			t.Errorf("game %d: White is %s, want %s", g.Number, rec.Tag("White"), wantWhite)
		}
		if i%2 == 1 {
			a, b := recs[i-1], rec
			n := openingLen(t, &a)
			if openingLen(t, &b) != n || !slices.Equal(a.Moves[:n], b.Moves[:n]) {
				t.Errorf("games %d and %d do not share their opening", i, i+1)
			}
		}
	}
	var report bytes.Buffer
	if err := sum.WriteReport(&report); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"random vs greedy", "Elo difference", "LOS", "Game pairs", "White scores"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, report.String())
		}
	}
}

// openingLen returns the number of opening moves of rec: those up to the
// comment that marks the end of the opening.
func openingLen(t *testing.T, rec *record.Record) int {
	t.Helper()
	for i, c := range rec.Comments {
		if strings.HasPrefix(c, openingMarker) {
			return i + 1
		}
	}
	t.Fatalf("game %s has no end-of-opening comment", rec.Tag("Round"))
	return 0
}

// TestRunDeterministic checks that the games depend on the seed, not on
// the number of workers.
func TestRunDeterministic(t *testing.T) {
	moves := func(conc int) [][]rules.Move {
		cfg := Config{
			P1: mustSpec(t, "random"), P2: mustSpec(t, "greedy"),
			Games: 6, Sizes: []int{7, 9}, Concurrency: conc, MaxPlies: 120, Seed: 9,
		}
		sum, _ := runMatch(t, cfg)
		var out [][]rules.Move
		for _, g := range sum.Games {
			out = append(out, g.Record.Moves)
		}
		return out
	}
	a, b := moves(1), moves(3)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("game %d differs between 1 and 3 workers", i+1)
		}
	}
}

func TestRunSizesAlternate(t *testing.T) {
	cfg := Config{
		P1: mustSpec(t, "random"), P2: mustSpec(t, "random"),
		Games: 8, Sizes: []int{9, 7}, MaxPlies: 20, Seed: 2,
	}
	sum, recs := runMatch(t, cfg)
	for i, g := range sum.Games {
		want := []int{9, 7}[(g.Pair-1)%2]
		if g.Size != want || recs[i].Tag("Size") != strconv.Itoa(want) {
			t.Errorf("game %d (pair %d) on %dx%d, want %dx%d", g.Number, g.Pair, g.Size, g.Size, want, want)
		}
	}
	if !slices.Equal(sum.Sizes, []int{9, 7}) {
		t.Errorf("Sizes = %v", sum.Sizes)
	}
	// The boards' counts add up to the match's.
	var games int
	var pairs, whitePairs [5]int
	for _, n := range sum.Sizes {
		c := sum.CountsOn(n)
		games += c.Games()
		for k := range pairs {
			pairs[k] += c.Pairs[k]
			whitePairs[k] += c.WhitePairs[k]
		}
	}
	if games != sum.Counts.Games() || pairs != sum.Counts.Pairs || whitePairs != sum.Counts.WhitePairs {
		t.Errorf("the boards' counts (%d games, pairs %v, White's %v) do not add up to the match's (%d, %v, %v)",
			games, pairs, whitePairs, sum.Counts.Games(), sum.Counts.Pairs, sum.Counts.WhitePairs)
	}
}

func TestPlyLimit(t *testing.T) {
	cfg := Config{
		P1: mustSpec(t, "random"), P2: mustSpec(t, "random"),
		Games: 4, Sizes: []int{9}, MaxPlies: 12, Seed: 3,
	}
	sum, recs := runMatch(t, cfg)
	adjudicated := 0
	for i, g := range sum.Games {
		if g.Plies > 12 {
			t.Errorf("game %d went on to %d plies", g.Number, g.Plies)
		}
		if g.Termination == game.Adjudication {
			adjudicated++
			if g.Result != rules.Draw || recs[i].Result != rules.Draw || g.Plies != 12 {
				t.Errorf("game %d: adjudicated as %s after %d plies", g.Number, g.Result, g.Plies)
			}
		}
	}
	if adjudicated == 0 {
		t.Error("no game reached the ply limit")
	}
}

// TestOpeningFromPosition plays openings given as a position: the records
// carry it in their SetUp and Position tags, and the external engine gets
// it in its position command.
func TestOpeningFromPosition(t *testing.T) {
	gm := rules.NewGame(rules.Geometry7)
	gm.Play(gm.Legal()[0])
	start := gm.Position()
	op := Opening{Start: start, Moves: []rules.Move{gm.Legal()[2]}}
	cfg := Config{
		P1: mustSpec(t, fakeSpec("good")), P2: mustSpec(t, "random"),
		Games: 2, Openings: []Opening{op}, MaxPlies: 60, TC: [2]TimeControl{{MoveTime: time.Second}, {}},
	}
	sum, recs := runMatch(t, cfg)
	for i, rec := range recs {
		if rec.Tag("SetUp") != "1" || rec.Start != start {
			t.Errorf("game %d: SetUp %q, start %v", i+1, rec.Tag("SetUp"), rec.Start)
		}
		switch sum.Games[i].Termination {
		case game.Crash, game.IllegalMove, game.TimeForfeit:
			t.Errorf("game %d: %s: %v", i+1, sum.Games[i].Termination, rec.Comments)
		}
	}
}

// TestExternalForfeits checks that an external engine that crashes, sends
// an illegal move or no move at all, or does not answer in time, loses,
// with the reason in the Termination tag.
func TestExternalForfeits(t *testing.T) {
	tests := []struct {
		mode string
		term game.Termination
	}{
		{"good", game.Unterminated},
		{"crash:2", game.Crash},
		{"illegal:1", game.IllegalMove},
		{"garbage:2", game.IllegalMove},
		{"hang:2", game.TimeForfeit},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			cfg := Config{
				P1: mustSpec(t, fakeSpec(tc.mode)), P2: mustSpec(t, "random"),
				Games: 2, Sizes: []int{7}, MaxPlies: 40, Seed: 1,
				TC: [2]TimeControl{{MoveTime: 50 * time.Millisecond}, {}},
				// Generous, so that a good engine on a busy machine is
				// never taken for one that hangs.
				Grace: 2 * time.Second,
			}
			sum, recs := runMatch(t, cfg)
			for i, g := range sum.Games {
				if tc.term == game.Unterminated {
					if g.Termination == game.Crash || g.Termination == game.IllegalMove || g.Termination == game.TimeForfeit {
						t.Errorf("game %d: a good engine lost by %s", g.Number, g.Termination)
					}
					if want := "fake-good"; recs[i].Tag("White") != want && recs[i].Tag("Black") != want {
						t.Errorf("game %d: the engine's id name is not in the record", g.Number)
					}
					continue
				}
				if g.Termination != tc.term || g.P1Score() != 0 {
					t.Errorf("game %d: %s (%s), want a loss of the engine by %s", g.Number, g.Result, g.Termination, tc.term)
				}
				if recs[i].Tag("Termination") != tc.term.String() {
					t.Errorf("game %d: Termination tag %q", g.Number, recs[i].Tag("Termination"))
				}
			}
		})
	}
}

// The players are told the game's clock: the time per move of their own
// control, else every side's time and increment; the limit of a move is
// the time left.
func TestClockOf(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tcs := [2]TimeControl{{Time: time.Second, Increment: 100 * time.Millisecond}, {MoveTime: 50 * time.Millisecond}}
	g := game.New(rules.NewGame(rules.Geometry7), game.Options{Now: func() time.Time { return now }, Control: tcs})
	g.Start()
	now = now.Add(600 * time.Millisecond)
	if pc := clockOf(g, rules.White); pc.Time[rules.White] != 400*time.Millisecond || pc.Inc[rules.White] != 100*time.Millisecond || pc.Time[rules.Black] != 0 || pc.MoveTime != 0 {
		t.Errorf("White's clock %+v", pc)
	}
	if lim := limit(g, rules.White); lim != 400*time.Millisecond {
		t.Errorf("White's limit %v", lim)
	}
	if err := g.Play(rules.White, g.Rules().Legal()[0]); err != nil {
		t.Fatal(err)
	}
	if pc := clockOf(g, rules.Black); pc != (player.Clock{MoveTime: 50 * time.Millisecond}) {
		t.Errorf("Black's clock %+v, want a movetime", pc)
	}
	if lim := limit(g, rules.Black); lim != 50*time.Millisecond {
		t.Errorf("Black's limit %v", lim)
	}
	if lim := limit(game.New(rules.NewGame(rules.Geometry7), game.Options{}), rules.White); lim != 0 {
		t.Errorf("a limit %v without a clock", lim)
	}
}

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		text string
		want TimeControl
	}{
		{"none", TimeControl{}},
		{"", TimeControl{}},
		{"100ms/move", TimeControl{MoveTime: 100 * time.Millisecond}},
		{"0.5/move", TimeControl{MoveTime: 500 * time.Millisecond}},
		{"10s+0.1s", TimeControl{Time: 10 * time.Second, Increment: 100 * time.Millisecond}},
		{"1m+100ms", TimeControl{Time: time.Minute, Increment: 100 * time.Millisecond}},
		{"5m", TimeControl{Time: 5 * time.Minute}},
		{"60+1", TimeControl{Time: time.Minute, Increment: time.Second}},
	}
	for _, tc := range tests {
		got, err := ParseTimeControl(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
		if again, err := ParseTimeControl(got.String()); err != nil || again != got {
			t.Errorf("%q does not round-trip through %q", tc.text, got.String())
		}
	}
	for _, bad := range []string{"fast", "0/move", "-1s", "10s+x", "10s+-1s", "/move"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("ParseTimeControl(%q) succeeded", bad)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, good := range []string{"level:1", "level:10", "nodes:1", "nodes:5000/20", "nodes:100/0",
		"engine:depth=2", "engine:nodes=500,margin=20,horizon=3,eval=novice", "engine:depth=1,eval=beginner", "random", "greedy", "mcts:10", fakeSpec("good")} {
		if _, err := ParseSpec(good, SpecOptions{}); err != nil {
			t.Errorf("ParseSpec(%q): %v", good, err)
		}
	}
	for _, bad := range []struct{ spec, want string }{
		{"level:0", "1 to 10"},
		{"level:11", "1 to 10"},
		{"level:x", "1 to 10"},
		{"mcts:0", "positive"},
		{"mcts", "positive"},
		{"random:3", "no setting"},
		{"cmd:", "path"},
		{"cmd:/no/such/engine", "cannot run"},
		{"nodes:0", "positive"},
		{"nodes:x", "positive"},
		{"nodes:100/x", "0 to 1000"},
		{"nodes:100/-1", "0 to 1000"},
		{"levle:3", "unknown kind"},
		{"engine:", "needs settings"},
		{"engine:margin=20", "needs a depth or nodes"},
		{"engine:depth=two", "depth=two is not a number"},
		{"engine:depth=2,margin=2000", "margin=2000 is not a number"},
		{"engine:depth=2,eval=expert", "want beginner or novice"},
		{"engine:depth=2,colour=white", `unknown setting "colour"`},
	} {
		_, err := ParseSpec(bad.spec, SpecOptions{})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseSpec(%q) = %v, want an error about %q", bad.spec, err, bad.want)
		}
	}
}

func TestRunRejectsBrokenEngine(t *testing.T) {
	// The test binary without the fake engine's arguments runs no test
	// and exits without a word of the protocol.
	cfg := Config{P1: mustSpec(t, "cmd:"+os.Args[0]+" -test.run=^$"), P2: mustSpec(t, "random"), Games: 2, Sizes: []int{7}}
	_, err := Run(context.Background(), cfg, nil)
	if err == nil {
		t.Fatal("a program that is no engine was accepted")
	}
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Path != os.Args[0] || !strings.HasPrefix(err.Error(), "match: engine ") {
		t.Errorf("error %q, want the *EngineError of %s alone", err, os.Args[0])
	}
}

func TestGenerateOpenings(t *testing.T) {
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		a, err := GenerateOpenings(g, 6, 11, OpeningOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := GenerateOpenings(g, 6, 11, OpeningOptions{})
		seen := map[rules.Position]bool{}
		for i, op := range a {
			if op.Text() != b[i].Text() {
				t.Errorf("%dx%d opening %d: %q, then %q with the same seed", g.N, g.N, i, op.Text(), b[i].Text())
			}
			if n := len(op.Moves); n < 4 || n > 8 {
				t.Errorf("opening %q has %d plies", op.Text(), n)
			}
			gm, err := op.Game()
			if err != nil || gm.Outcome().Over() {
				t.Fatalf("opening %q: %v, %v", op.Text(), err, gm.Outcome())
			}
			if seen[gm.Position()] {
				t.Errorf("opening %q repeats an earlier one", op.Text())
			}
			seen[gm.Position()] = true
		}
	}
}

func TestStrengthSmoke(t *testing.T) {
	cfg := StrengthConfig{
		Pairings: []Pairing{{P1: "random", P2: "greedy"}},
		Games:    2, Sizes: []int{7}, MaxPlies: 200, Seed: 1,
	}
	rows, err := RunStrength(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Summary.Counts.Games() != 2 {
		t.Fatalf("rows %+v", rows)
	}
	var md bytes.Buffer
	if err := WriteStrengthMarkdown(&md, rows, cfg, "emergo strength -games 2", 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| random | greedy | 2 |", "emergo strength -games 2", "95%"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the page lacks %q:\n%s", want, md.String())
		}
	}
}

// cfg.Row sees every row as it is done, and an error from it stops the
// run after that row.
func TestStrengthRowHook(t *testing.T) {
	cfg := StrengthConfig{
		Pairings: []Pairing{{P1: "random", P2: "greedy"}, {P1: "greedy", P2: "random"}, {P1: "random", P2: "random"}},
		Games:    2, Sizes: []int{7}, MaxPlies: 200, Seed: 1,
	}
	var seen []int
	stop := errors.New("disk full")
	cfg.Row = func(rows []StrengthRow) error {
		seen = append(seen, len(rows))
		if len(rows) == 2 {
			return stop
		}
		return nil
	}
	rows, err := RunStrength(context.Background(), cfg)
	if !errors.Is(err, stop) || len(rows) != 2 || fmt.Sprint(seen) != "[1 2]" {
		t.Errorf("rows %d, calls with %v rows, error %v; want 2 rows, calls [1 2], the hook's error", len(rows), seen, err)
	}
	if rows[1].P1 != "greedy" || rows[1].Summary.Counts.Games() != 2 {
		t.Errorf("second row %+v", rows[1])
	}
}
