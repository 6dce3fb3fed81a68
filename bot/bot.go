package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"emergo/match"
	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// Engine is an engine process that plays one game: match.External is one.
type Engine interface {
	NewGame()
	Move(ctx context.Context, g *rules.Game, c player.Clock) (rules.Move, error)
	Close() error
}

// ShellEngine returns a Config.Engine that starts command with the shell
// (sh -c), an engine of the protocol (docs/protocol.md), whose standard
// error goes to stderr. The process is killed when the context ends.
func ShellEngine(command string, stderr io.Writer) func(context.Context) (Engine, error) {
	return func(ctx context.Context) (Engine, error) {
		return match.StartExternal(ctx, "/bin/sh", []string{"-c", command}, match.ExternalOptions{Stderr: stderr})
	}
}

// What a bot does with the games under way when it is asked to stop.
const (
	Finish = "finish" // play them to their end
	Resign = "resign" // resign them
)

// Config configures Run.
type Config struct {
	Client *Client
	// Engine starts an engine process for a game: each game has its own.
	Engine func(ctx context.Context) (Engine, error)
	// Accept says which challenges to accept; the others are declined.
	// Nil accepts every challenge.
	Accept func(Challenge) bool
	// Send, if not nil, is the challenge the bot sends, again and again,
	// until it has played Games games; then Run returns. Without it the
	// bot accepts challenges until it is stopped.
	Send  *Offer
	Games int
	// Concurrency is the games played at once, default 1: a challenge
	// beyond it is declined.
	Concurrency int
	// OnStop is Finish (the default) or Resign.
	OnStop string
	// Stop, once closed, stops the bot: it takes no more games, finishes
	// or resigns those under way (OnStop), and Run returns.
	Stop <-chan struct{}
	// Backoff is the first wait before connecting again to a site that
	// dropped a stream or does not answer, doubled at each failure up to
	// MaxBackoff; default a second and 30 seconds.
	Backoff, MaxBackoff time.Duration
	// MoveTime is what the engine thinks a move in a correspondence game,
	// default 10 s.
	MoveTime time.Duration
	Logger   *slog.Logger // default slog.Default()
}

// runner is a running bot.
type runner struct {
	cfg  Config
	c    *Client
	log  *slog.Logger
	name string // the bot's account

	mu       sync.Mutex
	playing  map[string]bool // the games under way
	pending  int             // challenges sent and not answered
	finished int             // games over
	stopping bool
	failed   error // why the bot gave up, if it did
	changed  chan struct{}
	wg       sync.WaitGroup
	done     context.CancelFunc // ends the event stream
}

// Run runs a bot until it is stopped (Config.Stop), it has played its
// Games (with Send), a refusal of the site says it cannot go on, or ctx
// ends. A dropped stream, a site that does not answer and a restarted
// site are waited for, with backoff.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.OnStop == "" {
		cfg.OnStop = Finish
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.MaxBackoff < cfg.Backoff {
		cfg.MaxBackoff = max(cfg.Backoff, 30*time.Second)
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &runner{cfg: cfg, c: cfg.Client, log: cfg.Logger, playing: map[string]bool{}, changed: make(chan struct{}, 1)}
	var me *Account
	err := r.retry(ctx, "connect", func() (err error) {
		me, err = r.c.Me(ctx)
		return err
	})
	if err != nil {
		return err
	}
	if !me.Bot {
		return fmt.Errorf("bot: %s is not a bot account: upgrade it first (POST /api/bot/account/upgrade, emergo bot -upgrade)", me.Name)
	}
	r.name = me.Name
	r.log.Info("connected", "account", me.Name, "site", r.c.URL)
	evctx, done := context.WithCancel(ctx)
	r.done = done
	defer done()
	go r.watchStop(evctx)
	if cfg.Send != nil {
		r.wg.Add(1)
		go r.challenger(evctx)
	}
	err = r.retry(evctx, "event stream", func() error {
		return r.c.Events(evctx, func(e Event) error { return r.event(evctx, e) })
	})
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.failed != nil:
		return r.failed
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return nil // done: stopped, or every game played
	}
	return err
}

