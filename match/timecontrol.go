package match

import (
	"strconv"
	"strings"
	"time"

	"emergo/game"
	"emergo/player"
	"emergo/rules"
)

// TimeControl is the time a player gets: a fixed time per move, or a
// clock with an increment added after every move (the game's clock keeps
// it). The zero TimeControl is no limit: the player thinks as long as its
// own settings say, and never loses on time. Its String is the syntax of
// ParseTimeControl.
type TimeControl = game.Control

// pgnTimeControl returns tc as the TimeControl tag of PGN writes it:
// seconds per move as "/N", a clock as "T+I" in seconds, "-" for none.
func pgnTimeControl(tc TimeControl) string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'g', -1, 64) }
	switch {
	case tc.MoveTime > 0:
		return "1/" + secs(tc.MoveTime)
	case tc.Time > 0:
		return secs(tc.Time) + "+" + secs(tc.Increment)
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
		return TimeControl{}, settingError("time control %q: %s (want none, 100ms/move or 10s+0.1s)", text, why)
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
		if tc.Increment, err = parseDuration(inc); err != nil || tc.Increment < 0 {
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

// clockOf returns what the player of side is told about the time.
func clockOf(g *game.Game, side rules.Color) player.Clock {
	if mt := g.Control(side).MoveTime; mt > 0 {
		return player.Clock{MoveTime: mt}
	}
	var pc player.Clock
	for c := rules.White; c <= rules.Black; c++ {
		if ctl := g.Control(c); ctl.Time > 0 {
			pc.Time[c], pc.Inc[c] = max(g.Left(c), 0), ctl.Increment
		}
	}
	return pc
}

// limit returns the time side may take for its move now, 0 for no limit.
func limit(g *game.Game, side rules.Color) time.Duration {
	if g.Control(side).None() {
		return 0
	}
	return max(g.Left(side), 0)
}
