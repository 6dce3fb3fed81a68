package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"emergo/account"
	"emergo/lobby"
	"emergo/ratings"
)

// Quick pairing (package lobby, "Quick pairing"): a player in a pool is
// a stream, GET /api/pools/{id}/seek, held open by his page while he
// waits. Each step of it (poolSeeker.step) looks whether his seek was
// taken, takes the closest seek within his window if there is one, and
// else holds a seek of his own; the stream says where he stands, and
// the game once he is paired. The stream's end withdraws his seek. The
// steps run when the lobby changes (here or, through the feed, on
// another server) and every poolTick, as the window widens.
const poolTick = time.Second

// poolJSON is a pool as GET /api/pools lists it.
type poolJSON struct {
	ID    string     `json:"id"`
	Size  int        `json:"size"`
	Clock *clockSecs `json:"clock"`
	Days  int        `json:"days"`
	Rated bool       `json:"rated"`
	// Seeking is how many players wait in it, as far as the open list
	// shows them.
	Seeking int `json:"seeking"`
}

// handlePools lists the pools, with how many players wait in each, and
// the viewer ("me", null for a guest, who may not join them).
func (s *Server) handlePools(r *request) (int, any, error) {
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	o, err := s.openChallenges(r.Context())
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	now := s.now()
	out := make([]poolJSON, len(lobby.Pools))
	for i, p := range lobby.Pools {
		out[i] = poolJSON{ID: p.ID, Size: p.Size, Days: p.Control.Days, Rated: true}
		if p.Control.Time > 0 {
			out[i].Clock = &clockSecs{p.Control.Time.Seconds(), p.Control.Increment.Seconds()}
		}
		out[i].Seeking = o.seeking(p, now)
	}
	return http.StatusOK, map[string]any{"pools": out, "me": me(r.user)}, nil
}

// poolStateJSON is where a player in a pool stands: "waiting" (with the
// window of ratings he is paired within), "paired" (with the game), or
// "refused" (with the error, as the API gives errors: the stream ends).
type poolStateJSON struct {
	Status  string     `json:"status"`
	Window  int        `json:"window,omitempty"`
	Seeking int        `json:"seeking"`
	Game    string     `json:"game,omitempty"`
	Error   *errorJSON `json:"error,omitempty"`
}

// poolSeeker is a player in a pool, as his stream holds him.
type poolSeeker struct {
	s    *Server
	pool lobby.Pool
	lobby.Seeker
	game    string     // once paired
	refused *errorJSON // once refused
}

