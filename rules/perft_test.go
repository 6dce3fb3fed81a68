package rules_test

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"emergo/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/perft_positions.txt, counting with both generators")

type perftLine struct {
	depth int
	count uint64
}

func parsePerftLine(text string) (perftLine, error) {
	f := strings.Fields(text)
	if len(f) != 2 {
		return perftLine{}, fmt.Errorf("%q: want depth and count", text)
	}
	d, err1 := strconv.Atoi(f[0])
	n, err2 := strconv.ParseUint(f[1], 10, 64)
	if err1 != nil || err2 != nil || d < 0 {
		return perftLine{}, fmt.Errorf("%q: bad depth or count", text)
	}
	return perftLine{d, n}, nil
}

// readPerft reads a file of "depth count" lines; # starts a comment.
func readPerft(t *testing.T, name string) []perftLine {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []perftLine
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		l, err := parsePerftLine(line)
		if err != nil {
			t.Fatalf("%s:%d: %v", name, i+1, err)
		}
		out = append(out, l)
	}
	return out
}

// TestPerftStart checks the figures of docs/rules.md section 8 from the empty
// boards; depth 5 only without -short. Both modes of Perft count up to
// depth 4, and the naive generator up to depth 3.
func TestPerftStart(t *testing.T) {
	for _, c := range []struct {
		file string
		g    *rules.Geometry
	}{
		{"testdata/perft9.txt", rules.Geometry9},
		{"testdata/perft7.txt", rules.Geometry7},
	} {
		lines := readPerft(t, c.file)
		if len(lines) < 5 {
			t.Fatalf("%s: %d lines", c.file, len(lines))
		}
		p := rules.NewPosition(c.g)
		nb := nFrom(&p)
		for _, l := range lines {
			if l.depth >= 5 && testing.Short() {
				continue
			}
			bulk := rules.Perft{Bulk: true}
			if got := bulk.Count(&p, l.depth); got != l.count {
				t.Errorf("%s: perft(%d) = %d, want %d", c.file, l.depth, got, l.count)
			}
			if l.depth <= 4 {
				mk := rules.Perft{}
				if got := mk.Count(&p, l.depth); got != l.count {
					t.Errorf("%s: perft(%d) without bulk = %d, want %d", c.file, l.depth, got, l.count)
				}
			}
			if l.depth <= 3 {
				if got := nPerft(&nb, l.depth); got != l.count {
					t.Errorf("%s: naive perft(%d) = %d, want %d", c.file, l.depth, got, l.count)
				}
			}
		}
	}
	// By hand (docs/rules.md section 8): every black entry but the 96 next to
	// a white man with an empty square beyond.
	if readPerft(t, "testdata/perft9.txt")[1].count != 40*40-96 {
		t.Error("perft9.txt depth 2 is not 40 x 40 - 96")
	}
}

// perftPosition is one entry of testdata/perft_positions.txt.
type perftPosition struct {
	name     string
	position string
	counts   []perftLine
}

const perftPositionsFile = "testdata/perft_positions.txt"

