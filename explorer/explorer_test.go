package explorer_test

import (
	"strconv"
	"strings"
	"testing"

	"emergo/book"
	"emergo/explorer"
	"emergo/notation"
	"emergo/store"
	"emergo/store/storetest"
)

func TestCounts(t *testing.T) {
	for _, c := range []struct {
		mode, result string
		want         bool
	}{
		{"engine", "1-0", true},
		{"friend", "0-1", true},
		{"friend", "1/2-1/2", true},
		{"friend", "*", false},     // going on, or aborted
		{"analysis", "1-0", false}, // an uploaded record
	} {
		t.Run(c.mode+" "+c.result, func(t *testing.T) {
			if got := explorer.Counts(&store.Game{Mode: c.mode, Result: c.result}); got != c.want {
				t.Errorf("Counts = %v, want %v", got, c.want)
			}
		})
	}
}

func TestEntries(t *testing.T) {
	byID := map[string]*store.Game{}
	for _, g := range storetest.ExplorerGames() {
		byID[g.ID] = g
	}
	for _, c := range []struct {
		name, game string
		want       []string // ply, move and position of each entry
	}{
		{"a game", "t1", []string{
			"0 c3 9x9 w 12/12 -",
			"1 g7 9x9 b 11/12 c3:W1",
			"2 a1 9x9 w 11/11 c3:W1 g7:B1",
			"3 i9 9x9 b 10/11 a1:W1 c3:W1 g7:B1",
		}},
		{"a position met again counts once", "rep", []string{
			"0 a1-b2 9x9 w 0/0 a1:W1 i9:B1",
			"1 i9-h8 9x9 b 0/0 b2:W1 i9:B1",
			"2 b2-a1 9x9 w 0/0 b2:W1 h8:B1",
			"3 h8-i9 9x9 b 0/0 a1:W1 h8:B1",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			es, err := explorer.Entries(byID[c.game])
			if err != nil {
				t.Fatal(err)
			}
			keys := map[uint64]string{}
			for _, w := range c.want {
				f := strings.SplitN(w, " ", 3)
				p, err := notation.ParsePosition(f[2])
				if err != nil {
					t.Fatal(err)
				}
				keys[book.Key(&p)] = f[2]
			}
			var got []string
			for _, e := range es {
				got = append(got, strings.Join([]string{strconv.Itoa(e.Ply), e.Move, keys[e.Key]}, " "))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	// A long game is indexed to MaxPly.
	for _, g := range storetest.ExplorerGames() {
		if len(g.Moves) > explorer.MaxPly {
			es, err := explorer.Entries(g)
			if err != nil {
				t.Fatal(err)
			}
			if last := es[len(es)-1].Ply; last != explorer.MaxPly-1 {
				t.Errorf("game %s of %d plies: the last entry is at ply %d, want %d", g.ID, len(g.Moves), last, explorer.MaxPly-1)
			}
			return
		}
	}
	t.Error("no game is longer than MaxPly")
}

func TestEntriesOfABrokenGame(t *testing.T) {
	g := &store.Game{ID: "x", Size: 9, Start: "9x9 w 12/12 -", Moves: []store.Move{{Text: "c3"}, {Text: "c3"}}}
	_, err := explorer.Entries(g)
	if err == nil || !strings.HasPrefix(err.Error(), `explorer: game x: move 2 "c3": `) {
		t.Errorf("Entries = %v", err)
	}
}
