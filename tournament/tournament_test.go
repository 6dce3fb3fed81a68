package tournament

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 5, 15, 0, 0, 0, time.UTC)

// players are entries 1..n, the first the highest rated, all before the
// start.
func players(n int) []Entry {
	var out []Entry
	for i := 1; i <= n; i++ {
		out = append(out, Entry{User: int64(i), Name: string(rune('a' + i - 1)), Rating: 2000 - 10*i, Joined: t0.Add(-time.Hour)})
	}
	return out
}

// play gives every pending game of ps a result: the lower user number
// wins, but draws are the pairs in draws.
func play(ps []Pairing, draws ...[2]int64) {
	for i := range ps {
		p := &ps[i]
		if p.Result != Pending {
			continue
		}
		p.Result = WhiteWins
		if p.Black < p.White {
			p.Result = BlackWins
		}
		for _, d := range draws {
			if (d[0] == p.White && d[1] == p.Black) || (d[1] == p.White && d[0] == p.Black) {
				p.Result = Drawn
			}
		}
	}
}

func TestArenaStreak(t *testing.T) {
	e := players(2)
	// User 1's games in order: W W W D W L W: 2 2 4 2 2 0 2 (the third
	// win doubled, the draw on the streak doubled and ending it).
	results := []string{WhiteWins, WhiteWins, WhiteWins, Drawn, WhiteWins, BlackWins, WhiteWins}
	var ps []Pairing
	for i, r := range results {
		ps = append(ps, Pairing{Round: i + 1, Board: 1, White: 1, Black: 2, Result: r})
	}
	st := Standings(&Tournament{System: Arena}, e, ps)
	a := st[0]
	if a.Entry.User != 1 || a.Points != 14 || a.Games != 7 || a.Streak || !reflect.DeepEqual(a.Sheet, []string{"2", "2", "4", "2", "2", "0", "2"}) {
		t.Errorf("the winner: %+v", a)
	}
	ps = append(ps, Pairing{Round: 8, Board: 1, White: 1, Black: 2, Result: WhiteWins})
	if a := Standings(&Tournament{System: Arena}, e, ps)[0]; a.Points != 16 || !a.Streak {
		t.Errorf("two wins in a row: %+v, want 16 points on a streak", a)
	}
	ps = append(ps, Pairing{Round: 9, Board: 1, White: 2, Black: 1, Result: BlackWins})
	if a := Standings(&Tournament{System: Arena}, e, ps)[0]; a.Points != 20 || a.Sheet[8] != "4" {
		t.Errorf("a win on the streak: %+v, want 4 more", a)
	}
}

func TestArenaPairs(t *testing.T) {
	e := players(4)
	ps := ArenaPairs(e, nil, 1)
	if len(ps) != 2 || !ps[0].Has(1) || !ps[0].Has(2) || !ps[1].Has(3) || !ps[1].Has(4) {
		t.Fatalf("first pairing: %+v", ps)
	}
	play(ps[:1])
	// 1 and 2 wait, 3 and 4 play: no immediate rematch.
	if more := ArenaPairs(e, ps, 2); len(more) != 0 {
		t.Errorf("a rematch at once: %+v", more)
	}
	play(ps)
	more := ArenaPairs(e, ps, 2)
	if len(more) != 2 {
		t.Fatalf("all four waiting: %+v", more)
	}
	for _, p := range more {
		if (p.Has(1) && p.Has(2)) || (p.Has(3) && p.Has(4)) {
			t.Errorf("an immediate rematch: %+v", more)
		}
	}
	// Two alone in the arena meet again.
	two := players(2)
	first := ArenaPairs(two, nil, 1)
	play(first)
	if again := ArenaPairs(two, first, 2); len(again) != 1 || again[0].White != first[0].Black {
		t.Errorf("two players alone: %+v after %+v, want a rematch with the colours changed", again, first)
	}
	// A withdrawn player is not paired.
	e[3].Withdrawn = true
	if ps := ArenaPairs(e, nil, 1); len(ps) != 1 {
		t.Errorf("with one withdrawn: %+v", ps)
	}
}