// handlePoolSeek puts the viewer, logged in, in the pool of the path for
// as long as the stream lasts: Server-Sent Events "pool" with a
// poolStateJSON at once and at every change, the last one "paired" or
// "refused".
func (s *Server) handlePoolSeek(w http.ResponseWriter, r *http.Request) {
	if s.lobby == nil {
		writeError(w, errNoLobby)
		return
	}
	pool, ok := lobby.PoolByID(r.PathValue("id"))
	if !ok {
		writeError(w, failure(http.StatusNotFound, codeNoPool, "no such pool"))
		return
	}
	u := userOf(r.Context())
	if u == nil {
		writeError(w, s.lobbyError(lobby.ErrAccount))
		return
	}
	if err := lacksScope(r.Context(), account.ScopeChallengeWrite); err != nil {
		writeError(w, err) // a seek is a challenge
		return
	}
	if u.Bot {
		// The pools pair people, as lichess's do: bots take challenges.
		writeError(w, s.lobbyError(lobby.ErrForPeople))
		return
	}
	req := &request{Request: r, w: w, user: u}
	if err := s.takeChallengeRate(req); err != nil {
		writeError(w, err)
		return
	}
	done, ok := s.openStream(clientKey(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
		return
	}
	defer done()
	me := partyOf("", u)
	ps := &poolSeeker{s: s, pool: pool, Seeker: lobby.Seeker{Party: me, Since: s.now()}}
	if s.rated != nil {
		entries, err := s.rated.Ratings(r.Context(), u.ID)
		if err != nil {
			writeError(w, s.lobbyError(err))
			return
		}
		ps.Rating = poolRating(entries, pool, s.now())
	}
	wake := make(chan struct{}, 1)
	leave := s.hub.subscribe(wake)
	defer func() {
		leave()
		// The seek leaves with its player, whose page has gone.
		if ps.Seek != nil && ps.game == "" {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
			defer cancel()
			ps.withdraw(ctx)
		}
	}()
	s.stream(w, r, "pool", wake, poolTick, func() (any, bool) {
		return ps.step(r.Context()), true
	})
}

// poolRating is a player's rating in the ratings of pool's games, his
// entries being entries.
func poolRating(entries []ratings.Entry, pool lobby.Pool, now time.Time) float64 {
	speed, _ := ratings.SpeedOf(pool.Control.Time, pool.Control.Days)
	return ratings.Of(entries, ratings.Pool{Size: pool.Size, Speed: speed}).At(now).Rating
}

// step moves the player on in the pool and says where he stands. Once
// paired or refused, it says so again without doing anything.
func (ps *poolSeeker) step(ctx context.Context) poolStateJSON {
	s, now := ps.s, ps.s.now()
	if ps.game != "" {
		return poolStateJSON{Status: "paired", Game: ps.game}
	}
	if ps.refused != nil {
		return poolStateJSON{Status: "refused", Error: ps.refused}
	}
	if err := ps.stepErr(ctx, now); err != nil {
		if ctx.Err() != nil {
			return poolStateJSON{Status: "waiting"}
		}
		e := httpError(s.lobbyError(err))
		if e.code == codeStorage {
			// A failure of the store: the next step tries again.
			return poolStateJSON{Status: "waiting"}
		}
		ps.refused = &errorJSON{e.msg, e.code, e.params}
		return poolStateJSON{Status: "refused", Error: ps.refused}
	}
	if ps.game != "" {
		return poolStateJSON{Status: "paired", Game: ps.game}
	}
	st := poolStateJSON{Status: "waiting", Window: int(lobby.Window(now.Sub(ps.Since)))}
	if o, err := s.openChallenges(ctx); err == nil {
		st.Seeking = o.seeking(ps.pool, now)
	}
	return st
}

// seeking counts the seeks of pool pending at now in the open list o.
func (o *openList) seeking(pool lobby.Pool, now time.Time) int {
	n := 0
	for i := range o.list {
		if c := &o.list[i]; pool.Holds(c) && c.Live(now) {
			n++
		}
	}
	return n
}

// stepErr is step's work: it sets ps.game when the player is paired.
func (ps *poolSeeker) stepErr(ctx context.Context, now time.Time) error {
	s := ps.s
	if ps.Seek != nil {
		c, err := s.lobby.Challenge(ctx, ps.Seek.ID)
		if err != nil {
			return err
		}
		switch {
		case c.Status == lobby.Accepted:
			ps.game = c.Game
			return nil
		case !c.Live(now.Add(lobby.SeekLife / 4)):
			// Withdrawn, or about to expire: renewed below.
			if err := ps.withdraw(ctx); err != nil || ps.game != "" {
				return err
			}
		}
	}
	o, err := s.openChallenges(ctx)
	if err != nil {
		return err
	}
	rating := func(p lobby.Party) float64 { return poolRating(o.rates[p.User], ps.pool, now) }
	c, err := ps.closest(ctx, o.list, rating, now)
	if err != nil {
		return err
	}
	if c != nil {
		if err := ps.withdraw(ctx); err != nil || ps.game != "" {
			return err
		}
		id, err := s.acceptFor(ctx, ps.Party, c)
		if err == nil {
			ps.game = id
			s.log.Info("pool paired", "pool", ps.pool.ID, "game", id, "challenge", c.ID)
			return nil
		}
		if !errors.Is(err, lobby.ErrGone) {
			return err
		}
		// Taken or withdrawn meanwhile: wait with a seek of his own.
	}
	if ps.Seek != nil {
		return nil
	}
	seek, err := lobby.New(newID(), ps.Party, lobby.Party{}, ps.pool.Settings(), now)
	if err != nil {
		return err
	}
	seek.Expires = now.Add(lobby.SeekLife)
	if err := s.lobby.CreateChallenge(ctx, seek, s.cfg.ChallengeLimits); err != nil {
		return err
	}
	ps.Seek = seek
	s.lobbyChanged(seek)
	return nil
}

// closest is lobby.Seeker.Closest, passing over the seeks of players
// whom the player blocks or who block him: neither is paired with the
// other, as neither may challenge the other.
func (ps *poolSeeker) closest(ctx context.Context, seeks []lobby.Challenge, rating func(lobby.Party) float64, now time.Time) (*lobby.Challenge, error) {
	s := ps.s
	mine, err := s.blocked(ctx, ps.Party.User)
	if err != nil {
		return nil, err
	}
	var left []lobby.Challenge
	for i := range seeks {
		if mine == nil || !mine(seeks[i].From.User) {
			left = append(left, seeks[i])
		}
	}
	for {
		c := ps.Closest(ps.pool, left, rating, now)
		if c == nil {
			return nil, nil
		}
		theirs, err := s.blocked(ctx, c.From.User)
		if err != nil {
			return nil, err
		}
		if theirs == nil || !theirs(ps.Party.User) {
			return c, nil
		}
		left = slices.DeleteFunc(left, func(x lobby.Challenge) bool { return x.ID == c.ID })
	}
}

// withdraw withdraws the player's seek, if he holds one. A seek taken
// meanwhile pairs him: ps.game is its game.
func (ps *poolSeeker) withdraw(ctx context.Context) error {
	c := ps.Seek
	if c == nil {
		return nil
	}
	s := ps.s
	err := s.lobby.Answer(ctx, c.ID, lobby.Cancelled, s.now())
	if errors.Is(err, lobby.ErrGone) {
		now, err := s.lobby.Challenge(ctx, c.ID)
		if err != nil {
			return err
		}
		if now.Status == lobby.Accepted {
			ps.game = now.Game
			return nil
		}
	} else if err != nil {
		return err
	}
	ps.Seek = nil
	s.lobbyChanged(c)
	return nil
}
