package tune

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"emergo/eval"
	"emergo/rules"
)

// randomPositions returns quiet positions from random games of both sizes.
func randomPositions(n int, seed uint64) []rules.Position {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []rules.Position
	var buf []rules.Move
	for len(out) < n {
		g := rules.Geometry9
		if len(out)%2 == 1 {
			g = rules.Geometry7
		}
		p := rules.NewPosition(g)
		plies := r.IntN(80)
		for i := 0; i < plies; i++ {
			buf = p.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			p.Play(buf[r.IntN(len(buf))])
		}
		if !p.CanCapture() && !p.Lost() {
			out = append(out, p)
		}
	}
	return out
}

// Results drawn from a known logistic model must give back its weights.
func TestFitRecoversKnownWeights(t *testing.T) {
	truth := [nParams]float64{0.9, 0.5, -0.2, -0.1, 0.15, 0.05, 0.1, -0.3, 0.2, 0.1}
	r := rand.New(rand.NewPCG(3, 4))
	var samples []Sample
	for _, p := range randomPositions(20000, 1) {
		s := Sample{Pos: p}
		if r.Float64() < sigmoid(dot(truth, vector(&s))) {
			s.Result = 1
		}
		samples = append(samples, s)
	}
	res, err := Fit(samples, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range truth {
		if math.Abs(res.Raw[i]-truth[i]) > 0.12 {
			t.Errorf("coefficient %d fitted %.3f, true %.3f", i, res.Raw[i], truth[i])
		}
	}
	if res.Weights.W[eval.FreeMen] != 100 {
		t.Errorf("free men weight %d, want 100 after scaling", res.Weights.W[eval.FreeMen])
	}
	if res.LogLoss >= res.Baseline {
		t.Errorf("fit log loss %.4f no better than the baseline %.4f", res.LogLoss, res.Baseline)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	var samples []Sample
	for i, p := range randomPositions(50, 2) {
		s := Sample{Pos: p, Result: []float64{0, 0.5, 1}[i%3]}
		if i%2 == 0 {
			s.Score, s.Scored = int32(i-25)*7, true // negative and positive; 0 below
		}
		samples = append(samples, s)
	}
	samples[28].Score, samples[28].Scored = 0, true
	var buf bytes.Buffer
	if err := Write(&buf, samples); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(samples) {
		t.Fatalf("read %d samples, wrote %d", len(got), len(samples))
	}
	for i := range got {
		if got[i] != samples[i] {
			t.Errorf("sample %d differs after a round trip", i)
		}
	}
}

func TestGenerateIsReproducible(t *testing.T) {
	cfg := GenConfig{Games: 2, Sizes: []int{7}, Level: 2, Seed: 5, Workers: 2}
	a, err := Generate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("runs gave %d and %d samples", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("sample %d differs between two runs", i)
		}
		if a[i].Pos.CanCapture() {
			t.Errorf("sample %d is not quiet", i)
		}
	}
}

// With Scores the games are the same, and every position has the score
// its side's search gave it.
func TestGenerateScores(t *testing.T) {
	cfg := GenConfig{Games: 2, Sizes: []int{7}, Level: 2, Seed: 5, Workers: 2}
	plain, err := Generate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Scores = true
	scored, err := Generate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(scored) {
		t.Fatalf("%d positions with scores, %d without", len(scored), len(plain))
	}
	nonzero := 0
	for i := range plain {
		if plain[i].Scored || !scored[i].Scored {
			t.Fatalf("sample %d: scored %v without -scores, %v with", i, plain[i].Scored, scored[i].Scored)
		}
		if scored[i].Pos != plain[i].Pos || scored[i].Result != plain[i].Result {
			t.Fatalf("sample %d differs with scores", i)
		}
		if scored[i].Score != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("every score is 0")
	}
}

// With cfg.Game the samples come game by game, in game order, and a file
// of one gzip stream per game reads back as the whole.
func TestGenerateGivesEachGameInOrder(t *testing.T) {
	cfg := GenConfig{Games: 3, Sizes: []int{7}, Level: 2, Seed: 5, Workers: 2}
	want, err := Generate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	games := 0
	cfg.Game = func(s []Sample) error {
		games++
		return Write(&file, s)
	}
	if got, err := Generate(context.Background(), cfg, nil); err != nil || got != nil {
		t.Fatalf("with cfg.Game: %d samples returned, %v", len(got), err)
	}
	got, err := Read(&file)
	if err != nil {
		t.Fatal(err)
	}
	if games != 3 || len(got) != len(want) {
		t.Fatalf("%d games, %d samples; want 3 games, %d samples", games, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("sample %d differs from the run without cfg.Game", i)
		}
	}

	stop := errors.New("disk full")
	cfg.Game = func([]Sample) error { return stop }
	if _, err := Generate(context.Background(), cfg, nil); !errors.Is(err, stop) {
		t.Errorf("an error from cfg.Game: Generate returned %v", err)
	}
}

// Stopped after its first game, Generate gives that game and no other: a
// game cut short is not a game of the configuration.
func TestGenerateStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	games := 0
	cfg := GenConfig{Games: 3, Sizes: []int{7}, Level: 2, Seed: 5, Workers: 1, Game: func([]Sample) error {
		games++
		cancel()
		return nil
	}}
	if _, err := Generate(ctx, cfg, nil); !errors.Is(err, context.Canceled) || games != 1 {
		t.Errorf("%d games given, error %v; want 1 and context.Canceled", games, err)
	}
}