// TestSwissOfFive plays a Swiss of five players and three rounds: a bye
// each round, and player 5 withdrawn after round 1.
func TestSwissOfFive(t *testing.T) {
	tr := &Tournament{System: Swiss, Rounds: 3, Status: Running, Started: t0}
	e := players(5)
	var all []Pairing
	byes := map[int64]bool{}
	for r := 1; r <= 3; r++ {
		ps, err := Next(tr, e, all)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		tr.Round = r
		var bye int64
		for _, p := range ps {
			if p.Round != r {
				t.Errorf("round %d: a pairing of round %d", r, p.Round)
			}
			if p.IsBye() {
				bye = p.White
			}
			if r > 1 && p.Has(5) {
				t.Errorf("round %d: the withdrawn player is paired: %+v", r, p)
			}
		}
		switch {
		case r == 1 && (len(ps) != 3 || bye != 5):
			t.Errorf("round 1: %+v, want two games and the bye to the lowest, 5", ps)
		case r > 1 && (len(ps) != 2 || bye != 0):
			t.Errorf("round %d: %+v, want two games of the four present", r, ps)
		case byes[bye] && bye != 0:
			t.Errorf("round %d: a second bye for %d", r, bye)
		}
		byes[bye] = true
		play(ps, [2]int64{1, 3})
		all = append(all, ps...)
		if r == 1 {
			e[4].Withdrawn = true
		}
	}
	if _, err := Next(tr, e, all); !errors.Is(err, ErrNoRound) {
		t.Errorf("a round 4 of 3: %v", err)
	}
	st := Standings(tr, e, all)
	// 1 draws with 3 and wins the rest: 2.5; 5 has his bye's point; 4
	// lost every game.
	if st[0].Entry.User != 1 || st[0].Points != 2.5 || st[3].Entry.User != 5 || st[3].Points != 1 || st[4].Entry.User != 4 || st[4].Points != 0 {
		t.Errorf("standings: %+v", st)
	}
	for _, s := range st {
		if len(s.Sheet) != 3 {
			t.Errorf("%s's sheet: %v", s.Entry.Name, s.Sheet)
		}
		if s.Entry.User == 5 && !reflect.DeepEqual(s.Sheet, []string{"B", "-", "-"}) {
			t.Errorf("the withdrawn player's sheet: %v", s.Sheet)
		}
	}
}

func TestRoundRobin(t *testing.T) {
	tr := &Tournament{System: RoundRobin, Status: Running, Started: t0, Rounds: TableRounds(3, false)}
	e := players(3)
	var all []Pairing
	met := map[[2]int64]bool{}
	for r := 1; r <= tr.Rounds; r++ {
		ps, err := Next(tr, e, all)
		if err != nil {
			t.Fatal(err)
		}
		tr.Round = r
		for _, p := range ps {
			if !p.IsBye() {
				met[[2]int64{min(p.White, p.Black), max(p.White, p.Black)}] = true
			}
		}
		if r == 2 {
			e[2].Withdrawn = true // 3 forfeits his last game
		}
		play(ps)
		all = append(all, ps...)
	}
	if len(met) != 3 {
		t.Errorf("pairs met: %v", met)
	}
	forfeits := 0
	for _, p := range all {
		if p.Round == 3 && (p.Result == WhiteForfeit || p.Result == BlackForfeit) {
			forfeits++
		}
	}
	if forfeits != 1 {
		t.Errorf("round 3 of a withdrawn player: %d forfeits, want 1 (%+v)", forfeits, all)
	}
	st := Standings(tr, e, all)
	if st[0].Entry.User != 1 || st[0].Points != 2 || st[0].Rank != 1 {
		t.Errorf("standings: %+v", st)
	}
	if _, err := Next(tr, e, all); !errors.Is(err, ErrNoRound) {
		t.Errorf("a round after the table: %v", err)
	}
}

