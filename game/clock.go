package game

import (
	"time"

	"emergo/rules"
)

// Control is a player's time control: a Fischer clock (Time, with
// Increment added after every move) or a fixed time for every move
// (MoveTime). The zero Control is no clock: the player never loses on
// time.
type Control struct {
	Time, Increment time.Duration
	MoveTime        time.Duration
}

// None reports whether c sets no limit.
func (c Control) None() bool { return c.MoveTime <= 0 && c.Time <= 0 }

// String returns c as "10s+100ms", "100ms/move" or "none".
func (c Control) String() string {
	switch {
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
	if c.MoveTime > 0 {
		return c.MoveTime
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
	// who never turns up.
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
// anew at now, so that the next reading charges from then.
func (c *clock) charge(side rules.Color, runs bool, now time.Time) {
	if runs {
		c.left[side] -= now.Sub(c.since)
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
// for the next turn: its increment, or its time per move anew. A clock
// that ran over by less than the grace stands at zero before the
// increment.
func (c *clock) moved(side rules.Color, runs bool, now time.Time) {
	c.charge(side, runs, now)
	ctl := c.control[side]
	switch {
	case ctl.MoveTime > 0:
		c.left[side] = ctl.MoveTime
	case runs:
		c.left[side] = max(c.left[side], 0) + ctl.Increment
	}
}
