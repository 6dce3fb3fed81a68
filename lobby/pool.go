package lobby

import (
	"math"
	"time"

	"emergo/game"
)

// Quick pairing. A pool is a fixed kind of game (a board and a time
// control, rated) that players join to be paired at once with an
// opponent of a close rating, without choosing a challenge. A player in
// a pool holds one open challenge of the pool's settings, his seek, as
// any challenger does: it counts against his and the lobby's bounds,
// other servers on the store see it, and a player in the lobby may
// accept it as any other. Joining, a player takes the seek of the
// closest rating within his window; the window widens the longer either
// of the two has waited (Window). Of two players who both wait, only
// the one whose seek is the newer takes the other's (Acts), after
// withdrawing his own: a seek is accepted once (Store.Accept), and a
// player withdraws his before he accepts another, so nobody is ever
// paired twice.

// Pool is a kind of game players are paired for.
type Pool struct {
	ID      string // in addresses: "7x7-3+2"
	Size    int
	Control game.Control
}

// Pools are the site's pools: a fast 7x7 game, a 9x9 game, and a 9x9
// correspondence game, all rated.
var Pools = []Pool{
	{ID: "7x7-3+2", Size: 7, Control: game.Control{Time: 3 * time.Minute, Increment: 2 * time.Second}},
	{ID: "9x9-5+3", Size: 9, Control: game.Control{Time: 5 * time.Minute, Increment: 3 * time.Second}},
	{ID: "9x9-3d", Size: 9, Control: game.Control{Days: 3}},
}

// PoolByID returns the pool id, if there is one.
func PoolByID(id string) (Pool, bool) {
	for _, p := range Pools {
		if p.ID == id {
			return p, true
		}
	}
	return Pool{}, false
}

// Settings are the settings of a seek of the pool: rated, the colour
// tossed.
func (p Pool) Settings() Settings {
	return Settings{Size: p.Size, Control: p.Control, Rated: true, Color: Random}
}

// Holds reports whether c is a seek of the pool: an open challenge with
// its settings.
func (p Pool) Holds(c *Challenge) bool {
	return c.Open() && c.Settings == p.Settings() && c.Rematch == ""
}

// SeekLife is how long a seek stays pending: the player's page renews it
// while he waits, so that a seek whose player has gone (his server
// stopped before it could withdraw it) leaves the lobby soon.
const SeekLife = 2 * time.Minute

// The window of ratings a player is paired within: WindowStart at once,
// widening by WindowGrowth a second of waiting, so that two players
// alone in a pool meet within seconds whatever their ratings.
const (
	WindowStart  = 100
	WindowGrowth = 25
)

// Window is the largest rating difference accepted after waiting wait.
func Window(wait time.Duration) float64 {
	return WindowStart + WindowGrowth*max(wait, 0).Seconds()
}

// Seeker is a player in a pool: who, his rating in the pool's ratings,
// since when he waits, and his seek (nil while he holds none).
type Seeker struct {
	Party  Party
	Rating float64
	Since  time.Time
	Seek   *Challenge
}

// Closest returns the seek of seeks that s should take at now: of the
// pool, pending, another player's, whose rating (rating gives it by the
// challenger) lies within the window of the longer wait of the two, the
// closest; nil for none. Between two players who both hold seeks, only
// the newer seek's player takes the older (Acts).
func (s *Seeker) Closest(p Pool, seeks []Challenge, rating func(Party) float64, now time.Time) *Challenge {
	var best *Challenge
	bestDiff := math.Inf(1)
	for i := range seeks {
		c := &seeks[i]
		if !p.Holds(c) || !c.Live(now) || c.From.Is(s.Party) || !s.Acts(c) {
			continue
		}
		wait := max(now.Sub(s.Since), now.Sub(c.Created))
		diff := math.Abs(rating(c.From) - s.Rating)
		if diff <= Window(wait) && diff < bestDiff {
			best, bestDiff = c, diff
		}
	}
	return best
}

// Acts reports whether s takes the seek c, rather than waiting for its
// player to take s's: s holds no seek, or his is the newer (by ID when
// made at the same time).
func (s *Seeker) Acts(c *Challenge) bool {
	mine := s.Seek
	switch {
	case mine == nil:
		return true
	case !mine.Created.Equal(c.Created):
		return mine.Created.After(c.Created)
	}
	return mine.ID > c.ID
}
