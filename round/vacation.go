package round

import (
	"context"
	"errors"
	"time"

	"emergo/account"
	"emergo/store"
)

// A correspondence player on vacation (package account) does not lose on
// time meanwhile: the turns of his that run are postponed, each by the
// part of the vacation it overlaps, so that his deadline is as far from
// the vacation's end as it was from its start (from the turn's start, for
// a turn begun during it). The game keeps the postponed deadline, which
// the store's sweep (Due) and every server read: nothing is to be done
// when a vacation runs out, and a restart forgets nothing. Postponed are
// the running turns when the vacation begins (Away), the turns begun
// during it (vacationTurn, at each change), and, should one have been
// missed (a server stopped halfway through Away), a turn whose deadline
// passes during it (spare). A vacation ended early takes back what it
// had not used (Back). Live games, on a clock, are not postponed.

// Vacations reads the accounts' vacations (account.VacationStore).
type Vacations interface {
	Vacation(ctx context.Context, user int64) (account.Vacation, error)
}

// vacationPage is how many of an account's games Away and Back read from
// the store at a time.
const vacationPage = 100

// vacation returns the vacation of the account user and whether it runs
// now; an account without one, or a keeper without Vacations, has none.
func (k *Keeper) vacation(ctx context.Context, user int64) (account.Vacation, bool, error) {
	if k.cfg.Vacations == nil || user == 0 {
		return account.Vacation{}, false, nil
	}
	v, err := k.cfg.Vacations.Vacation(ctx, user)
	if err != nil {
		return account.Vacation{}, false, err
	}
	return v, v.On(k.now()), nil
}

// postponement is how long the vacation v postpones a turn begun at
// start: the part of the vacation from the later of its start and the
// turn's.
func postponement(v account.Vacation, start time.Time) time.Duration {
	if start.Before(v.Start) {
		start = v.Start
	}
	return max(v.Until.Sub(start), 0)
}

// awayOf returns until when the accounts of r's seats are on vacation,
// if r is a correspondence game that goes on; a failure to read is
// logged and shows none.
func (k *Keeper) awayOf(ctx context.Context, r *Round) [2]time.Time {
	var away [2]time.Time
	if r.Game.Over() || !r.Game.Control(r.Game.Side()).Correspondence() {
		return away
	}
	for c, seat := range r.Seats {
		v, on, err := k.vacation(ctx, seat.User)
		if err != nil {
			k.log.Error("vacation", "user", seat.User, "err", err)
		}
		if on {
			away[c] = v.Until
		}
	}
	return away
}

// vacationTurn postpones the turn that next begins (a move, a take-back,
// the start of the clock), about to be written over cur, if its player is
// on vacation. A change within a turn (an offer, a postponement) begins
// none.
func (k *Keeper) vacationTurn(ctx context.Context, cur, next *Round) {
	side, running := next.Game.Running()
	if !running || !next.Game.Control(side).Correspondence() {
		return
	}
	if _, ran := cur.Game.Running(); ran && cur.Game.Len() == next.Game.Len() {
		return
	}
	v, on, err := k.vacation(ctx, next.Seats[side].User)
	if err != nil {
		k.log.Error("vacation", "game", next.ID, "err", err)
	}
	if on {
		next.Game.Postpone(postponement(v, next.Game.TurnStart()))
	}
}

// spare postpones the turn of lv's game (locked), whose deadline has
// passed, instead of its ending on time, if its player is on vacation and
// his time had not run out when it began: a turn the vacation should
// have postponed. It reports whether the game is spared; a failure to
// read the vacation spares it until the next sweep.
func (k *Keeper) spare(ctx context.Context, lv *Live, deadline time.Time) bool {
	r := lv.r
	side, running := r.Game.Running()
	if !running || !r.Game.Control(side).Correspondence() {
		return false
	}
	v, on, err := k.vacation(ctx, r.Seats[side].User)
	if err != nil {
		k.log.Error("vacation", "game", r.ID, "err", err)
		return true
	}
	if !on || !deadline.After(v.Start) {
		return false
	}
	next := r.Clone()
	next.Game.Postpone(postponement(v, r.Game.TurnStart()))
	if err := k.commit(ctx, lv, next); err != nil && !errors.Is(err, ErrChanged) {
		k.log.Error("postpone a turn on vacation", "game", r.ID, "err", err)
	}
	return true
}

// Away postpones the running turns of the account user in his
// correspondence games for his vacation v, just begun, and shows it to
// their viewers. It returns his opponents in them who have accounts,
// each once, with a game of theirs: the server tells them. A game that
// fails is logged and left: its deadline, should it pass during the
// vacation, is postponed then (spare).
func (k *Keeper) Away(ctx context.Context, user int64, v account.Vacation) (map[int64]string, error) {
	return k.eachCorrespondence(ctx, user, func(lv *Live) error {
		r := lv.r
		side, running := r.Game.Running()
		if !running || r.Seats[side].User != user || r.Game.TurnStart().After(v.Start) {
			return nil
		}
		next := r.Clone()
		next.Game.Postpone(postponement(v, r.Game.TurnStart()))
		return k.commit(ctx, lv, next)
	})
}

// Back takes back, from the running turns of the account user, the part
// of his vacation v that he did not use: he ended it at end, before
// v.Until. Only a turn whose deadline is after v.Until was postponed.
func (k *Keeper) Back(ctx context.Context, user int64, v account.Vacation, end time.Time) error {
	_, err := k.eachCorrespondence(ctx, user, func(lv *Live) error {
		r := lv.r
		side, running := r.Game.Running()
		deadline, _ := r.Game.Deadline()
		if !running || r.Seats[side].User != user || !deadline.After(v.Until) {
			return nil
		}
		next := r.Clone()
		next.Game.Postpone(-v.Until.Sub(end))
		return k.commit(ctx, lv, next)
	})
	return err
}

// eachCorrespondence runs f on each correspondence game that goes on of
// the account user, locked (decide), after it has read his vacation
// again and woken the viewers: a change of f's writes the game, and
// every server hears of it. It returns the opponents with accounts and
// a game with each.
func (k *Keeper) eachCorrespondence(ctx context.Context, user int64, f func(lv *Live) error) (map[int64]string, error) {
	opponents := map[int64]string{}
	q := store.PlayerQuery{User: user, Outcome: store.Playing, Limit: vacationPage}
	for {
		page, err := k.st.PlayerGames(ctx, q)
		if err != nil {
			return opponents, err
		}
		for _, s := range page {
			if s.Days == 0 {
				continue
			}
			for c, u := range s.Users {
				if u != user && u != 0 && s.Users[1-c] == user {
					if _, ok := opponents[u]; !ok {
						opponents[u] = s.ID
					}
				}
			}
			_, err := k.decide(ctx, s.ID, func(lv *Live) error {
				// The copy held here may lag behind the store (a move
				// made on another server, its change not heard yet):
				// the turn that runs is the stored game's.
				k.refreshed(ctx, lv)
				lv.away = k.awayOf(ctx, lv.r)
				lv.wake()
				return f(lv)
			})
			if err != nil && ctx.Err() == nil {
				k.log.Error("vacation", "game", s.ID, "user", user, "err", err)
			}
		}
		if len(page) < q.Limit {
			return opponents, ctx.Err()
		}
		q.Before = page[len(page)-1].Cursor()
	}
}
