package ratings_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"emergo/rating"
	"emergo/ratings"
	"emergo/store"
)

func TestSpeedOf(t *testing.T) {
	for _, c := range []struct {
		name    string
		initial time.Duration
		days    int
		want    ratings.Speed
		ok      bool
	}{
		{"a clock", 5 * time.Minute, 0, ratings.Live, true},
		{"days per move", 0, 3, ratings.Correspondence, true},
		{"neither", 0, 0, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ratings.SpeedOf(c.initial, c.days)
			if got != c.want || ok != c.ok {
				t.Errorf("SpeedOf(%v, %d) = %q, %v; want %q, %v", c.initial, c.days, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestParseSpeed(t *testing.T) {
	for _, s := range ratings.Speeds {
		if got, err := ratings.ParseSpeed(string(s)); got != s || err != nil {
			t.Errorf("ParseSpeed(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ratings.ParseSpeed("blitz"); err == nil || !strings.Contains(err.Error(), `"blitz"`) {
		t.Errorf("ParseSpeed(blitz): %v, want an error naming it", err)
	}
}

func TestOf(t *testing.T) {
	live9 := ratings.Pool{Size: 9, Speed: ratings.Live}
	r := rating.Rating{Rating: 1612, Deviation: 80, Volatility: 0.06, Games: 20}
	entries := []ratings.Entry{{Pool: live9, Rating: r}}
	if got := ratings.Of(entries, live9); got != r {
		t.Errorf("Of a pool played = %+v, want %+v", got, r)
	}
	if got := ratings.Of(entries, ratings.Pool{Size: 7, Speed: ratings.Live}); got != rating.Default() {
		t.Errorf("Of a pool not played = %+v, want the default", got)
	}
}

// recorder is a ratings.Store that records the Finish it is asked for.
type recorder struct {
	ratings.Store
	got *ratings.Game
}

func (r *recorder) Finish(_ context.Context, _ *store.Game, _ int, g ratings.Game) ([2]ratings.Change, error) {
	r.got = &g
	return [2]ratings.Change{}, nil
}

func TestFinishChecksTheGame(t *testing.T) {
	end := time.Date(2026, 12, 1, 20, 0, 0, 123456789, time.UTC)
	good := ratings.Game{ID: "g", Pool: ratings.Pool{Size: 9, Speed: ratings.Live}, Users: [2]int64{1, 2}, Score: 1, End: end}
	for _, c := range []struct {
		name   string
		change func(g *ratings.Game)
		err    string // "" for none
	}{
		{"a good game", func(*ratings.Game) {}, ""},
		{"a draw", func(g *ratings.Game) { g.Score = 0.5 }, ""},
		{"a guest", func(g *ratings.Game) { g.Users[1] = 0 }, "account on both seats"},
		{"one account on both seats", func(g *ratings.Game) { g.Users[1] = 1 }, "cannot play itself"},
		{"a score that is no result", func(g *ratings.Game) { g.Score = 0.75 }, "score 0.75"},
		{"no end", func(g *ratings.Game) { g.End = time.Time{} }, "no end time"},
		{"another game's rating", func(g *ratings.Game) { g.ID = "h" }, "rating of h"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := good
			c.change(&g)
			rec := &recorder{}
			_, err := ratings.Finish(context.Background(), rec, &store.Game{ID: "g"}, 0, g)
			if c.err == "" {
				if err != nil || rec.got == nil {
					t.Fatalf("Finish: %v, store asked: %v", err, rec.got != nil)
				}
				if want := end.Truncate(time.Millisecond); !rec.got.End.Equal(want) {
					t.Errorf("the store got the end %v, want it to the millisecond, %v", rec.got.End, want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) || rec.got != nil {
				t.Errorf("Finish: %v (store asked: %v), want an error saying %q", err, rec.got != nil, c.err)
			}
		})
	}
}

func TestGameUpdate(t *testing.T) {
	end := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	g := ratings.Game{Score: 0, End: end}
	w, b := g.Update(rating.Default(), rating.Default())
	ww, wb := rating.Update(rating.Default(), rating.Default(), 0, end)
	if w != ww || b != wb {
		t.Errorf("Update = %+v, %+v; want rating.Update's %+v, %+v", w, b, ww, wb)
	}
}
