package puzzle

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rating"
	"emergo/rules"
)

func mustPos(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// line builds a puzzle of the moves from text, as a set's line has them.
func line(t *testing.T, pos rules.Position, moves ...string) *Puzzle {
	t.Helper()
	p := &Puzzle{Start: pos}
	g := rules.NewGameFrom(pos)
	for _, text := range moves {
		q := g.Position()
		m, err := notation.ParseMove(&q, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		p.Line = append(p.Line, Ply{Move: m})
	}
	return p
}

func TestThemes(t *testing.T) {
	tests := []struct {
		name     string
		position string
		moves    []string
		want     []Theme
	}{
		{"a single jump that takes the last man wins", "9x9 w 0/0 d4:W1 e5:B1", []string{"d4xf6"}, []Theme{Win}},
		{"a jump over a single man on prisoners frees them", "9x9 w 0/0 d4:W1 e5:B1w2 a9:B1 i1:B1 e9:B1", []string{"d4xf6"}, []Theme{Freeing}},
		{"two steps left to the opponent", "9x9 w 0/0 d4:W1 e5:B1w2 a9:B1 i1:B1", []string{"d4xf6"}, []Theme{Freeing, Blocking}},
		{"a longer sequence forbids the jump over e5", "9x9 w 0/0 d4:W1 c5:B1 e5:B1 c7:B1 a1:B1 i1:B1", []string{"d4xb6xd8"}, []Theme{Majority}},
		{"the shadow piece leaves one step", "9x9 w 3/0 a1:B1", []string{"e5"}, []Theme{Shadow, Blocking}},
		{"an entry with the men in hand of both", "9x9 w 3/3 a1:B1", []string{"e5"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := line(t, mustPos(t, tt.position), tt.moves...)
			if got := themesOf(p, nil); !slices.Equal(got, tt.want) {
				t.Errorf("themes %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	pos := mustPos(t, "9x9 w 0/0 d4:W1 c5:B1 e5:B1 c7:B1 a1:B1 i1:B1")
	p := line(t, pos, "d4xb6xd8", "a1-b2", "d8-e9")
	p.ID, p.Themes, p.Rating, p.Found, p.Score, p.Origin = IDOf(&pos, p.Line[0].Move), []Theme{Majority, Win}, 1234, 3, 250, "self-play 1 ply 2"
	text := Format(p)
	q, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := Format(&q); got != text {
		t.Errorf("round trip\n got %q\nwant %q", got, text)
	}
	if !strings.HasPrefix(p.ID, "9-") || len(p.ID) != 12 {
		t.Errorf("id %q, want 9- and ten hexadecimal digits", p.ID)
	}
}

func TestParseRefuses(t *testing.T) {
	const pos = "9x9 w 0/0 d4:W1 e5:B1 a1:B1"
	tests := []struct {
		name, text, want string
	}{
		{"too few fields", "9-0\t" + pos, "2 fields"},
		{"an illegal move", "9-0\t" + pos + "\td4-c5\t-\t900\t1\t300\tx", `"d4-c5": White must capture`},
		{"a line ending with the opponent", "9-0\t" + pos + "\td4xf6 a1-b2\t-\t900\t1\t300\tx", "ends with the solver's"},
		{"an unknown theme", "9-0\t" + pos + "\td4xf6\tfork\t900\t1\t300\tx", `unknown theme "fork"`},
		{"a rating that is no number", "9-0\t" + pos + "\td4xf6\t-\thigh\t1\t300\tx", "must be numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

var testCriteria = Criteria{Depth: 6, Win: 200, Equal: 50}

// puzzlePos is a puzzle: one move wins, every other one does not.
const puzzlePos = "9x9 w 0/0 d4:W1 c5:B1w3 e5:B1 e7:B1 d8:B1 a9:B1 i1:B1 i9:B1 a1:W2"

func TestSolve(t *testing.T) {
	tests := []struct {
		name, position string
		want           string // the first move, "" for no puzzle
	}{
		{"the start is no puzzle", "9x9 w 12/12 -", ""},
		{"a forced move is no puzzle", "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1", ""},
		// Only the jump from d4 to the north-west frees White's men; the
		// jump to the north-east leaves them prisoners, and e7 takes the
		// jumper back (d8 stops it jumping on over e7).
		{"the only capture that frees", puzzlePos, "d4xb6"},
	}
	v := NewVerifier(testCriteria)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPos(t, tt.position)
			p, ok, err := v.Solve(context.Background(), pos)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				if tt.want != "" {
					t.Fatalf("no puzzle, want one starting %s", tt.want)
				}
				return
			}
			if tt.want == "" {
				t.Fatalf("puzzle %s, want none", Format(&p))
			}
			if got := p.Line[0].Move.Text(pos.Geometry()); got != tt.want {
				t.Errorf("first move %s, want %s", got, tt.want)
			}
			if err := v.Check(context.Background(), &p); err != nil {
				t.Errorf("its own check: %v", err)
			}
		})
	}
}

func genText(t *testing.T, cfg GenConfig) (string, GenStats) {
	t.Helper()
	var b strings.Builder
	st, err := Gen(context.Background(), cfg, func(p Puzzle) error {
		b.WriteString(Format(&p) + "\n")
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), st
}

func TestGenIsAFunctionOfItsConfig(t *testing.T) {
	cfg := GenConfig{Size: 7, Games: 6, Seed: 3, Criteria: testCriteria}
	a, st := genText(t, cfg)
	b, _ := genText(t, cfg)
	if a != b {
		t.Errorf("two runs differ:\n%s\n%s", a, b)
	}
	if st.Puzzles == 0 || st.Candidates < st.Puzzles || st.Positions < st.Candidates || st.Games != 6 {
		t.Errorf("stats %+v: want puzzles among candidates among positions of 6 games", st)
	}
	for _, text := range strings.Split(strings.TrimSpace(a), "\n") {
		p, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := NewVerifier(testCriteria).Check(context.Background(), &p); err != nil {
			t.Error(err)
		}
	}
	cfg.Count = 1
	if _, st := genText(t, cfg); st.Puzzles != 1 {
		t.Errorf("-count 1 found %d puzzles", st.Puzzles)
	}
}

func TestGenLooksInRecords(t *testing.T) {
	// A game reaching the position of TestSolve's puzzle: the record's
	// start is that position.
	g := rules.NewGameFrom(mustPos(t, puzzlePos))
	text, st := genText(t, GenConfig{Size: 9, Records: []*rules.Game{g, rules.NewGame(rules.Geometry7)}, Criteria: testCriteria})
	if st.Games != 1 || st.Puzzles != 1 || !strings.Contains(text, "\td4xb6") || !strings.HasSuffix(text, "record 1 ply 0\n") {
		t.Errorf("stats %+v, puzzles %q: want the record's puzzle", st, text)
	}
}

func TestGenStops(t *testing.T) {
	stop := errors.New("stop")
	_, err := Gen(context.Background(), GenConfig{Size: 7, Games: 20, Seed: 3, Criteria: testCriteria},
		func(Puzzle) error { return stop }, nil)
	if !errors.Is(err, stop) {
		t.Errorf("error %v, want emit's", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Gen(ctx, GenConfig{Size: 7, Games: 20, Criteria: testCriteria}, func(Puzzle) error { return nil }, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestJudge(t *testing.T) {
	pos := mustPos(t, "9x9 w 0/0 d4:W1 c5:B1 e5:B1 c7:B1 a1:B1 i1:B1")
	p := line(t, pos, "d4xb6xd8", "a1-b2", "d8-e9")
	moves := func(texts ...string) []rules.Move {
		var out []rules.Move
		for k, text := range texts {
			q := p.Game(2 * k).Position()
			m, err := notation.ParseMove(&q, text)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return out
	}
	tests := []struct {
		name   string
		moves  []rules.Move
		solved bool
		wrong  int
	}{
		{"the whole solution", moves("d4xb6xd8", "d8-e9"), true, -1},
		{"its first move", moves("d4xb6xd8"), false, -1},
		{"nothing", nil, false, -1},
		{"a wrong second move", moves("d4xb6xd8", "d8-c9"), false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if solved, wrong := p.Judge(tt.moves); solved != tt.solved || wrong != tt.wrong {
				t.Errorf("Judge: %v, %d; want %v, %d", solved, wrong, tt.solved, tt.wrong)
			}
		})
	}
}

func TestNext(t *testing.T) {
	set := Set(9)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range []float64{700, 1200, 1800} {
		p := Next(set, Filter{Size: 9}, r, nil, nil, rng)
		// No more than the nearest-but-few puzzles are nearer.
		nearer := 0
		for i := range set.Puzzles {
			if math.Abs(float64(set.Puzzles[i].Rating)-r) < math.Abs(float64(p.Rating)-r) {
				nearer++
			}
		}
		if nearer >= nearest {
			t.Errorf("for %v: puzzle rated %d, with %d nearer", r, p.Rating, nearer)
		}
	}
	// A stored rating takes the initial one's place, and puzzles tried
	// are passed over.
	first := &set.Puzzles[0]
	stored := map[string]rating.Rating{first.ID: {Rating: 3000}}
	chosen := 0
	for range 40 {
		if p := Next(set, Filter{Size: 9}, 3000, nil, stored, rng); p.ID == first.ID {
			chosen++
		}
	}
	if chosen == 0 {
		t.Errorf("the puzzle stored at 3000 was never chosen for 3000 in 40 draws")
	}
	if p := Next(set, Filter{Size: 9}, 3000, []string{first.ID}, stored, rng); p.ID == first.ID {
		t.Errorf("a puzzle tried was chosen again")
	}
	for _, th := range Themes {
		if p := Next(set, Filter{Size: 9, Theme: th}, 1500, nil, nil, rng); p == nil || !p.HasTheme(th) {
			t.Errorf("theme %s: %v", th, p)
		}
	}
}
