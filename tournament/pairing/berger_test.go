package pairing

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// publishedTables reads testdata/berger.txt: for each even n, its rounds
// as "W-B, W-B" text.
func publishedTables(t *testing.T) map[int][]string {
	t.Helper()
	f, err := os.Open("testdata/berger.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[int][]string{}
	n := 0
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if rest, ok := strings.CutPrefix(line, "# "); ok && strings.HasSuffix(line, " players") {
			f := strings.Fields(rest)
			if n, err = strconv.Atoi(f[2]); err != nil {
				t.Fatalf("testdata/berger.txt: %q", line)
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		_, pairs, _ := strings.Cut(line, ": ")
		tables[n] = append(tables[n], pairs)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return tables
}

// publishedPairs reads a published round, "W-B, W-B", as the pairs of
// players players: for an odd number, the game against the dummy (the
// highest number) is the bye of the other player.
func publishedPairs(t *testing.T, text string, players int) []Pair {
	t.Helper()
	var pairs []Pair
	for _, g := range strings.Split(text, ", ") {
		w, b, _ := strings.Cut(g, "-")
		p := Pair{atoi(t, w), atoi(t, b)}
		if players%2 == 1 && p.White == players+1 {
			p = Pair{p.Black, 0}
		} else if players%2 == 1 && p.Black == players+1 {
			p.Black = 0
		}
		pairs = append(pairs, p)
	}
	return pairs
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("testdata/berger.txt: %q is not a number", s)
	}
	return v
}

// TestBergerPublished compares every round of the tables for 3 to 16
// players with FIDE's published tables.
func TestBergerPublished(t *testing.T) {
	tables := publishedTables(t)
	for players := 3; players <= 16; players++ {
		n := players + players%2
		want := tables[n]
		if len(want) != n-1 {
			t.Fatalf("testdata has %d rounds for %d players, want %d", len(want), n, n-1)
		}
		for r := 1; r <= n-1; r++ {
			got, err := Berger(players, r, false)
			if err != nil {
				t.Fatal(err)
			}
			if w := publishedPairs(t, want[r-1], players); fmt.Sprint(got) != fmt.Sprint(w) {
				t.Errorf("%d players, round %d: %v, want %v (%s)", players, r, got, w, want[r-1])
			}
		}
	}
}

// TestBergerHandbookExample is the Handbook's example: 6 players, round 2.
func TestBergerHandbookExample(t *testing.T) {
	got, err := Berger(6, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{6, 4}, {5, 3}, {1, 2}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Berger(6, 2) = %v, want %v", got, want)
	}
}

// TestBergerEveryoneOnce checks, for every size and both cycles, that
// every player meets every other exactly once a cycle (twice in a double
// round robin, once with each colour), and that in a double round robin
// no one has the same colour three rounds running at the cycles' seam.
func TestBergerEveryoneOnce(t *testing.T) {
	for players := 3; players <= 16; players++ {
		for _, double := range []bool{false, true} {
			n := players + players%2
			rounds := n - 1
			if double {
				rounds *= 2
			}
			met := map[[2]int]int{}
			byes := map[int]int{}
			colours := map[int][]int{}
			for r := 1; r <= rounds; r++ {
				pairs, err := Berger(players, r, double)
				if err != nil {
					t.Fatal(err)
				}
				seen := map[int]bool{}
				for _, p := range pairs {
					for _, x := range []int{p.White, p.Black} {
						if x != 0 && seen[x] {
							t.Fatalf("%d players, round %d: %d plays twice", players, r, x)
						}
						seen[x] = true
					}
					if p.Black == 0 {
						byes[p.White]++
						continue
					}
					met[[2]int{p.White, p.Black}]++
					colours[p.White] = append(colours[p.White], 1)
					colours[p.Black] = append(colours[p.Black], -1)
				}
				if len(seen)-players%2 != players {
					t.Fatalf("%d players, round %d: %d players paired", players, r, len(seen)-players%2)
				}
			}
			for a := 1; a <= players; a++ {
				for b := a + 1; b <= players; b++ {
					ab, ba := met[[2]int{a, b}], met[[2]int{b, a}]
					if !double && ab+ba != 1 || double && (ab != 1 || ba != 1) {
						t.Errorf("%d players (double %v): %d-%d %d times, %d-%d %d times", players, double, a, b, ab, b, a, ba)
					}
				}
			}
			if double && players >= 4 {
				for p, cs := range colours {
					if players%2 == 1 {
						continue // byes break the runs
					}
					for i := 2; i < len(cs); i++ {
						if cs[i] == cs[i-1] && cs[i] == cs[i-2] {
							t.Errorf("%d players, double: %d has the same colour in rounds %d to %d", players, p, i-1, i+1)
						}
					}
				}
			}
		}
	}
}

func TestBergerRefuses(t *testing.T) {
	for _, c := range []struct{ players, round int }{{2, 1}, {17, 1}, {6, 0}, {6, 6}, {5, 6}} {
		if _, err := Berger(c.players, c.round, false); err == nil {
			t.Errorf("Berger(%d, %d) = no error", c.players, c.round)
		}
	}
	if _, err := Berger(6, 10, true); err != nil {
		t.Errorf("Berger(6, 10, double): %v", err)
	}
}