func TestNumbersLateEntries(t *testing.T) {
	tr := &Tournament{Started: t0}
	e := []Entry{
		{User: 1, Rating: 1500, Joined: t0.Add(-time.Hour)},
		{User: 2, Rating: 1800, Joined: t0.Add(time.Hour)}, // late
		{User: 3, Rating: 1600, Joined: t0.Add(-time.Minute)},
	}
	if n := Numbers(tr, e); n[3] != 1 || n[1] != 2 || n[2] != 3 {
		t.Errorf("numbers: %v", n)
	}
}

func TestCanEnter(t *testing.T) {
	tr := &Tournament{System: Swiss, Rounds: 3, Status: Created, Conditions: Conditions{MinRating: 1400, MaxRating: 1600, MinRatedGames: 2}}
	ok := Candidate{Name: "bob", Rating: 1500, RatedGames: 2}
	for _, c := range []struct {
		name string
		mod  func(*Tournament, *Candidate)
		want error
	}{
		{"fit", func(*Tournament, *Candidate) {}, nil},
		{"low", func(_ *Tournament, c *Candidate) { c.Rating = 1399 }, ErrRatingLow},
		{"high", func(_ *Tournament, c *Candidate) { c.Rating = 1601 }, ErrRatingHigh},
		{"few games", func(_ *Tournament, c *Candidate) { c.RatedGames = 1 }, ErrFewGames},
		{"not invited", func(t *Tournament, _ *Candidate) { t.Conditions.Invited = []string{"Alice"} }, ErrNotInvited},
		{"invited", func(t *Tournament, _ *Candidate) { t.Conditions.Invited = []string{"BOB"} }, nil},
		{"password", func(t *Tournament, _ *Candidate) { t.Conditions.Password = "x" }, ErrBadPassword},
		{"over", func(t *Tournament, _ *Candidate) { t.Status = Cancelled }, ErrOver},
		{"swiss done", func(t *Tournament, _ *Candidate) { t.Round = 3; t.Status = Running }, ErrSwissLate},
		{"round robin started", func(t *Tournament, _ *Candidate) { t.System = RoundRobin; t.Status = Running }, ErrStarted},
	} {
		tt, cc := *tr, ok
		c.mod(&tt, &cc)
		if err := tt.CanEnter(cc); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	good := Tournament{Name: " Sunday ", System: Arena, Size: 9, Initial: 3 * time.Minute, Minutes: 30}
	if err := good.Check(t0); err != nil || good.Name != "Sunday" {
		t.Errorf("a good arena: %v %q", err, good.Name)
	}
	for _, bad := range []Tournament{
		{Name: "", System: Arena, Size: 9, Initial: time.Minute, Minutes: 30},
		{Name: "x", System: "knockout", Size: 9, Initial: time.Minute},
		{Name: "x", System: Swiss, Size: 8, Initial: time.Minute, Rounds: 3},
		{Name: "x", System: Swiss, Size: 9, Initial: time.Minute, Days: 2, Rounds: 3},
		{Name: "x", System: Swiss, Size: 9, Initial: time.Minute, Rounds: 0},
		{Name: "x", System: Arena, Size: 9, Days: 2, Minutes: 30},
		{Name: "x", System: RoundRobin, Size: 9, Days: 2, Start: t0.Add(-time.Hour)},
		{Name: "x", System: RoundRobin, Size: 9, Days: 2, Conditions: Conditions{Invited: []string{""}}},
	} {
		if err := bad.Check(t0); err == nil {
			t.Errorf("%+v passes", bad)
		}
	}
}

func TestResultOf(t *testing.T) {
	for _, c := range []struct {
		result string
		plies  int
		want   string
	}{{"1-0", 30, WhiteWins}, {"1/2-1/2", 40, Drawn}, {"*", 0, WhiteForfeit}, {"*", 1, BlackForfeit}} {
		if got := ResultOf(c.result, c.plies); got != c.want {
			t.Errorf("%s after %d: %s, want %s", c.result, c.plies, got, c.want)
		}
	}
}