// retry runs f until it succeeds, returns a refusal that retrying cannot
// help, or ctx ends; after each other failure (the site unreachable, a
// stream dropped) it waits, twice as long each time up to MaxBackoff. A
// stream that ran and then dropped starts the waits over.
func (r *runner) retry(ctx context.Context, what string, f func() error) error {
	wait := r.cfg.Backoff
	for {
		start := time.Now()
		err := f()
		var ae *APIError
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &ae) && ae.Final():
			return err
		}
		if time.Since(start) > r.cfg.MaxBackoff {
			wait = r.cfg.Backoff
		}
		r.log.Warn(what+": retrying", "err", err, "in", wait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		wait = min(2*wait, r.cfg.MaxBackoff)
	}
}

// signal tells the waiting parts of the runner that its state changed.
func (r *runner) signal() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// watchStop stops the bot when Config.Stop closes.
func (r *runner) watchStop(ctx context.Context) {
	select {
	case <-r.cfg.Stop:
	case <-ctx.Done():
		return
	}
	r.mu.Lock()
	r.stopping = true
	var games []string
	for id := range r.playing {
		games = append(games, id)
	}
	r.mu.Unlock()
	r.log.Info("stopping", "games", len(games), "onStop", r.cfg.OnStop)
	if r.cfg.OnStop == Resign {
		for _, id := range games {
			if err := r.c.Resign(ctx, id); err != nil {
				r.log.Warn("resign", "game", id, "err", err)
			}
		}
	}
	r.checkDone()
	r.signal()
}

// checkDone ends the run when the bot has nothing left to do: stopped,
// or its games played, with no game under way.
func (r *runner) checkDone() {
	r.mu.Lock()
	defer r.mu.Unlock()
	played := r.cfg.Send != nil && r.finished >= r.cfg.Games
	if len(r.playing) == 0 && (r.stopping || played || r.failed != nil) {
		r.done()
	}
}

// fail gives up the run with err once its games under way are over.
func (r *runner) fail(err error) {
	r.mu.Lock()
	if r.failed == nil {
		r.failed = err
	}
	r.stopping = true
	r.mu.Unlock()
	r.log.Error("giving up", "err", err)
	r.checkDone()
	r.signal()
}

// event takes in an event of the account's stream.
func (r *runner) event(ctx context.Context, e Event) error {
	switch {
	case e.Type == "challenge" && e.Challenge != nil && e.Challenge.ForYou:
		r.answer(ctx, e.Challenge)
	case e.Type == "challengeDeclined" && e.Challenge != nil && e.Challenge.Mine:
		r.mu.Lock()
		r.pending = max(0, r.pending-1)
		r.mu.Unlock()
		r.fail(fmt.Errorf("bot: %s declined the challenge", or(e.Challenge.To, "the opponent")))
	case e.Type == "gameStart" && e.Game != nil:
		r.play(ctx, e.Game)
	}
	return nil
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// answer accepts or declines a challenge made to the bot.
func (r *runner) answer(ctx context.Context, c *Challenge) {
	r.mu.Lock()
	busy := len(r.playing) >= r.cfg.Concurrency
	stopping := r.stopping
	r.mu.Unlock()
	why := ""
	switch {
	case stopping:
		why = "stopping"
	case r.cfg.Send != nil:
		why = "challenging, not accepting"
	case busy:
		why = "busy"
	case r.cfg.Accept != nil && !r.cfg.Accept(*c):
		why = "not a challenge it takes (-accept)"
	}
	if why != "" {
		r.log.Info("declining challenge", "id", c.ID, "from", c.From, "why", why)
		if err := r.c.Decline(ctx, c.ID); err != nil {
			r.log.Warn("decline", "id", c.ID, "err", err)
		}
		return
	}
	game, err := r.c.Accept(ctx, c.ID)
	if err != nil {
		r.log.Warn("accept", "id", c.ID, "err", err)
		return
	}
	r.log.Info("accepted challenge", "id", c.ID, "from", c.From, "game", game)
}

// challenger sends the challenge of Config.Send whenever the bot has
// room for a game and games left to play.
func (r *runner) challenger(ctx context.Context) {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		room := len(r.playing)+r.pending < r.cfg.Concurrency && r.finished+len(r.playing)+r.pending < r.cfg.Games
		stop := r.stopping
		r.mu.Unlock()
		if stop {
			return
		}
		if room {
			var id string
			err := r.retry(ctx, "challenge", func() (err error) {
				id, err = r.c.Challenge(ctx, *r.cfg.Send)
				return err
			})
			if err != nil {
				if ctx.Err() == nil {
					r.fail(err)
				}
				return
			}
			r.mu.Lock()
			r.pending++
			r.mu.Unlock()
			r.log.Info("challenge sent", "id", id, "to", r.cfg.Send.To)
			continue
		}
		select {
		case <-r.changed:
		case <-ctx.Done():
			return
		}
	}
}

