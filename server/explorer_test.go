package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/book"
	"emergo/notation"
	"emergo/rules"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/store/storetest"
)

// explorerAnswer is the part of GET /api/explorer the tests read.
type explorerAnswer struct {
	Size     int      `json:"size"`
	Moves    []string `json:"moves"`
	Position string   `json:"position"`
	Turn     string   `json:"turn"`
	Legal    []string `json:"legal"`
	LastMove *string  `json:"lastMove"`
	Book     *struct {
		Games int         `json:"games"`
		Score int32       `json:"score"`
		Best  string      `json:"best"`
		Depth int         `json:"depth"`
		Moves []moveCount `json:"moves"`
	} `json:"book"`
	Site *struct {
		Games int         `json:"games"`
		Moves []moveCount `json:"moves"`
	} `json:"site"`
	Code string `json:"code"`
}

type moveCount struct {
	Move  string `json:"move"`
	Games int    `json:"games"`
	White int    `json:"white"`
	Draws int    `json:"draws"`
	Black int    `json:"black"`
	Score *int32 `json:"score"`
}

// explore asks the explorer for the query q.
func (c *client) explore(t *testing.T, q url.Values) (int, explorerAnswer) {
	t.Helper()
	code, _, body := c.do("GET", "/api/explorer?"+q.Encode(), nil)
	var a explorerAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("explorer %s: %v: %s", q.Encode(), err, body)
	}
	return code, a
}

// counts are the site's moves of an answer as book.Moves.
func (a explorerAnswer) counts() []book.Move {
	out := []book.Move{}
	if a.Site == nil {
		return out
	}
	for _, m := range a.Site.Moves {
		if m.Games != m.White+m.Draws+m.Black {
			return nil
		}
		out = append(out, book.Move{Text: m.Move, White: m.White, Draws: m.Draws, Black: m.Black})
	}
	return out
}

func orEmpty(ms []book.Move) []book.Move {
	if ms == nil {
		return []book.Move{}
	}
	return ms
}

// The games stored before the server started are indexed as it starts,
// and the explorer's counts are theirs, position by position.
func TestExplorerCountsTheStoredGames(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	explorerCountsTest(t, st)
}

