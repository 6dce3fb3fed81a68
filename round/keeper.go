package round

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"emergo/enginework"
	"emergo/explorer"
	"emergo/lobby"
	"emergo/ratings"
	"emergo/store"
)

// Work is what a round needs of the queue of engine work
// (enginework.Queue): to ask for the engine's moves, wait for them, and
// drop those nobody needs.
type Work interface {
	Submit(ctx context.Context, j *enginework.Job) error
	Wait(ctx context.Context, id int64) (*enginework.Job, error)
	Cancel(ctx context.Context, id int64) error
	CancelGame(ctx context.Context, game string) error
}

// Publisher announces the changes of this process to the others sharing
// its store (server.Feed).
type Publisher interface {
	Publish(ctx context.Context, c store.Change) error
}

// Notifier is told of the changes of a correspondence game that its
// players hear of away from the game's page (the server's
// notifications): a move after which an account is to play, and the end
// of the game. Each change is told once, by the process whose write of
// it the store took, right after the write.
type Notifier interface {
	// YourTurn tells the account to that it is to play in game, after a
	// move of from (0 for a guest).
	YourTurn(ctx context.Context, game string, to, from int64)
	// GameOver tells the players of game, White's account and Black's
	// (0 for a guest), that it is over.
	GameOver(ctx context.Context, game string, players [2]int64)
}

// Counter is a metric that counts (expvar.Int).
type Counter interface{ Add(int64) }

// Metrics are the counters a Keeper keeps for its process; a counter
// left nil counts nothing.
type Metrics struct {
	// MovesAccepted counts the moves played, EngineMoves the engine's
	// among them played by this process's workers (ApplyMove).
	MovesAccepted, EngineMoves Counter
	// StoreErrors counts the writes the store refused but for a
	// version conflict.
	StoreErrors Counter
	// IdleGamesEnded counts the engine games ended for want of their
	// person, InvitationsExpired the invitations aborted unanswered.
	IdleGamesEnded, InvitationsExpired Counter
	// FeedReloads counts the games read back from the store for a
	// change of another process's, FeedApplied the changes applied from
	// the feed without reading the store.
	FeedReloads, FeedApplied Counter
	// FeedWaits counts the moves that waited for the feed to bring the
	// change their player had seen (awaitPly).
	FeedWaits Counter
}

type nothing struct{}

func (nothing) Add(int64) {}

// orNothing returns c, or a counter of nothing.
func orNothing(c Counter) Counter {
	if c == nil {
		return nothing{}
	}
	return c
}

// Config configures a Keeper.
type Config struct {
	// Store keeps the games. Ratings keeps the ratings, Explorer the
	// opening explorer's index, Lobby the rematches, Uploads the
	// uploaded records: each nil if the store does not keep them (then
	// no game is rated, indexed, offered a rematch, or kept as an
	// upload).
	Store    store.Store
	Ratings  ratings.Store
	Explorer explorer.Store
	Lobby    lobby.Store
	Uploads  store.Uploads
	// Work is the queue of engine work; nil for a process that asks for
	// no engine moves (a worker, which plays them: ApplyStored).
	Work Work
	// Feed, if not nil, announces this process's changes to the others
	// on the store, under the name Origin.
	Feed   Publisher
	Origin string
	// Notifier, if not nil, is told of the turns and ends of the
	// correspondence games.
	Notifier Notifier
	// Vacations, if not nil, says which accounts are on vacation: their
	// correspondence deadlines do not run meanwhile (vacation.go).
	Vacations Vacations
	Logger    *slog.Logger
	// Now is the clock; default time.Now. Started is when this process
	// began to hold games: without a Feed, a turn that began before
	// counts from it (Of). Zero for a process that holds none.
	Now     func() time.Time
	Started time.Time
	Metrics Metrics
	// EvictAfter is how long a game nobody asks for stays in memory;
	// default 10 minutes.
	EvictAfter time.Duration
	// DeadlineSweep is how often the keeper asks the store for the
	// correspondence games whose deadline comes within as long; default
	// a minute. FlagSweep is how often, with a Feed, it asks for the
	// games whose clock has run out (default a second); FeedCheck how
	// often it compares the versions of the games it holds with the
	// store's (default 30 s).
	DeadlineSweep, FlagSweep, FeedCheck time.Duration
	// FeedWait is how long, with a Feed, a move waits for the change its
	// player has seen and this process has not heard of yet, before the
	// game is read from the store (awaitPly); default half a second.
	FeedWait time.Duration
	// Unstarted is how long an engine game may wait for both players'
	// first moves before it is aborted, Idle how long its person may
	// leave his turn in a game without a clock before he loses it as
	// abandoned, and IdleSweep how often the store is asked for such
	// games (ReapIdle); default 10 minutes, 30 minutes and a minute.
	Unstarted, Idle, IdleSweep time.Duration
	// InvitationExpiry is how long a friend game made by its link waits
	// for the friend before it is aborted (an invitation: WaitsForFriend),
	// CorrespondenceExpiry the same for a correspondence game; taken up
	// by the same sweep (ReapIdle). Default 24 hours and 7 days.
	InvitationExpiry, CorrespondenceExpiry time.Duration
	// OpenedEvery is how often at most an upload's opening is noted in
	// the store; default a day.
	OpenedEvery time.Duration
}