// play starts playing the game g, unless it is under way already (a
// reconnected event stream tells of the games again).
func (r *runner) play(ctx context.Context, g *GameEvent) {
	r.mu.Lock()
	if r.playing[g.ID] {
		r.mu.Unlock()
		return
	}
	r.playing[g.ID] = true
	if r.cfg.Send != nil && r.pending > 0 {
		r.pending--
	}
	r.mu.Unlock()
	r.log.Info("game started", "game", g.ID, "color", g.Color, "size", g.Size, "rated", g.Rated)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		over := r.playGame(ctx, g.ID)
		r.mu.Lock()
		delete(r.playing, g.ID)
		if over {
			r.finished++
		}
		r.mu.Unlock()
		r.checkDone()
		r.signal()
	}()
}

// errOver ends the reading of a game's stream: the game is over.
var errOver = errors.New("bot: the game is over")

// playGame plays the game id to its end with an engine process of its
// own, reading the game's stream again after it drops. It reports
// whether the game ended.
func (r *runner) playGame(ctx context.Context, id string) bool {
	log := r.log.With("game", id)
	eng, err := r.cfg.Engine(ctx)
	if err != nil {
		log.Error("the engine does not start: resigning", "err", err)
		r.c.Resign(ctx, id)
		return false
	}
	defer eng.Close()
	eng.NewGame()
	p := &gamePlay{ctx: ctx, r: r, id: id, eng: eng, log: log, played: -1}
	err = r.retry(ctx, "game stream", func() error {
		err := r.c.Game(ctx, id, p.full, p.state)
		if errors.Is(err, errOver) || p.over {
			return nil
		}
		return err
	})
	if err != nil && ctx.Err() == nil {
		log.Error("the game cannot be played", "err", err)
	}
	return p.over
}

// gamePlay is a game as the bot plays it.
type gamePlay struct {
	ctx   context.Context
	r     *runner
	id    string
	eng   Engine
	log   *slog.Logger
	start rules.Position
	color rules.Color
	days  int
	// played is the number of moves of the game when the bot last moved,
	// -1 before, so that a state seen again does not move twice.
	played int
	over   bool
}

func (p *gamePlay) full(g GameFull) error {
	geo := rules.GeometryOf(g.Size)
	if geo == nil {
		return fmt.Errorf("bot: a board of %d", g.Size)
	}
	p.start = rules.NewPosition(geo)
	if g.InitialFen != "" && g.InitialFen != "startpos" {
		start, err := notation.ParsePosition(g.InitialFen)
		if err != nil {
			return fmt.Errorf("bot: the game's start: %w", err)
		}
		p.start = start
	}
	p.color = rules.Black
	if strings.EqualFold(g.White.Name, p.r.name) {
		p.color = rules.White
	}
	p.days = g.Days
	return p.state(g.State)
}

