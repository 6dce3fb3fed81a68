package match

import (
	"slices"
	"strings"
	"testing"
	"time"

	"emergo/record"
	"emergo/rules"
)

func report(t *testing.T, s *Summary) string {
	t.Helper()
	var b strings.Builder
	if err := s.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPoolOneMatch: a match read back from its records reports what
// the match reported, line for line.
func TestPoolOneMatch(t *testing.T) {
	cfg := Config{
		P1: mustSpec(t, "random"), P2: mustSpec(t, "greedy"),
		Games: 12, Sizes: []int{9, 7}, Concurrency: 2, MaxPlies: 300, Seed: 3,
		TC: [2]TimeControl{{MoveTime: 250 * time.Millisecond}, {Time: 90 * time.Second, Increment: 1500 * time.Millisecond}},
	}
	sum, recs := runMatch(t, cfg)
	games, err := GamesOf(recs)
	if err != nil {
		t.Fatal(err)
	}
	got := Pool(games)
	if got.Counts != sum.Counts {
		t.Errorf("counts %+v, want the match's %+v", got.Counts, sum.Counts)
	}
	if want, have := report(t, &sum), report(t, &got); have != want {
		t.Errorf("report from the records:\n%s\nwant the match's:\n%s", have, want)
	}
}

// TestPoolTwoMatches: two matches read together count every game and
// every pair of both, the second match's pairs kept apart from the
// first's.
func TestPoolTwoMatches(t *testing.T) {
	var sums []Summary
	var all [][]GameResult
	for _, seed := range []uint64{4, 5} {
		cfg := Config{
			P1: mustSpec(t, "greedy"), P2: mustSpec(t, "random"),
			Games: 6, Sizes: []int{7}, MaxPlies: 300, Seed: seed,
		}
		sum, recs := runMatch(t, cfg)
		games, err := GamesOf(recs)
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, sum)
		all = append(all, games)
	}
	got := Pool(all...)
	a, b := sums[0].Counts, sums[1].Counts
	want := Counts{
		Wins: a.Wins + b.Wins, Draws: a.Draws + b.Draws, Losses: a.Losses + b.Losses,
		WhiteWins: a.WhiteWins + b.WhiteWins, BlackWins: a.BlackWins + b.BlackWins,
	}
	for k := range want.Pairs {
		want.Pairs[k] = a.Pairs[k] + b.Pairs[k]
		want.WhitePairs[k] = a.WhitePairs[k] + b.WhitePairs[k]
	}
	if got.Counts != want {
		t.Errorf("pooled counts %+v, want %+v", got.Counts, want)
	}
	if len(got.Games) != 12 || got.Games[6].Number != 7 || !got.Games[6].P1White || got.Games[6].Pair != 4 {
		t.Errorf("%d games; the second match's first is number %d, pair %d, P1 White %v; want 12, 7, 4, true",
			len(got.Games), got.Games[6].Number, got.Games[6].Pair, got.Games[6].P1White)
	}
	if got.P1 != "greedy" || got.P2 != "random" {
		t.Errorf("players %q and %q, want greedy and random", got.P1, got.P2)
	}
}

// TestGamesOfRefuses records that are no match's: no round, a round
// twice, a game without a result.
func TestGamesOfRefuses(t *testing.T) {
	cfg := Config{P1: mustSpec(t, "random"), P2: mustSpec(t, "greedy"), Games: 2, Sizes: []int{7}, MaxPlies: 300, Seed: 1}
	_, recs := runMatch(t, cfg)
	for _, c := range []struct {
		name string
		edit func([]record.Record) []record.Record
		want string
	}{
		{"no round", func(r []record.Record) []record.Record { must(t, r[1].SetTag("Round", "?")); return r }, `round "?"`},
		{"round twice", func(r []record.Record) []record.Record { must(t, r[1].SetTag("Round", "1")); return r }, "game 2: a second game of round 1"},
		{"no result", func(r []record.Record) []record.Record { r[0].Result = rules.Ongoing; return r }, "no result"},
		{"unknown ending", func(r []record.Record) []record.Record { must(t, r[0].SetTag("Termination", "tea")); return r }, "tea"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := slices.Clone(recs)
			for i := range r {
				r[i].Tags = slices.Clone(r[i].Tags)
			}
			r = c.edit(r)
			_, err := GamesOf(r)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPGNTimeControlRoundTrip: what pgnTimeControl writes reads back.
func TestPGNTimeControlRoundTrip(t *testing.T) {
	for _, tc := range []TimeControl{
		{}, {MoveTime: 100 * time.Millisecond}, {MoveTime: 2 * time.Second},
		{Time: 3 * time.Minute, Increment: 2 * time.Second}, {Time: 30 * time.Minute},
		{Time: 10 * time.Second, Increment: 100 * time.Millisecond},
	} {
		text := pgnTimeControl(tc)
		got, err := parsePGNTimeControl(text)
		if err != nil || got != tc {
			t.Errorf("%v written %q reads back as %v, %v", tc, text, got, err)
		}
	}
	for _, bad := range []string{"", "1/", "1/x", "60", "60+", "-1+2", "1/-3"} {
		if _, err := parsePGNTimeControl(bad); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}
