package round

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"emergo/account"
	"emergo/enginework"
	"emergo/game"
	"emergo/rules"
	"emergo/store/sqlstore"
)

// vacations are the tests' accounts' vacations, set by hand.
type vacations struct {
	mu sync.Mutex
	of map[int64]account.Vacation
}

func (vs *vacations) Vacation(_ context.Context, user int64) (account.Vacation, error) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	return vs.of[user], nil
}

func (vs *vacations) set(user int64, v account.Vacation) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.of[user] = v
}

// vacationKeeper is a keeper on SQLite with the vacations it returns, on
// a clock that the tests move (by adding to the offset it returns).
func vacationKeeper(t *testing.T) (*Keeper, *vacations, *atomic.Int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	vs := &vacations{of: map[int64]account.Vacation{}}
	var ahead atomic.Int64
	k, err := New(ctx, Config{Store: st, Work: enginework.New(enginework.NewMemory(), enginework.Config{}), Vacations: vs,
		Now:    func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		k.Close()
		st.Close()
	})
	return k, vs, &ahead
}

// The players of the vacation tests' games: ann (11) White, ben (12) Black.
var ann, ben = Player{Token: "w", User: 11}, Player{Token: "b", User: 12}

// friendGame creates the game id of ann and ben with the control c, its
// clock started, and plays White's first move: Black's turn runs.
func friendGame(t *testing.T, k *Keeper, id string, c game.Control) {
	t.Helper()
	ctx := context.Background()
	r := k.New(id, Friend, rules.GeometryOf(7), c)
	r.Seats = [2]Seat{{Name: "ann", Token: ann.Token, User: ann.User}, {Name: "ben", Token: ben.Token, User: ben.User}}
	r.Game.Start()
	if err := k.st.Create(ctx, r.Stored(r.Created)); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Move(ctx, id, ann, 0, "a1"); err != nil {
		t.Fatal(err)
	}
}