func explorerCountsTest(t *testing.T, st store.Store) {
	games := storetest.ExplorerGames()
	for _, g := range games {
		if err := st.Create(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, server.Config{Store: st})
	c := e.client()
	for _, tt := range []struct {
		name  string
		q     url.Values
		moves []string // from the start, if q has no position
	}{
		{"9x9 start", url.Values{"size": {"9"}}, nil},
		{"7x7 start", url.Values{"size": {"7"}}, nil},
		{"a transposition", url.Values{"moves": {"c3,g7,a1"}}, []string{"c3", "g7", "a1"}},
		{"the other order", url.Values{"moves": {"a1,g7,c3"}}, []string{"a1", "g7", "c3"}},
		{"a set-up position", url.Values{"position": {"9x9 w 0/0 a1:W1 i9:B1"}}, nil},
		{"after a move of a random game", url.Values{"size": {"7"}, "moves": {games[1].Moves[0].Text}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, a := c.explore(t, tt.q)
			if code != http.StatusOK {
				t.Fatalf("status %d", code)
			}
			want := orEmpty(storetest.NaiveExplorerMoves(t, games, a.Position))
			if len(want) == 0 {
				t.Fatalf("no game reaches %s", a.Position)
			}
			if diff := cmp.Diff(want, a.counts()); diff != "" {
				t.Errorf("the site's moves from %s (-want +got):\n%s", a.Position, diff)
			}
			total := 0
			for _, m := range want {
				total += m.Games()
			}
			if a.Site.Games != total {
				t.Errorf("site games %d, want %d", a.Site.Games, total)
			}
		})
	}
}

// A game that ends is counted at once; an aborted one is not.
func TestExplorerCountsGamesAsTheyEnd(t *testing.T) {
	e := newEnv(t, server.Config{})
	start := func() []book.Move {
		_, a := e.client().explore(t, url.Values{"size": {"7"}})
		return a.counts()
	}
	if got := start(); len(got) != 0 {
		t.Fatalf("an empty site has %v", got)
	}
	id, a, b := friendGame(t, e, nil)
	for i, mv := range []string{"c3", "e5", "a1"} {
		p := []*client{a, b}[i%2]
		if code, st := p.move(id, mv, i); code != 200 {
			t.Fatalf("move %s: %d %s", mv, code, st.Error)
		}
	}
	if got := start(); len(got) != 0 {
		t.Fatalf("a game going on is counted: %v", got)
	}
	if code, _, body := b.do("POST", "/api/games/"+id+"/resign", nil); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	want := []book.Move{{Text: "c3", White: 1}}
	if diff := cmp.Diff(want, start()); diff != "" {
		t.Errorf("after Black resigned (-want +got):\n%s", diff)
	}
	_, after := e.client().explore(t, url.Values{"size": {"7"}, "moves": {"c3"}})
	if diff := cmp.Diff([]book.Move{{Text: "e5", White: 1}}, after.counts()); diff != "" {
		t.Errorf("after c3 (-want +got):\n%s", diff)
	}

	// Aborted: not counted.
	id2, a2, _ := friendGame(t, e, nil)
	if code, _ := a2.move(id2, "g1", 0); code != 200 {
		t.Fatal("move g1")
	}
	if code, _, body := a2.do("POST", "/api/games/"+id2+"/abort", nil); code != 200 {
		t.Fatalf("abort: %d %s", code, body)
	}
	if diff := cmp.Diff(want, start()); diff != "" {
		t.Errorf("after an aborted game (-want +got):\n%s", diff)
	}
}

// The book's moves come with their counts and the engine's evaluation of
// the position after each, for the side that plays it.
func TestExplorerBook(t *testing.T) {
	e := newEnv(t, server.Config{})
	c := e.client()
	for _, size := range []int{9, 7} {
		bk := book.Embedded(size)
		code, a := c.explore(t, url.Values{"size": {strconv.Itoa(size)}})
		if code != 200 || a.Book == nil {
			t.Fatalf("%dx%d start: %d, book %v", size, size, code, a.Book)
		}
		if a.Book.Games != bk.Config.Games || a.Book.Depth != bk.Config.Depth {
			t.Errorf("%dx%d: book games %d depth %d, want %d and %d", size, size, a.Book.Games, a.Book.Depth, bk.Config.Games, bk.Config.Depth)
		}
		first := a.Book.Moves[0]
		p := rules.NewPosition(rules.GeometryOf(size))
		m, err := notation.ParseMove(&p, first.Move)
		if err != nil {
			t.Fatal(err)
		}
		next := p.After(m)
		child, ok := bk.Lookup(&next)
		if !ok || first.Score == nil || *first.Score != -child.Score {
			t.Errorf("%dx%d: the score of %s is %v, want %d", size, size, first.Move, first.Score, -child.Score)
		}
		_, after := c.explore(t, url.Values{"size": {strconv.Itoa(size)}, "moves": {first.Move}})
		if after.Book == nil || after.Book.Games != first.Games || after.Book.Score != child.Score {
			t.Errorf("%dx%d after %s: book %+v, want %d games, score %d", size, size, first.Move, after.Book, first.Games, child.Score)
		}
		if after.LastMove == nil || *after.LastMove != first.Move || after.Turn != "black" || len(after.Legal) == 0 {
			t.Errorf("%dx%d after %s: last %v, turn %s, %d legal moves", size, size, first.Move, after.LastMove, after.Turn, len(after.Legal))
		}
	}
}

func TestExplorerBadRequests(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	for _, tt := range []struct {
		name string
		q    url.Values
		code string
	}{
		{"size", url.Values{"size": {"8"}}, "position.invalid"},
		{"not a number", url.Values{"size": {"nine"}}, "request.invalid"},
		{"illegal move", url.Values{"moves": {"c3,c3"}}, "move.occupied"},
		{"centre first", url.Values{"moves": {"e5"}}, "move.centre_first"},
		{"position", url.Values{"position": {"9x9 w"}}, "position.invalid"},
		{"a move after the end", url.Values{"position": {"9x9 b 0/0 a1:W1"}, "moves": {"a1-b2"}}, "game.over"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, a := c.explore(t, tt.q)
			if code != http.StatusBadRequest || a.Code != tt.code {
				t.Errorf("status %d code %q, want 400 %q", code, a.Code, tt.code)
			}
		})
	}
}
