package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"emergo/player"
	"emergo/rules"
)

// TimeControl is the time a player gets: a fixed time per move, or a clock
// with an increment added after every move. The zero TimeControl is no
// limit: the player thinks as long as its own settings say, and never
// loses on time.
type TimeControl struct {
	MoveTime  time.Duration
	Time, Inc time.Duration
}

// None reports whether tc sets no limit.
func (tc TimeControl) None() bool { return tc.MoveTime <= 0 && tc.Time <= 0 }

// String returns tc in the syntax of ParseTimeControl: "100ms/move",
// "10s+100ms" or "none".
func (tc TimeControl) String() string {
	switch {
	case tc.MoveTime > 0:
		return tc.MoveTime.String() + "/move"
	case tc.Time > 0:
		return tc.Time.String() + "+" + tc.Inc.String()
	}
	return "none"
}

// pgn returns tc as the TimeControl tag of PGN writes it: seconds per
// move as "/N", a clock as "T+I" in seconds, "-" for none.
func (tc TimeControl) pgn() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'g', -1, 64) }
	switch {
	case tc.MoveTime > 0:
		return "1/" + secs(tc.MoveTime)
	case tc.Time > 0:
		return secs(tc.Time) + "+" + secs(tc.Inc)
	}
	return "-"
}

// ParseTimeControl reads a time control: "none", a time per move
// ("100ms/move"), or a clock with an optional increment ("10s+0.1s",
// "1m+100ms", "5m"). Durations are Go durations; a bare number is in
// seconds.
func ParseTimeControl(text string) (TimeControl, error) {
	s := strings.TrimSpace(text)
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("match: time control %q: %s (want none, 100ms/move or 10s+0.1s)", text, why)
	}
	if s == "" || s == "none" {
		return TimeControl{}, nil
	}
	if mt, ok := strings.CutSuffix(s, "/move"); ok {
		d, err := parseDuration(mt)
		if err != nil || d <= 0 {
			return bad("the time per move must be a positive duration")
		}
		return TimeControl{MoveTime: d}, nil
	}
	base, inc, _ := strings.Cut(s, "+")
	t, err := parseDuration(base)
	if err != nil || t <= 0 {
		return bad("the time must be a positive duration")
	}
	tc := TimeControl{Time: t}
	if inc != "" {
		if tc.Inc, err = parseDuration(inc); err != nil || tc.Inc < 0 {
			return bad("the increment must be a duration of 0 or more")
		}
	}
	return tc, nil
}

// parseDuration accepts Go durations and bare seconds ("0.1").
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	return time.ParseDuration(s + "s")
}

// clocks are the time left of both colours during a game.
type clocks struct {
	tc   [2]TimeControl // by colour
	left [2]time.Duration
}

func newClocks(tc [2]TimeControl) *clocks {
	c := &clocks{tc: tc}
	for i := range tc {
		c.left[i] = tc[i].Time
	}
	return c
}

// clock returns what the player of side is told about the time.
func (c *clocks) clock(side rules.Color) player.Clock {
	if mt := c.tc[side].MoveTime; mt > 0 {
		return player.Clock{MoveTime: mt}
	}
	var pc player.Clock
	for i, tc := range c.tc {
		if tc.Time > 0 {
			pc.Time[i], pc.Inc[i] = c.left[i], tc.Inc
		}
	}
	return pc
}

// limit returns the time side may take for this move, 0 for no limit.
func (c *clocks) limit(side rules.Color) time.Duration {
	tc := c.tc[side]
	switch {
	case tc.MoveTime > 0:
		return tc.MoveTime
	case tc.Time > 0:
		return max(c.left[side], 0)
	}
	return 0
}

// spend charges side for a move that took el, and reports false if that
// loses on time: more than the limit plus grace. A clock that ran over by
// less than grace stands at zero before the increment.
func (c *clocks) spend(side rules.Color, el, grace time.Duration) bool {
	tc := c.tc[side]
	switch {
	case tc.MoveTime > 0:
		return el <= tc.MoveTime+grace
	case tc.Time > 0:
		c.left[side] -= el
		if c.left[side] < -grace {
			return false
		}
		c.left[side] = max(c.left[side], 0) + tc.Inc
	}
	return true
}