// deadlineOf returns the deadline of game id, failing if none runs.
func deadlineOf(t *testing.T, k *Keeper, id string) time.Time {
	t.Helper()
	v, err := k.Look(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := v.Round.Game.Deadline()
	if !ok {
		t.Fatalf("no deadline runs in %s: %v", id, v.Round.Game.Ending())
	}
	return d
}

// endingOf returns how game id ended, as the store keeps it.
func endingOf(t *testing.T, k *Keeper, id string) string {
	t.Helper()
	g, err := k.st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g.Result + " " + g.Reason
}

// A correspondence player on vacation does not lose on time while it
// runs, though the deadline sweep looks: his turn is postponed by the
// vacation, and his deadline after it is as far from its end as it was
// from its start. After it the deadline counts again. His opponent is
// told, and the game shows until when he is away.
func TestVacationPostponesTheDeadline(t *testing.T) {
	k, vs, ahead := vacationKeeper(t)
	ctx := context.Background()
	friendGame(t, k, "corr", game.Control{Days: 3})
	before := deadlineOf(t, k, "corr")
	ahead.Add(int64(game.Day))
	start := k.now().Truncate(time.Millisecond)
	v := account.Vacation{Start: start, Until: start.Add(10 * game.Day), Year: start.Year(), Used: 10}
	vs.set(ben.User, v)
	opponents, err := k.Away(ctx, ben.User, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(opponents) != 1 || opponents[ann.User] != "corr" {
		t.Errorf("the opponents told: %v, want ann's game corr", opponents)
	}
	if got, want := deadlineOf(t, k, "corr"), before.Add(10*game.Day); !got.Equal(want) {
		t.Errorf("the deadline on vacation is %v, want %v", got, want)
	}
	if lv, _ := k.Look(ctx, "corr"); !lv.Away[rules.Black].Equal(v.Until) || !lv.Away[rules.White].IsZero() {
		t.Errorf("the game shows the vacations %v, want Black's until %v", lv.Away, v.Until)
	}
	// The old deadline passes during the vacation, and its end: the
	// sweep ends nothing until the postponed deadline.
	for _, at := range []time.Duration{3 * game.Day, 11 * game.Day, 13*game.Day - time.Minute} {
		ahead.Store(int64(at))
		k.SweepDeadlines()
		if got := endingOf(t, k, "corr"); got != "* " {
			t.Fatalf("%v after the game's start, on vacation or just after: %s", at, got)
		}
	}
	ahead.Store(int64(13*game.Day + time.Minute))
	k.SweepDeadlines()
	if got := endingOf(t, k, "corr"); got != "1-0 time forfeit" {
		t.Errorf("after the postponed deadline: %s, want 1-0 time forfeit", got)
	}
}

// A turn that begins during the vacation (the opponent moves) begins at
// its end: its player has his days per move from then.
func TestVacationPostponesATurnBegunDuringIt(t *testing.T) {
	k, vs, ahead := vacationKeeper(t)
	ctx := context.Background()
	friendGame(t, k, "corr", game.Control{Days: 3})
	start := k.now().Truncate(time.Millisecond)
	v := account.Vacation{Start: start, Until: start.Add(5 * game.Day), Year: start.Year(), Used: 5}
	vs.set(ann.User, v)
	if _, err := k.Away(ctx, ann.User, v); err != nil {
		t.Fatal(err)
	}
	ahead.Add(int64(game.Day))
	if _, err := k.Move(ctx, "corr", ben, 1, "g7"); err != nil {
		t.Fatal(err)
	}
	if got, want := deadlineOf(t, k, "corr"), v.Until.Add(3*game.Day); !got.Equal(want) {
		t.Errorf("White's deadline is %v, want %v: three days from the vacation's end", got, want)
	}
}

// A vacation ended early takes back what it did not use: the deadline is
// the old one postponed by the days taken.
func TestVacationEndedEarly(t *testing.T) {
	k, vs, ahead := vacationKeeper(t)
	ctx := context.Background()
	friendGame(t, k, "corr", game.Control{Days: 3})
	before := deadlineOf(t, k, "corr")
	// The vacation begins after the turn, not in its millisecond: a
	// turn begun at its start is one begun during it.
	ahead.Add(int64(time.Minute))
	start := k.now().Truncate(time.Millisecond)
	v := account.Vacation{Start: start, Until: start.Add(10 * game.Day), Year: start.Year(), Used: 10}
	vs.set(ben.User, v)
	if _, err := k.Away(ctx, ben.User, v); err != nil {
		t.Fatal(err)
	}
	ahead.Add(int64(2 * game.Day))
	end := k.now().Truncate(time.Millisecond)
	vs.set(ben.User, account.Vacation{Start: start, Until: end, Year: v.Year, Used: 2})
	if err := k.Back(ctx, ben.User, v, end); err != nil {
		t.Fatal(err)
	}
	if got, want := deadlineOf(t, k, "corr"), before.Add(end.Sub(start)); !got.Equal(want) {
		t.Errorf("the deadline after the vacation ended early is %v, want %v", got, want)
	}
	if lv, _ := k.Look(ctx, "corr"); !lv.Away[rules.Black].IsZero() {
		t.Errorf("the game shows Black away until %v after his return", lv.Away[rules.Black])
	}
}

// A turn that the vacation did not postpone (its server stopped before)
// is postponed when its deadline passes during it, not lost; a game on a
// clock is lost on time all the same.
func TestVacationSparesAMissedTurn(t *testing.T) {
	k, vs, ahead := vacationKeeper(t)
	friendGame(t, k, "corr", game.Control{Days: 1})
	friendGame(t, k, "live", game.Control{Time: time.Minute})
	if _, err := k.Move(context.Background(), "live", ben, 1, "g7"); err != nil {
		t.Fatal(err)
	}
	start := k.now().Truncate(time.Millisecond)
	for _, p := range []Player{ann, ben} {
		vs.set(p.User, account.Vacation{Start: start, Until: start.Add(7 * game.Day), Year: start.Year(), Used: 7})
	}
	ahead.Store(int64(2 * game.Day))
	k.SweepDeadlines()
	if got := endingOf(t, k, "corr"); got != "* " {
		t.Errorf("the correspondence game on vacation: %s, want it going on", got)
	}
	if got, want := deadlineOf(t, k, "corr"), start.Add(7*game.Day+game.Day); got.Before(want.Add(-time.Second)) || got.After(want) {
		t.Errorf("the spared deadline is %v, want about %v", got, want)
	}
	if got := endingOf(t, k, "live"); got != "0-1 time forfeit" {
		t.Errorf("the game on a clock: %s, want 0-1 time forfeit", got)
	}
}

// A vacation postpones the turn the store says runs, not the one a
// stale copy held in memory shows: here the keeper that starts it holds
// the game from before White's move, made by another keeper of the same
// store whose change it has not heard.
func TestVacationPostponesTheStoredTurn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	vs := &vacations{of: map[int64]account.Vacation{}}
	var keepers [2]*Keeper
	var ahead atomic.Int64
	for i := range keepers {
		st, err := sqlstore.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		k, err := New(ctx, Config{Store: st, Vacations: vs, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			k.Close()
			st.Close()
		})
		keepers[i] = k
	}
	held, other := keepers[0], keepers[1]
	r := held.New("corr", Friend, rules.GeometryOf(7), game.Control{Days: 3})
	r.Seats = [2]Seat{{Name: "ann", Token: ann.Token, User: ann.User}, {Name: "ben", Token: ben.Token, User: ben.User}}
	r.Game.Start()
	if err := held.st.Create(ctx, r.Stored(r.Created)); err != nil {
		t.Fatal(err)
	}
	if _, err := held.Begin(ctx, "corr"); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Move(ctx, "corr", ann, 0, "a1"); err != nil {
		t.Fatal(err)
	}
	before := deadlineOf(t, other, "corr")
	ahead.Add(int64(time.Minute)) // after the turn's millisecond
	start := held.now().Truncate(time.Millisecond)
	v := account.Vacation{Start: start, Until: start.Add(5 * game.Day), Year: start.Year(), Used: 5}
	vs.set(ben.User, v)
	if _, err := held.Away(ctx, ben.User, v); err != nil {
		t.Fatal(err)
	}
	g, err := held.st.Get(ctx, "corr")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := held.Of(g)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := stored.Game.Deadline()
	if want := before.Add(5 * game.Day); !ok || got.Sub(want).Abs() > time.Second {
		t.Errorf("Black's stored deadline %v (%v), want %v: the turn postponed by the vacation", got, ok, want)
	}
}
