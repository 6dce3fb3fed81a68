package storetest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/book"
	"emergo/explorer"
	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// ExplorerStore is a store of games that keeps the explorer's index of
// them too.
type ExplorerStore interface {
	store.Store
	explorer.Store
}

// ExplorerGames are games with known results, for the tests of the
// explorer's index: random legal games on both boards (of 8 to 50 plies,
// so that some go beyond explorer.MaxPly), two that reach one position by
// two orders of moves, one from a set-up position that comes back to it,
// an aborted game, one going on and an uploaded record.
func ExplorerGames() []*store.Game {
	rng := rand.New(rand.NewPCG(12, 1))
	results := []string{"1-0", "0-1", "1/2-1/2", "1-0"}
	var out []*store.Game
	game := func(id string, size int, start string, moves []string, mode, result string) {
		g := sample(id)
		g.Size, g.Start, g.Mode, g.Result, g.Invite = size, start, mode, result, ""
		g.Moves = nil
		for i, m := range moves {
			g.Moves = append(g.Moves, store.Move{Text: m, At: ms(int64(2000 + i))})
		}
		if result != "*" {
			g.Reason = "resignation"
		}
		out = append(out, g)
	}
	for i := range 24 {
		size := []int{9, 7}[i%2]
		gm := rules.NewGame(rules.GeometryOf(size))
		var moves []string
		for n := 8 + rng.IntN(43); len(moves) < n && !gm.Outcome().Over(); {
			legal := gm.Legal()
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, notation.FormatMove(gm.Geometry(), m))
			gm.Play(m)
		}
		mode := []string{"engine", "friend"}[i/2%2]
		game(fmt.Sprintf("r%02d", i), size, startText(size), moves, mode, results[i%len(results)])
	}
	game("t1", 9, startText(9), []string{"c3", "g7", "a1", "i9"}, "friend", "1-0")
	game("t2", 9, startText(9), []string{"a1", "g7", "c3", "i9"}, "engine", "0-1")
	game("rep", 9, "9x9 w 0/0 a1:W1 i9:B1", []string{"a1-b2", "i9-h8", "b2-a1", "h8-i9", "a1-b2"}, "friend", "1/2-1/2")
	game("aborted", 9, startText(9), []string{"c3"}, "friend", "*")
	out[len(out)-1].Reason = "aborted"
	game("ongoing", 9, startText(9), []string{"c3", "g7"}, "engine", "*")
	game("upload", 9, startText(9), []string{"c3", "g7", "e3"}, "analysis", "1-0")
	return out
}

func startText(size int) string {
	p := rules.NewPosition(rules.GeometryOf(size))
	return notation.FormatPosition(&p)
}

// NaiveExplorerMoves counts the moves played from the position text pos
// in games, as the explorer should: the games played on the site (modes
// engine and friend) with a result, each once, at its first visit of the
// position among its first explorer.MaxPly plies.
func NaiveExplorerMoves(t testing.TB, games []*store.Game, pos string) []book.Move {
	t.Helper()
	counts := map[string]*book.Move{}
	var order []string
	for _, g := range games {
		if g.Mode == "analysis" || g.Result == "*" {
			continue
		}
		p, err := notation.ParsePosition(g.Start)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range g.Moves {
			if i >= explorer.MaxPly {
				break
			}
			if notation.FormatPosition(&p) == pos {
				c := counts[m.Text]
				if c == nil {
					c = &book.Move{Text: m.Text}
					counts[m.Text] = c
					order = append(order, m.Text)
				}
				switch g.Result {
				case "1-0":
					c.White++
				case "0-1":
					c.Black++
				default:
					c.Draws++
				}
				break
			}
			mv, err := notation.ParseMove(&p, m.Text)
			if err != nil {
				t.Fatalf("game %s move %d: %v", g.ID, i+1, err)
			}
			p.Play(mv)
		}
	}
	out := make([]book.Move, 0, len(order))
	for _, m := range order {
		out = append(out, *counts[m])
	}
	book.SortMoves(out)
	return out
}

// Explorer runs the suite of an explorer.Store. open returns an empty
// store.
func Explorer(t *testing.T, open func(t *testing.T) ExplorerStore) {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	moves := func(t *testing.T, s ExplorerStore, pos string) []book.Move {
		t.Helper()
		p, err := notation.ParsePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := explorer.Moves(ctx, s, &p)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	t.Run("BackfillCountsTheGames", func(t *testing.T) {
		s := open(t)
		games := ExplorerGames()
		finished := 0
		for _, g := range games {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			if g.Result != "*" {
				finished++
			}
		}
		n, err := explorer.Backfill(ctx, s, s, quiet)
		if err != nil || n != finished {
			t.Fatalf("Backfill = %d, %v; want the %d finished games", n, err, finished)
		}
		if ids, err := s.Unindexed(ctx, 10); err != nil || len(ids) != 0 {
			t.Errorf("Unindexed after the backfill = %v, %v", ids, err)
		}
		if n, err := explorer.Backfill(ctx, s, s, quiet); err != nil || n != 0 {
			t.Errorf("a second Backfill = %d, %v; want 0", n, err)
		}
		positions := []string{startText(9), startText(7),
			"9x9 b 10/11 a1:W1 c3:W1 g7:B1", // the two orders of t1 and t2
			"9x9 w 0/0 a1:W1 i9:B1",         // rep: twice in its game, counted once
		}
		// And a position a few plies into every random game.
		for _, g := range games[:24] {
			p, _ := notation.ParsePosition(g.Start)
			gm := rules.NewGameFrom(p)
			if err := notation.PlayMoves(gm, movesText(g)[:3]); err != nil {
				t.Fatal(err)
			}
			q := gm.Position()
			positions = append(positions, notation.FormatPosition(&q))
		}
		for _, pos := range positions {
			want := NaiveExplorerMoves(t, games, pos)
			if len(want) == 0 {
				t.Fatalf("no game reaches %s", pos)
			}
			if diff := cmp.Diff(want, moves(t, s, pos)); diff != "" {
				t.Errorf("the moves from %s (-want +got):\n%s", pos, diff)
			}
		}
		start := moves(t, s, startText(9))
		total := 0
		for _, m := range start {
			total += m.Games()
		}
		// 12 random games, t1 and t2: not the aborted, the ongoing or the
		// uploaded game, nor rep, which starts elsewhere.
		if total != 14 {
			t.Errorf("%d games from the 9x9 start, want 14", total)
		}
	})
	t.Run("IndexedOnce", func(t *testing.T) {
		s := open(t)
		g := ExplorerGames()[24] // t1
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = explorer.Index(ctx, s, g)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := explorer.Index(ctx, s, g); err != nil {
			t.Fatal(err)
		}
		want := []book.Move{{Text: "c3", White: 1}}
		if diff := cmp.Diff(want, moves(t, s, startText(9))); diff != "" {
			t.Errorf("a game indexed five times (-want +got):\n%s", diff)
		}
		if n, err := explorer.Backfill(ctx, s, s, quiet); err != nil || n != 0 {
			t.Errorf("Backfill of an indexed game = %d, %v", n, err)
		}
	})
	t.Run("NothingForAnUnknownPosition", func(t *testing.T) {
		s := open(t)
		if got := moves(t, s, startText(7)); len(got) != 0 {
			t.Errorf("an empty index has %v", got)
		}
	})
}

func movesText(g *store.Game) []string {
	out := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		out[i] = m.Text
	}
	return out
}
