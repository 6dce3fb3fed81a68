package game

import (
	"fmt"
	"strconv"
	"time"

	"emergo/rules"
)

// Control is a player's time control: a Fischer clock (Time, with
// Increment added after every move), a fixed time for every move
// (MoveTime), or a correspondence control of so many days for every move
// (Days). The zero Control is no clock: the player never loses on time.
type Control struct {
	Time, Increment time.Duration
	MoveTime        time.Duration
	// Days is a correspondence control: each move is due within Days
	// days (of 24 hours) of the start of its turn, the first move's
	// included. Time does not carry over from one turn to the next, as
	// with a time per move. It takes precedence over the other fields.
	Days int
}

// Day is the day of a correspondence control.
const Day = 24 * time.Hour

// CorrespondenceDays are the days per move a correspondence game may
// have, as on the correspondence sites: DaysPerMove accepts these.
var CorrespondenceDays = [...]int{1, 2, 3, 7, 14}

// DaysPerMove returns the correspondence control of days per move, which
// must be one of CorrespondenceDays.
func DaysPerMove(days int) (Control, error) {
	for _, d := range CorrespondenceDays {
		if d == days {
			return Control{Days: days}, nil
		}
	}
	return Control{}, fmt.Errorf("game: %d days per move is not one of %v", days, CorrespondenceDays)
}

// None reports whether c sets no limit.
func (c Control) None() bool { return c.Days <= 0 && c.MoveTime <= 0 && c.Time <= 0 }

// Correspondence reports whether c is a correspondence control (Days).
func (c Control) Correspondence() bool { return c.Days > 0 }

// perMove returns the time c gives every move anew, if it does: its days
// or its time per move.
func (c Control) perMove() (time.Duration, bool) {
	switch {
	case c.Days > 0:
		return time.Duration(c.Days) * Day, true
	case c.MoveTime > 0:
		return c.MoveTime, true
	}
	return 0, false
}

// String returns c as "10s+100ms", "100ms/move", "3 days/move" or "none".
func (c Control) String() string {
	switch {
	case c.Days == 1:
		return "1 day/move"
	case c.Days > 0:
		return strconv.Itoa(c.Days) + " days/move"
	case c.MoveTime > 0:
		return c.MoveTime.String() + "/move"
	case c.Time > 0:
		return c.Time.String() + "+" + c.Increment.String()
	}
	return "none"
}

// initial returns the time on the clock before the first move, and after
// every move with a time per move.
func (c Control) initial() time.Duration {
	if d, ok := c.perMove(); ok {
		return d
	}
	return max(c.Time, 0)
}

// ClockStart says from when a player's clock runs.
type ClockStart uint8

const (
	// ClockAtStart runs the clock of the player to move from Start on,
	// the first move's included.
	ClockAtStart ClockStart = iota
	// ClockAfterFirstMove runs each player's clock from his second turn
	// on: his first move is free, so nobody loses time to an opponent
	// who never turns up. A correspondence control runs from the first
	// turn all the same: its days are the time to answer at all, and a
	// game whose first move never comes must still end.
	ClockAfterFirstMove
)

// clock is the Fischer clock of both players. It holds each side's time
// at the start of the current turn, and charges the side to move for the
// time since then only when it is read, so it needs no ticking: now is
// always the caller's.
type clock struct {
	control [2]Control
	grace   time.Duration
	policy  ClockStart
	left    [2]time.Duration // each side's time when the turn began
	since   time.Time        // when the current turn began
	on      bool             // started and not paused
}

func newClock(control [2]Control, grace time.Duration, policy ClockStart, now time.Time) clock {
	c := clock{control: control, grace: grace, policy: policy, since: now}
	for i := range control {
		c.left[i] = control[i].initial()
	}
	return c
}

// charge sets the side's time to what it has at now and starts the turn
// anew at now, so that the next reading charges from then. A turn whose
// start is still to come (Postpone) has cost nothing yet: it gives no
// time either.
func (c *clock) charge(side rules.Color, runs bool, now time.Time) {
	if runs {
		c.left[side] -= max(now.Sub(c.since), 0)
	}
	c.since = now
}

// reading returns side's time at now; runs says whether its clock runs.
func (c *clock) reading(side rules.Color, runs bool, now time.Time) time.Duration {
	if runs {
		return c.left[side] - now.Sub(c.since)
	}
	return c.left[side]
}

// out reports whether a reading has run out: below zero by the grace.
func (c *clock) out(left time.Duration) bool { return left <= -c.grace }

// moved charges side for the move it made at now and gives it its time
// for the next turn: its increment, or its time (or days) per move anew. A clock
// that ran over by less than the grace stands at zero before the
// increment.
func (c *clock) moved(side rules.Color, runs bool, now time.Time) {
	c.charge(side, runs, now)
	ctl := c.control[side]
	if d, ok := ctl.perMove(); ok {
		c.left[side] = d
	} else if runs {
		c.left[side] = max(c.left[side], 0) + ctl.Increment
	}
}
