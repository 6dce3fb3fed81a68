package round

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/enginework"
	"emergo/game"
	"emergo/notation"
	"emergo/rules"
	"emergo/store/sqlstore"
)

// told is a Notifier that notes what it is told.
type told struct {
	mu    sync.Mutex
	heard []string
}

func (n *told) YourTurn(_ context.Context, game string, to, from int64) {
	n.note("yourTurn %s to %d from %d", game, to, from)
}

func (n *told) GameOver(_ context.Context, game string, players [2]int64) {
	n.note("gameOver %s %d %d", game, players[0], players[1])
}

func (n *told) note(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.heard = append(n.heard, fmt.Sprintf(format, args...))
}

// TestNotifierHearsCorrespondence: the Notifier is told of every move of
// a correspondence game, to the player to move next, and of its end, to
// both; a game with a clock tells it nothing, nor an aborted one.
func TestNotifierHearsCorrespondence(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := &told{}
	k, err := New(ctx, Config{Store: st, Work: enginework.New(enginework.NewMemory(), enginework.Config{}), Notifier: n,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	players := [2]Player{{Token: "w", User: 11}, {Token: "b", User: 12}}
	start := func(id string, c game.Control) {
		r := k.New(id, Friend, rules.GeometryOf(7), c)
		r.Seats = [2]Seat{{Name: "ann", Token: "w", User: 11}, {Name: "ben", Token: "b", User: 12}}
		r.Game.Start()
		if err := k.st.Create(ctx, r.Stored(r.Created)); err != nil {
			t.Fatal(err)
		}
	}
	play := func(id string, plies int) {
		for ply := range plies {
			v, err := k.Look(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			g := v.Round.Game.Rules()
			text := notation.FormatMove(g.Geometry(), g.Legal()[0])
			if _, err := k.Move(ctx, id, players[ply%2], ply, text); err != nil {
				t.Fatalf("move %d %s: %v", ply, text, err)
			}
		}
	}
	start("live", game.Control{Time: 600e9})
	play("live", 2)
	if _, err := k.Resign(ctx, "live", players[0]); err != nil {
		t.Fatal(err)
	}
	start("aborted", game.Control{Days: 3})
	if _, err := k.Abort(ctx, "aborted", players[0]); err != nil {
		t.Fatal(err)
	}
	start("corr", game.Control{Days: 3})
	play("corr", 3)
	if _, err := k.Resign(ctx, "corr", players[1]); err != nil {
		t.Fatal(err)
	}
	want := []string{"yourTurn corr to 12 from 11", "yourTurn corr to 11 from 12", "yourTurn corr to 12 from 11", "gameOver corr 11 12"}
	if diff := cmp.Diff(want, n.heard); diff != "" {
		t.Errorf("told (-want +got):\n%s", diff)
	}
}