// Keeper holds the games of a process and makes every change of them.
// Create it with New; Close it to stop its background work.
type Keeper struct {
	cfg     Config
	st      store.Store
	log     *slog.Logger
	now     func() time.Time
	metrics Metrics
	ctx     context.Context
	cancel  context.CancelFunc
	bg      sync.WaitGroup

	out       outbox
	closeOnce sync.Once
	mu        sync.Mutex
	games     map[string]*Live
	// loading notes the games being read into memory (see hold).
	loading map[string]*loading
}

// New returns a keeper of cfg's games, holding none yet. Its background
// work runs until Close or the end of ctx.
func New(ctx context.Context, cfg Config) (*Keeper, error) {
	if cfg.Store == nil {
		return nil, errors.New("round: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.EvictAfter <= 0 {
		cfg.EvictAfter = 10 * time.Minute
	}
	if cfg.DeadlineSweep <= 0 {
		cfg.DeadlineSweep = time.Minute
	}
	if cfg.FlagSweep <= 0 {
		cfg.FlagSweep = time.Second
	}
	if cfg.FeedCheck <= 0 {
		cfg.FeedCheck = 30 * time.Second
	}
	if cfg.FeedWait <= 0 {
		cfg.FeedWait = 500 * time.Millisecond
	}
	if cfg.Unstarted <= 0 {
		cfg.Unstarted = 10 * time.Minute
	}
	if cfg.Idle <= 0 {
		cfg.Idle = 30 * time.Minute
	}
	if cfg.IdleSweep <= 0 {
		cfg.IdleSweep = time.Minute
	}
	if cfg.InvitationExpiry <= 0 {
		cfg.InvitationExpiry = 24 * time.Hour
	}
	if cfg.CorrespondenceExpiry <= 0 {
		cfg.CorrespondenceExpiry = 7 * 24 * time.Hour
	}
	if cfg.OpenedEvery <= 0 {
		cfg.OpenedEvery = 24 * time.Hour
	}
	m := &cfg.Metrics
	for _, c := range []*Counter{&m.MovesAccepted, &m.EngineMoves, &m.StoreErrors, &m.IdleGamesEnded, &m.InvitationsExpired, &m.FeedReloads, &m.FeedApplied, &m.FeedWaits} {
		*c = orNothing(*c)
	}
	k := &Keeper{cfg: cfg, st: cfg.Store, log: cfg.Logger, now: cfg.Now, metrics: cfg.Metrics,
		games: map[string]*Live{}, loading: map[string]*loading{}}
	k.ctx, k.cancel = context.WithCancel(ctx)
	k.out.wake, k.out.stop, k.out.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	if cfg.Feed != nil {
		go k.publishing()
	} else {
		close(k.out.done)
	}
	return k, nil
}

// Start runs the keeper's sweeps in the background: the games idle in
// memory dropped, the correspondence deadlines and the idle engine games
// taken up, and with a Feed the clocks run out and the versions checked
// (in case a change went unannounced: its process stopped between its
// write and its announcement).
func (k *Keeper) Start() {
	k.every(max(k.cfg.EvictAfter/4, 10*time.Millisecond), k.sweep)
	k.every(k.cfg.DeadlineSweep, k.SweepDeadlines)
	k.every(k.cfg.IdleSweep, k.ReapIdle)
	if k.cfg.Feed != nil {
		k.every(k.cfg.FeedCheck, k.refreshAll)
		k.every(k.cfg.FlagSweep, k.sweepFlags)
	}
}

// every runs f every interval in the background until Close.
func (k *Keeper) every(interval time.Duration, f func()) {
	k.bg.Add(1)
	go func() {
		defer k.bg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				f()
			case <-k.ctx.Done():
				return
			}
		}
	}()
}

