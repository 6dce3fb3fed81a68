package lobby

import (
	"testing"
	"time"
)

// TestClosestSeek: a player takes the seek of the closest rating within
// his window, which widens with the longer wait of the two; never his
// own, another pool's, an expired one, nor an older player's seek when
// his own is older still.
func TestClosestSeek(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := Pools[0]
	me := Party{User: 1, Name: "me"}
	seek := func(id string, user int64, created time.Time) Challenge {
		c, err := New(id, Party{User: user, Name: id}, Party{}, p.Settings(), created)
		if err != nil {
			t.Fatal(err)
		}
		c.Expires = created.Add(SeekLife)
		return *c
	}
	ratings := map[int64]float64{1: 1500, 2: 1750, 3: 1590, 4: 1460, 5: 1500}
	rating := func(q Party) float64 { return ratings[q.User] }
	other := seek("other-pool", 5, t0)
	other.Size = 9
	seeks := []Challenge{seek("far", 2, t0), seek("near", 3, t0), seek("nearer", 4, t0), other}
	s := &Seeker{Party: me, Rating: 1500, Since: t0}
	if c := s.Closest(p, seeks, rating, t0); c == nil || c.ID != "nearer" {
		t.Errorf("at once: %v, want nearer (40 points)", c)
	}
	// Only far remains: 250 points, within the window after 6 s of
	// waiting, not before.
	only := seeks[:1]
	if c := s.Closest(p, only, rating, t0.Add(5*time.Second)); c != nil {
		t.Errorf("after 5 s: %s, want none (window %v)", c.ID, Window(5*time.Second))
	}
	if c := s.Closest(p, only, rating, t0.Add(6*time.Second)); c == nil || c.ID != "far" {
		t.Errorf("after 6 s: %v, want far (window %v)", c, Window(6*time.Second))
	}
	// The other's wait counts too: a player just come takes a seek that
	// has waited 6 s.
	late := &Seeker{Party: me, Rating: 1500, Since: t0.Add(6 * time.Second)}
	if c := late.Closest(p, only, rating, t0.Add(6*time.Second)); c == nil {
		t.Errorf("a seek that waited 6 s is not taken by a player just come")
	}
	// Expired, or his own: not taken.
	if c := s.Closest(p, only, rating, t0.Add(SeekLife)); c != nil {
		t.Errorf("an expired seek taken")
	}
	own := []Challenge{seek("own", 1, t0)}
	if c := s.Closest(p, own, rating, t0); c != nil {
		t.Errorf("his own seek taken")
	}
	// Both waiting with seeks: the newer seek's player takes the older.
	mine := seek("mine", 1, t0.Add(time.Second))
	s.Seek = &mine
	if c := s.Closest(p, seeks[1:2], rating, t0.Add(time.Second)); c == nil || c.ID != "near" {
		t.Errorf("the newer seek's player does not take the older: %v", c)
	}
	older := seek("older", 1, t0.Add(-time.Second))
	s.Seek = &older
	if c := s.Closest(p, seeks[1:2], rating, t0.Add(time.Second)); c != nil {
		t.Errorf("the older seek's player takes the newer: %s", c.ID)
	}
}
