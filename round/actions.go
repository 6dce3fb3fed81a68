package round

import (
	"context"
	"errors"
	"time"

	"emergo/enginework"
	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// The actions of the players. Each loads the game, locks it, checks who
// asks (his browser's token, or his account), and answers with the game
// as the action left it, or with the errors of the round or of the game
// package.

// decisions bounds the times an action is decided on a game that
// another process changes meanwhile.
const decisions = 3

// decide runs f on the locked live game id, and returns its view after.
// When f fails on a copy of the game that another process has changed
// meanwhile (a write's version conflict, or a refusal while the store
// has a newer version), f decides again on the game as it is now: no
// action is refused for this process's stale copy.
func (k *Keeper) decide(ctx context.Context, id string, f func(lv *Live) error) (View, error) {
	lv, err := k.Load(ctx, id)
	if err != nil {
		return View{}, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	for try := 1; ; try++ {
		err := f(lv)
		if err == nil {
			break
		}
		if try == decisions || !errors.Is(err, ErrChanged) && !k.refreshed(ctx, lv) {
			return View{}, err
		}
	}
	return lv.view(), nil
}

// flagIfOut ends the game on time if the flag of the side to move has
// fallen. It reports whether it did. lv is locked.
func (k *Keeper) flagIfOut(ctx context.Context, lv *Live) bool {
	deadline, ok := lv.r.Game.Deadline()
	if !ok {
		return false
	}
	if k.now().Before(deadline) {
		k.watchClock(lv)
		return false
	}
	if k.spare(ctx, lv, deadline) {
		return false
	}
	next := lv.r.Clone()
	if !next.Game.Flag() {
		return false
	}
	if err := k.commit(ctx, lv, next); err != nil {
		if !errors.Is(err, ErrChanged) { // else ended, or moved, by another process
			k.log.Error("flag", "game", next.ID, "err", err)
		}
		return false
	}
	return true
}

// play makes move m for by, with the clock, and commits it. lv is locked.
func (k *Keeper) play(ctx context.Context, lv *Live, by rules.Color, m rules.Move) error {
	next := lv.r.Clone()
	if err := next.Game.Play(by, m); err != nil {
		if errors.Is(err, game.ErrTimeOut) {
			k.flagIfOut(ctx, lv)
		}
		return err
	}
	if err := k.commit(ctx, lv, next); err != nil {
		return err
	}
	k.metrics.MovesAccepted.Add(1)
	return nil
}

// mySeat returns the seat of who in a game that goes on.
func mySeat(r *Round, who Player) (rules.Color, error) {
	c, ok := r.SeatOf(who)
	if !ok {
		return 0, ErrNotPlaying
	}
	if r.Game.Over() {
		return 0, &game.OverError{Ending: r.Game.Ending()}
	}
	return c, nil
}

// Join gives the open seat of the friend game id to me, if invite is the
// hash of the game's invitation (or it has none). The clock starts when
// both players are there. Joining again is harmless.
func (k *Keeper) Join(ctx context.Context, id string, me Seat, invite string) (View, error) {
	return k.decide(ctx, id, func(lv *Live) error {
		r := lv.r
		if _, ok := r.SeatOf(Player{Token: me.Token, User: me.User}); ok {
			return nil // already seated
		}
		if r.Game.Over() {
			return &game.OverError{Ending: r.Game.Ending()}
		}
		free := -1
		for c := range r.Seats {
			if !r.Seats[c].Joined() {
				free = c
				break
			}
		}
		if free < 0 || r.Mode != Friend {
			return ErrSeatsTaken
		}
		if r.Invite != "" && !r.invited(invite) {
			return ErrInvited
		}
		next := r.Clone()
		next.Seats[free] = me
		next.Invite = "" // taken
		next.Game.Start()
		return k.commit(ctx, lv, next)
	})
}

// Move plays the move text for who, who has seen ply moves.
func (k *Keeper) Move(ctx context.Context, id string, who Player, ply int, text string) (View, error) {
	k.awaitPly(ctx, id, ply)
	return k.decide(ctx, id, func(lv *Live) error {
		me, err := mySeat(lv.r, who)
		if err != nil {
			return err
		}
		if k.flagIfOut(ctx, lv) {
			return game.ErrTimeOut
		}
		r := lv.r
		switch {
		case ply != r.Game.Len():
			return ErrStale
		case r.Game.Side() != me:
			return game.ErrNotYourTurn
		case !r.Seats[me.Other()].Joined():
			return ErrAbsent
		}
		p := r.Game.Rules().Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			return err
		}
		return k.play(ctx, lv, me, m)
	})
}

// awaitPly waits, without holding the game, until the game id held here
// has ply moves, for at most Config.FeedWait: a player who has seen his
// opponent's move made on another instance may answer it before the
// feed has brought it here. Reading the game back instead, under its
// lock, made each such move three queries, and under load, when the feed
// lags, a third of the moves such: the load grew with its own delay.
func (k *Keeper) awaitPly(ctx context.Context, id string, ply int) {
	if k.cfg.Feed == nil {
		return
	}
	lv, err := k.Load(ctx, id)
	if err != nil {
		return // decide says why
	}
	wake := make(chan struct{}, 1)
	defer lv.Subscribe(wake)() // before the look, so no change is missed
	lv.mu.Lock()
	done := lv.r.Game.Len() >= ply || lv.r.Game.Over()
	lv.mu.Unlock()
	if done {
		return
	}
	k.metrics.FeedWaits.Add(1)
	timeout := time.NewTimer(k.cfg.FeedWait)
	defer timeout.Stop()
	for {
		select {
		case <-wake:
			lv.mu.Lock()
			done := lv.r.Game.Len() >= ply || lv.r.Game.Over()
			lv.mu.Unlock()
			if done {
				return
			}
		case <-timeout.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// act runs an action of who's seat, in a game that goes on, on a clone
// of the round, and commits the clone. lv is locked.
func (k *Keeper) act(ctx context.Context, lv *Live, who Player, f func(me rules.Color, next *Round) error) error {
	me, err := mySeat(lv.r, who)
	if err != nil {
		return err
	}
	next := lv.r.Clone()
	if err := f(me, next); err != nil {
		return err
	}
	return k.commit(ctx, lv, next)
}

// Resign ends the game id with who's loss.
func (k *Keeper) Resign(ctx context.Context, id string, who Player) (View, error) {
	return k.decide(ctx, id, func(lv *Live) error {
		return k.act(ctx, lv, who, func(me rules.Color, next *Round) error { return next.Game.Resign(me) })
	})
}

// Abort calls the game id off for who, without a result, while one
// player at least has not moved yet (game.ErrTooLate after that).
func (k *Keeper) Abort(ctx context.Context, id string, who Player) (View, error) {
	return k.decide(ctx, id, func(lv *Live) error {
		return k.act(ctx, lv, who, func(_ rules.Color, next *Round) error { return next.Game.Abort() })
	})
}

// Answer is what a player does with an offer: make it (offer a draw, ask
// for a take-back), accept or decline the opponent's.
type Answer uint8

const (
	Propose Answer = iota
	Accept
	Decline
)

// DrawOffer is a draw offered to the engine, for the engine to weigh:
// the game's version when it was made, who made it, the board then, and
// the job of the search that weighs it (but for its task).
type DrawOffer struct {
	version int64
	By      rules.Color
	Board   *rules.Game
	Job     enginework.Job
}

// Draw carries out who's draw action a in the game id. A draw offered to
// the engine is weighed by weigh, which may wait (a search on the queue
// of engine work): the game is locked to see the offer, and again to
// make it with the engine's answer if the game has not changed
// meanwhile, and not while weigh waits, so that the game's viewers and
// players are answered meanwhile.
func (k *Keeper) Draw(ctx context.Context, id string, who Player, a Answer, weigh func(context.Context, *DrawOffer) bool) (View, error) {
	var offer *DrawOffer
	v, err := k.decide(ctx, id, func(lv *Live) (err error) {
		if a == Propose {
			if offer, err = k.offerToEngine(ctx, lv, who); err != nil || offer != nil {
				return err
			}
		}
		return k.draw(ctx, lv, who, a)
	})
	if err != nil || offer == nil {
		return v, err
	}
	accepts := weigh(ctx, offer)
	return k.decide(ctx, id, func(lv *Live) error { return k.answerDraw(ctx, lv, who, offer, accepts) })
}

// draw carries out who's draw action in a game between people. lv is
// locked.
func (k *Keeper) draw(ctx context.Context, lv *Live, who Player, a Answer) error {
	return k.act(ctx, lv, who, func(me rules.Color, next *Round) error {
		g := next.Game
		switch a {
		case Accept:
			return g.AcceptDraw(me)
		case Decline:
			return g.DeclineDraw(me)
		}
		return g.OfferDraw(me)
	})
}

// offerToEngine returns who's draw offer in lv's game (locked) for the
// engine to weigh, if the engine is the opponent; nil and no error if a
// person is (draw makes the offer). An offer that the game refuses
// returns its error; one that takes up an offer of the engine's ends the
// game here.
func (k *Keeper) offerToEngine(ctx context.Context, lv *Live, who Player) (*DrawOffer, error) {
	me, err := mySeat(lv.r, who)
	if err != nil {
		return nil, err
	}
	r := lv.r
	if !r.Seats[me.Other()].Engine {
		return nil, nil
	}
	next := r.Clone()
	if err := next.Game.OfferDraw(me); err != nil {
		return nil, err
	}
	if next.Game.Over() {
		return nil, k.commit(ctx, lv, next)
	}
	return &DrawOffer{
		version: r.Version, By: me, Board: r.Game.Rules().Clone(),
		Job: enginework.Job{Kind: enginework.Answer, Game: r.ID, Client: r.Client, Account: r.Person().User},
	}, nil
}

// answerDraw makes the draw offer o, which the engine accepts or not, in
// lv's game (locked), if it is still at o's version: the answer to
// another position is dropped (ErrChanged).
func (k *Keeper) answerDraw(ctx context.Context, lv *Live, who Player, o *DrawOffer, accepts bool) error {
	if lv.r.Version != o.version {
		return ErrChanged
	}
	return k.act(ctx, lv, who, func(me rules.Color, next *Round) error {
		if me != o.By {
			return ErrChanged
		}
		g := next.Game
		if err := g.OfferDraw(me); err != nil || g.Over() {
			return err
		}
		if !accepts {
			return ErrDeclined
		}
		return g.AcceptDraw(me.Other())
	})
}

// TakeBack carries out who's take-back action a in the game id. The
// engine grants every take-back at once.
func (k *Keeper) TakeBack(ctx context.Context, id string, who Player, a Answer) (View, error) {
	return k.decide(ctx, id, func(lv *Live) error {
		return k.act(ctx, lv, who, func(me rules.Color, next *Round) error {
			g := next.Game
			switch {
			case a == Accept:
				return g.AcceptTakeBack(me)
			case a == Decline:
				return g.DeclineTakeBack(me)
			case next.Seats[me.Other()].Engine:
				return g.TakeBack(me)
			}
			return g.RequestTakeBack(me)
		})
	})
}