// Close stops the background work (the sweeps, the clocks' timers, the
// waits for engine moves) and waits for it.
func (k *Keeper) Close() {
	k.cancel()
	k.mu.Lock()
	for _, lv := range k.games {
		lv.mu.Lock()
		if lv.timer != nil {
			lv.timer.Stop()
		}
		lv.mu.Unlock()
	}
	k.mu.Unlock()
	k.bg.Wait()
	k.closeOnce.Do(func() { close(k.out.stop) })
	<-k.out.done
}

// Publish announces c, a change of this process's, on the feed: it puts
// it in the outbox, which a goroutine of its own empties onto the feed
// in order, so that the request that made the change, holding its game,
// waits neither for the network nor for PostgreSQL's lock on its queue
// of notifications. A change the feed does not take (a failure, or an
// outbox full while the feed is down) is logged: the write is done, and
// the other processes learn of it by their periodic check
// (Config.FeedCheck) instead.
func (k *Keeper) Publish(c store.Change) {
	if k.cfg.Feed == nil {
		return
	}
	c.Origin = k.cfg.Origin
	o := &k.out
	o.mu.Lock()
	if i, ok := o.counts[c.SpectatorsGame]; ok && c.SpectatorsGame != "" {
		// A count is news only until the next: a crowd arriving on a
		// game announces it once a flush, not once a spectator.
		o.queue[i] = c
	} else if len(o.queue) < maxOutbox {
		if c.SpectatorsGame != "" {
			if o.counts == nil {
				o.counts = map[string]int{}
			}
			o.counts[c.SpectatorsGame] = len(o.queue)
		}
		o.queue = append(o.queue, c)
	} else {
		o.dropped++
	}
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default: // already woken
	}
}

// maxOutbox bounds the changes waiting to be announced.
const maxOutbox = 10000

// outbox holds the changes waiting to be announced (Publish), in their
// order, and how many it had no room for.
type outbox struct {
	mu      sync.Mutex
	queue   []store.Change
	dropped int
	// counts is where in queue each game's count of spectators waits:
	// a newer count takes its place.
	counts map[string]int
	wake   chan struct{}
	stop   chan struct{} // closed by Close, once nothing else publishes
	done   chan struct{} // closed when the last changes are out
}

// BatchPublisher is a Publisher that announces several changes at once,
// in their order (sqlstore's Feed: one statement).
type BatchPublisher interface {
	PublishAll(ctx context.Context, cs []store.Change) error
}

// publishing empties the outbox onto the feed until Close, and then
// once more: the changes made up to Close are announced still.
func (k *Keeper) publishing() {
	defer close(k.out.done)
	for {
		select {
		case <-k.out.wake:
			k.flush()
		case <-k.out.stop:
			k.flush()
			return
		}
	}
}

// flush announces the changes in the outbox.
func (k *Keeper) flush() {
	o := &k.out
	o.mu.Lock()
	batch, dropped := o.queue, o.dropped
	o.queue, o.dropped, o.counts = nil, 0, nil
	o.mu.Unlock()
	if dropped > 0 {
		k.log.Error("changes not announced: the outbox was full", "changes", dropped)
	}
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(k.ctx), 5*time.Second)
	defer cancel()
	if all, ok := k.cfg.Feed.(BatchPublisher); ok {
		if err := all.PublishAll(ctx, batch); err != nil {
			k.log.Error("publish changes", "changes", len(batch), "err", err)
		}
		return
	}
	for _, c := range batch {
		if err := k.cfg.Feed.Publish(ctx, c); err != nil {
			k.log.Error("publish a change", "game", c.Game, "lobby", c.Lobby, "err", err)
		}
	}
}

// Resume loads every live game in progress, so that engines whose turn
// it is move and clocks that run are watched again after a restart.
// Correspondence games stay in the store: the deadline sweep takes up
// each as its deadline comes near, and a request loads any. The engine
// games that waited on their person too long meanwhile are to be ended
// before (ReapIdle): neither loaded nor their engine's move asked.
func (k *Keeper) Resume(ctx context.Context) error {
	ids, err := k.st.Ongoing(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		lv, err := k.Load(ctx, id)
		if err != nil {
			k.log.Error("resume", "game", id, "err", err)
			continue
		}
		lv.mu.Lock()
		k.afterChange(lv)
		lv.mu.Unlock()
	}
	if len(ids) > 0 {
		k.log.Info("resumed games in progress", "games", len(ids))
	}
	return nil
}