func (p *gamePlay) state(st GameState) error {
	ctx := p.ctx
	if st.Status != "started" {
		p.over = true
		p.log.Info("game over", "result", st.Result, "reason", st.Reason)
		return errOver
	}
	g := rules.NewGameFrom(p.start)
	moves := strings.Fields(st.Moves)
	if err := notation.PlayMoves(g, moves); err != nil {
		return fmt.Errorf("bot: the game's moves: %w", err)
	}
	pos := g.Position()
	if pos.Side() != p.color || len(moves) == p.played {
		return nil
	}
	p.r.mu.Lock()
	resign := p.r.stopping && p.r.cfg.OnStop == Resign
	p.r.mu.Unlock()
	if resign {
		return p.r.c.Resign(ctx, p.id)
	}
	clock := player.Clock{MoveTime: p.r.cfg.MoveTime}
	if p.days == 0 {
		ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
		clock = player.Clock{Time: [2]time.Duration{ms(st.WTime), ms(st.BTime)}, Inc: [2]time.Duration{ms(st.WInc), ms(st.BInc)}}
	}
	m, err := p.eng.Move(ctx, g, clock)
	if err != nil {
		p.log.Error("the engine fails: resigning", "err", err)
		p.r.c.Resign(ctx, p.id)
		return errOver
	}
	text := m.Text(g.Geometry())
	if err := p.r.c.Move(ctx, p.id, text); err != nil {
		var ae *APIError
		if errors.As(err, &ae) && ae.Final() {
			// The game moved on meanwhile (an offer, its end): the
			// next state says where it stands.
			p.log.Warn("move refused", "move", text, "err", err)
			return nil
		}
		return err
	}
	p.played = len(moves)
	p.log.Info("move", "ply", len(moves)+1, "move", text)
	return nil
}

// ParseAccept reads the challenges to accept: words separated by commas,
// each narrowing one thing, the challenge having to match one of the
// words given of each: a board ("9", "7"), "rated" or "casual", and a
// time control (a clock "M+S" in minutes and seconds as the lobby shows
// clocks, such as "1+1", "live" for any clock, "days" for any days per
// move). The empty text accepts every challenge.
func ParseAccept(text string) (func(Challenge) bool, error) {
	var sizes []int
	var rated []bool
	var clocks []string
	for w := range strings.SplitSeq(text, ",") {
		switch w = strings.TrimSpace(w); {
		case w == "":
		case w == "9" || w == "7":
			n, _ := strconv.Atoi(w)
			sizes = append(sizes, n)
		case w == "rated" || w == "casual":
			rated = append(rated, w == "rated")
		case w == "live" || w == "days":
			clocks = append(clocks, w)
		default:
			if _, err := ParseClock(w); err != nil {
				return nil, fmt.Errorf("bot: -accept %q: %q is no board (9, 7), rated, casual, live, days or clock (M+S)", text, w)
			}
			clocks = append(clocks, w)
		}
	}
	return func(c Challenge) bool {
		if len(sizes) > 0 && !slices.Contains(sizes, c.Size) || len(rated) > 0 && !slices.Contains(rated, c.Rated) {
			return false
		}
		if len(clocks) == 0 {
			return true
		}
		for _, w := range clocks {
			switch w {
			case "live":
				if c.Clock != nil {
					return true
				}
			case "days":
				if c.Days > 0 {
					return true
				}
			default:
				if k, _ := ParseClock(w); c.Clock != nil && *c.Clock == k {
					return true
				}
			}
		}
		return false
	}, nil
}

// ParseClock reads a clock as the lobby shows it, M+S: the minutes, and
// the seconds added per move ("1+1", "0.5+0").
func ParseClock(text string) (Clock, error) {
	m, s, ok := strings.Cut(text, "+")
	mins, err1 := strconv.ParseFloat(m, 64)
	secs, err2 := strconv.ParseFloat(s, 64)
	if !ok || err1 != nil || err2 != nil || mins <= 0 || secs < 0 {
		return Clock{}, fmt.Errorf("bot: clock %q: want minutes+seconds, such as 1+1", text)
	}
	return Clock{Initial: mins * 60, Increment: secs}, nil
}