func TestReadRejectsBadLines(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(&buf); err != nil || len(got) != 0 {
		t.Errorf("an empty file read as %d samples, %v", len(got), err)
	}
	if _, err := Read(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("Read accepted data that is not gzipped")
	}
	for _, line := range []string{"2 9x9 w 12/12 -", "1 9x9 w 12/12", "0.5", "1 +x 9x9 w 12/12 -", "1 -", "1 +5", "1 +5 9x9"} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(line + "\n"))
		zw.Close()
		if _, err := Read(&b); err == nil {
			t.Errorf("Read accepted the line %q", line)
		}
	}
}

// OfSize keeps the samples of one board, in their order.
func TestOfSize(t *testing.T) {
	ps := randomPositions(9, 5) // 9x9 and 7x7 in turn
	samples := make([]Sample, len(ps))
	for i, p := range ps {
		samples[i] = Sample{Pos: p, Result: float64(i)} // the result marks the place
	}
	first := map[int]int{9: 0, 7: 1} // the place of each size's first sample
	for _, n := range []int{9, 7} {
		got := OfSize(samples, n)
		want := 5
		if n == 7 {
			want = 4
		}
		if len(got) != want {
			t.Fatalf("OfSize(%d): %d samples, want %d", n, len(got), want)
		}
		for i, s := range got {
			if s.Pos.Geometry().N != n || s.Result != float64(first[n]+2*i) {
				t.Errorf("OfSize(%d)[%d]: a %dx%d position, sample %v", n, i, s.Pos.Geometry().N, s.Pos.Geometry().N, s.Result)
			}
		}
	}
}

// WeightsNamed knows every name docs/tuning.md and tune gen's -weights give.
func TestWeightsNamed(t *testing.T) {
	for name, want := range map[string]*eval.Weights{
		"default": &eval.Default, "handcrafted": &eval.Handcrafted, "tuned1": &eval.Tuned1, "fitted": &eval.Fitted, "shared": &eval.Shared, "round1": &eval.Round1, "initial": &eval.Initial,
	} {
		if got, ok := WeightsNamed(name); !ok || got != want {
			t.Errorf("WeightsNamed(%q) = %p, %v; want %p", name, got, ok, want)
		}
	}
	for _, name := range strings.FieldsFunc(strings.ReplaceAll(WeightNames, " or ", ", "), func(r rune) bool { return r == ',' || r == ' ' }) {
		if _, ok := WeightsNamed(name); !ok {
			t.Errorf("WeightNames lists %q, which WeightsNamed does not know", name)
		}
	}
	if want := "default, handcrafted, tuned1, fitted, shared, round1 or initial"; WeightNames != want {
		t.Errorf("WeightNames %q, want %q", WeightNames, want)
	}
	if _, ok := WeightsNamed("round3"); ok {
		t.Error(`WeightsNamed("round3") is known`)
	}
}

// A file cut inside its last game holds the games before it (Complete),
// and a run resumed from them (Skip) adds the games the whole run would
// have: the same file, byte for byte once read.
func TestGenerateResumed(t *testing.T) {
	cfg := GenConfig{Games: 5, Sizes: []int{7}, Level: 2, Seed: 11, Workers: 2}
	var whole bytes.Buffer
	var ends []int // the file's length after each game
	cfg.Game = func(s []Sample) error {
		err := Write(&whole, s)
		ends = append(ends, whole.Len())
		return err
	}
	if _, err := Generate(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if len(ends) != 5 {
		t.Fatalf("%d games written, want 5", len(ends))
	}
	for _, cut := range []int{0, ends[0], ends[1] + 1, ends[3] - 9, ends[4]} {
		games, size, err := Complete(bytes.NewReader(whole.Bytes()[:cut]))
		want := 0
		for want < len(ends) && ends[want] <= cut {
			want++
		}
		wantSize := 0
		if want > 0 {
			wantSize = ends[want-1]
		}
		if err != nil || games != want || size != int64(wantSize) {
			t.Fatalf("cut at %d: %d games in %d bytes, %v; want %d in %d", cut, games, size, err, want, wantSize)
		}
		resumed := bytes.NewBuffer(bytes.Clone(whole.Bytes()[:size]))
		cfg.Skip = games
		cfg.Game = func(s []Sample) error { return Write(resumed, s) }
		if _, err := Generate(context.Background(), cfg, nil); err != nil {
			t.Fatal(err)
		}
		a, err := Read(bytes.NewReader(whole.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Read(resumed)
		if err != nil {
			t.Fatalf("cut at %d, resumed: %v", cut, err)
		}
		if len(a) != len(b) {
			t.Fatalf("cut at %d, resumed: %d samples, want %d", cut, len(b), len(a))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("cut at %d, resumed: sample %d differs", cut, i)
			}
		}
	}
}

// A file that cannot be read is not one cut short: Complete says so
// instead of counting the games before the failure, which a resumed run
// would then cut the file after.
func TestCompleteReadError(t *testing.T) {
	var file bytes.Buffer
	for range 2 {
		if err := Write(&file, []Sample{{Pos: rules.NewPosition(rules.Geometry7), Result: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	broken := errors.New("device gone")
	r := io.MultiReader(bytes.NewReader(file.Bytes()[:file.Len()/2+3]), iotest.ErrReader(broken))
	if _, _, err := Complete(r); !errors.Is(err, broken) {
		t.Errorf("a read error: Complete gave %v, want it", err)
	}
	if games, _, err := Complete(bytes.NewReader(file.Bytes())); err != nil || games != 2 {
		t.Errorf("the whole file: %d games, %v; want 2", games, err)
	}
}