func readPerftPositions(t *testing.T) []perftPosition {
	t.Helper()
	f, err := os.Open(perftPositionsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftPosition
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		key, rest, _ := strings.Cut(line, " ")
		switch key {
		case "", "#":
		case "name":
			out = append(out, perftPosition{name: rest})
		case "position", "perft":
			if len(out) == 0 {
				t.Fatalf("%s:%d: %s before name", perftPositionsFile, n, key)
			}
			e := &out[len(out)-1]
			if key == "position" {
				e.position = rest
				break
			}
			l, err := parsePerftLine(rest)
			if err != nil {
				t.Fatalf("%s:%d: %v", perftPositionsFile, n, err)
			}
			e.counts = append(e.counts, l)
		default:
			if !strings.HasPrefix(key, "#") {
				t.Fatalf("%s:%d: unknown key %q", perftPositionsFile, n, key)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPerftPositions checks perft from composed and mid-game positions.
// The counts in the file were computed by the fast and the naive
// generator, which agreed (go test -run TestPerftPositions -update
// recomputes them with both). The fast one checks every line, the naive
// one the lines up to 200,000 leaves, without -short.
func TestPerftPositions(t *testing.T) {
	if *update {
		writePerftPositions(t)
	}
	entries := readPerftPositions(t)
	if len(entries) < 10 {
		t.Fatalf("%s: %d positions", perftPositionsFile, len(entries))
	}
	for _, e := range entries {
		p, err := parsePosition(e.position)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		nb := nFrom(&p)
		for _, l := range e.counts {
			if testing.Short() && l.count > 1_000_000 {
				continue
			}
			pf := rules.Perft{Bulk: true}
			if got := pf.Count(&p, l.depth); got != l.count {
				t.Errorf("%s: perft(%d) = %d, want %d", e.name, l.depth, got, l.count)
			}
			if !testing.Short() && l.count <= 200_000 {
				if got := nPerft(&nb, l.depth); got != l.count {
					t.Errorf("%s: naive perft(%d) = %d, want %d", e.name, l.depth, got, l.count)
				}
			}
		}
	}
}

// writePerftPositions rewrites the positions file: the positions below,
// each counted by both generators to the depth where the tree passes
// 2,000,000 leaves or depth 6.
func writePerftPositions(t *testing.T) {
	type source struct {
		name string
		p    rules.Position
	}
	var sources []source
	add := func(name string, g *rules.Geometry, cols board, hands [2]int, side rules.Color) {
		sources = append(sources, source{name, makePosition(t, g, cols, hands, side)})
	}
	add("RULE_CASES D1", rules.Geometry9, board{"c5": "B2w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}, [2]int{0, 0}, rules.White)
	add("RULE_CASES D3", rules.Geometry9, board{"c5": "B1w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}, [2]int{0, 0}, rules.White)
	add("RULE_CASES D6", rules.Geometry9, board{"h8": "B10w2", "e5": "W1", "a1": "W9"}, [2]int{0, 2}, rules.Black)
	add("RULE_CASES D6b", rules.Geometry9, board{"h8": "B10w2", "g7": "W1", "a1": "W9"}, [2]int{0, 2}, rules.Black)
	add("RULE_CASES D9, no legal move", rules.Geometry9, d9, [2]int{0, 1}, rules.Black)
	add("capture cycle (rules_test.go)", rules.Geometry9, captureCycle, [2]int{0, 0}, rules.White)
	// Random games from a fixed seed: two positions of each size in each
	// phase, entering (both hands full of men), mixed (one hand empty)
	// and movement (both empty).
	rng := rand.New(rand.NewPCG(2026, 11))
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		var have [3]int
		for have[0]+have[1]+have[2] < 6 {
			ps := randomGame(rng, g, 200, rng.Float64()*0.6)
			p := ps[rng.IntN(len(ps))]
			empty := 0
			for c := rules.White; c <= rules.Black; c++ {
				if p.Hand(c) == 0 {
					empty++
				}
			}
			if have[empty] == 2 || p.CountLegal() < 2 || len(ps) < 6 {
				continue
			}
			have[empty]++
			phase := []string{"entering", "mixed", "movement"}[empty]
			sources = append(sources, source{fmt.Sprintf("%dx%d %s phase %d", g.N, g.N, phase, have[empty]), p})
		}
	}

	var b strings.Builder
	b.WriteString("# Perft from composed and mid-game positions. Each count was computed by\n")
	b.WriteString("# the fast generator and by the naive one of naive_test.go, which agreed.\n")
	b.WriteString("# Regenerate with: go test ./rules -run TestPerftPositions -update\n")
	b.WriteString("# Positions: size, side, hands W B, then each column bottom man first.\n")
	for _, s := range sources {
		fmt.Fprintf(&b, "\nname %s\nposition %s\n", s.name, positionText(&s.p))
		nb := nFrom(&s.p)
		for depth := 1; depth <= 6; depth++ {
			pf := rules.Perft{Bulk: true}
			fast := pf.Count(&s.p, depth)
			if naive := nPerft(&nb, depth); naive != fast {
				t.Fatalf("%s: perft(%d) fast %d, naive %d", s.name, depth, fast, naive)
			}
			fmt.Fprintf(&b, "perft %d %d\n", depth, fast)
			if fast == 0 || fast > 2_000_000 {
				break
			}
		}
	}
	if err := os.WriteFile(perftPositionsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHotPathAllocatesNothing checks that generation, counting, making
// and a warm perft allocate nothing.
func TestHotPathAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	ps := randomPositions(rng, 24)
	ps = append(ps, rules.NewPosition(rules.Geometry9), rules.NewPosition(rules.Geometry7))
	buf := make([]rules.Move, 0, 256)
	if a := testing.AllocsPerRun(20, func() {
		for i := range ps {
			buf = ps[i].Legal(buf[:0])
			_ = ps[i].CountLegal()
			for _, m := range buf {
				q := ps[i]
				q.Play(m)
			}
		}
	}); a != 0 {
		t.Errorf("Legal, CountLegal and Play allocate %.1f times per run", a)
	}
	for _, bulk := range []bool{true, false} {
		pf := rules.Perft{Bulk: bulk}
		start := rules.NewPosition(rules.Geometry9)
		pf.Count(&start, 3) // warm the stacks
		if a := testing.AllocsPerRun(5, func() { pf.Count(&start, 3) }); a != 0 {
			t.Errorf("Perft{Bulk: %v}.Count from the start allocates %.1f times per run", bulk, a)
		}
	}
}
