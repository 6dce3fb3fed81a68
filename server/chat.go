package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"emergo/account"
	"emergo/chat"
	"emergo/round"
	"emergo/store"
	"emergo/throttle"
)

// The chat's bounds that are the server's (the store keeps the lines of
// a game within chat.KeepLines, and the blocks within chat.MaxBlocks).
var (
	// chatRate bounds the lines of one account (Config.ChatRate's
	// default): a burst of five, then one every two seconds.
	chatRate = throttle.Limit{Burst: 5, Every: 2 * time.Second}
	// chatSiteRate bounds the lines of the whole site: a hundred a
	// second, a burst of three hundred.
	chatSiteRate = throttle.Limit{Burst: 300, Every: 10 * time.Millisecond}
	// reportRate bounds the reports of one account: ten at once, then
	// one every six minutes.
	reportRate = throttle.Limit{Burst: 10, Every: 6 * time.Minute}
)

// chatQueue is how many lines wait for a slow viewer's stream: beyond,
// the newest are dropped for him (he reads them all again when his page
// opens the stream again).
const chatQueue = 64

// lineJSON is a chat line as the API says it (the event "chat").
type lineJSON struct {
	ID   int64     `json:"id"`
	User string    `json:"user"`
	Room chat.Room `json:"room"`
	Text string    `json:"text"`
	Time time.Time `json:"time"`
}

func lineOf(l *chat.Line) lineJSON {
	return lineJSON{ID: l.ID, User: l.Name, Room: l.Room, Text: l.Text, Time: l.Time}
}

// chatHub holds the chat's viewers of each game on this server: each
// has a queue of the lines written, which his stream filters (who he is,
// whom he blocks) as it writes them.
type chatHub struct {
	mu    sync.Mutex
	games map[string]map[chan chat.Line]struct{}
}

// join queues the lines of game on ch until the returned function is
// called.
func (h *chatHub) join(game string, ch chan chat.Line) (leave func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.games == nil {
		h.games = map[string]map[chan chat.Line]struct{}{}
	}
	subs := h.games[game]
	if subs == nil {
		subs = map[chan chat.Line]struct{}{}
		h.games[game] = subs
	}
	subs[ch] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(subs, ch)
		if len(subs) == 0 {
			delete(h.games, game)
		}
	}
}

// watched reports whether game has chat viewers on this server.
func (h *chatHub) watched(game string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.games[game]) > 0
}

// deliver queues l for the viewers of its game, without waiting: a full
// queue loses it.
func (h *chatHub) deliver(l chat.Line) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.games[l.Game] {
		select {
		case ch <- l:
		default:
		}
	}
}

// blockLists holds the blocks of the accounts that have a stream open on
// this server, so that a stream filters every line without asking the
// store, and a block reaches the streams already open at once: this
// server's own blocks change the list held, the other servers' come on
// the feed (store.Change.Blocks) and read it again.
type blockLists struct {
	mu    sync.Mutex
	users map[int64]*blockList
	// loading are the lists being read for a stream and not held yet,
	// each with the count of its readers and of the changes announced
	// meanwhile (gen), after which a reader reads it again.
	loading map[int64]*blockLoad
}

// blockLoad is a list being read (blockLists.loading).
type blockLoad struct{ readers, gen int }

// blockList is the accounts one account blocks.
type blockList struct {
	refs int // streams holding it, under blockLists.mu
	mu   sync.RWMutex
	ids  map[int64]bool
}

// has reports whether the list holds user.
func (b *blockList) has(user int64) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.ids[user]
}

// replace makes ids the list's.
func (b *blockList) replace(ids []int64) {
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	b.mu.Lock()
	b.ids = m
	b.mu.Unlock()
}

// hold returns the blocks of user, read from st unless a stream holds
// them already, and the function that lets them go. A change of them
// announced while they are read (changed) has them read again.
func (bl *blockLists) hold(ctx context.Context, st chat.Store, user int64) (*blockList, func(), error) {
	bl.mu.Lock()
	b := bl.users[user]
	if b == nil {
		if bl.loading == nil {
			bl.users, bl.loading = map[int64]*blockList{}, map[int64]*blockLoad{}
		}
		l := bl.loading[user]
		if l == nil {
			l = &blockLoad{}
			bl.loading[user] = l
		}
		l.readers++
		for b == nil {
			seen := l.gen
			bl.mu.Unlock()
			ids, err := st.Blocked(ctx, user)
			bl.mu.Lock()
			if err != nil {
				bl.doneLoading(user, l)
				bl.mu.Unlock()
				return nil, nil, err
			}
			if b = bl.users[user]; b == nil && l.gen == seen {
				b = &blockList{}
				b.replace(ids)
				bl.users[user] = b
			}
		}
		bl.doneLoading(user, l)
	}
	b.refs++
	bl.mu.Unlock()
	return b, func() {
		bl.mu.Lock()
		defer bl.mu.Unlock()
		if b.refs--; b.refs == 0 && bl.users[user] == b {
			delete(bl.users, user)
		}
	}, nil
}

// doneLoading notes that a reader of the list l of user is done. bl.mu is
// locked.
func (bl *blockLists) doneLoading(user int64, l *blockLoad) {
	if l.readers--; l.readers == 0 {
		delete(bl.loading, user)
	}
}

// held returns the blocks of user if a stream holds them, else nil.
func (bl *blockLists) held(user int64) *blockList {
	bl.mu.Lock()
	defer bl.mu.Unlock()
	return bl.users[user]
}

// changed returns the blocks of user, which just changed, if a stream
// holds them (for the caller to change them), else nil; a list being
// read meanwhile is read again.
func (bl *blockLists) changed(user int64) *blockList {
	bl.mu.Lock()
	defer bl.mu.Unlock()
	if l := bl.loading[user]; l != nil {
		l.gen++
	}
	return bl.users[user]
}

// set notes in the held list of user, if any, that he blocks whom (on)
// or no longer does.
func (bl *blockLists) set(user, whom int64, on bool) {
	b := bl.changed(user)
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := make(map[int64]bool, len(b.ids)+1)
	for id := range b.ids {
		m[id] = true
	}
	if on {
		m[whom] = true
	} else {
		delete(m, whom)
	}
	b.ids = m
}

// blocked returns whom user blocks: the list a stream holds, else the
// store's. A guest (0) blocks nobody.
func (s *Server) blocked(ctx context.Context, user int64) (func(int64) bool, error) {
	if user == 0 || s.chat == nil {
		return nil, nil
	}
	if b := s.blocks.held(user); b != nil {
		return b.has, nil
	}
	ids, err := s.chat.Blocked(ctx, user)
	if err != nil {
		return nil, err
	}
	fresh := &blockList{}
	fresh.replace(ids)
	return fresh.has, nil
}

// errNoChat answers when the store keeps no chat.
var errNoChat = failure(http.StatusNotImplemented, codeNoChat, "this server keeps no chat")

// chatError gives an error of the chat's store its answer: the store's
// failure is logged and said as one of storage.
func (s *Server) chatError(what string, err error) error {
	var long *chat.TooLongError
	var many *chat.TooManyBlocksError
	if errors.Is(err, chat.ErrReportsFull) || errors.As(err, &long) || errors.As(err, &many) {
		return err
	}
	s.metrics.storeErrors.Add(1)
	s.log.Error(what, "err", err)
	return errStorage
}

// chatReq is the body of a chat line.
type chatReq struct {
	Text string `json:"text"`
	Room string `json:"room"`
}

// handleChat is POST /api/games/{id}/chat: a line of the viewer's in a
// room of the game, stored and then brought to the viewers of the game
// on every server (201, the line).
func (s *Server) handleChat(r *request) (int, any, error) {
	if s.chat == nil {
		return 0, nil, errNoChat
	}
	var req chatReq
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	room, err := chat.ParseRoom(req.Room)
	if err != nil {
		return 0, nil, invalid("%s", strings.TrimPrefix(err.Error(), "chat: "))
	}
	if r.user == nil {
		return 0, nil, chat.ErrGuest
	}
	v, err := s.rounds.Look(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	_, player := v.Round.SeatOf(r.viewer().player())
	if err := (chat.Writer{User: r.user.ID, Player: player, Over: v.Round.Game.Over()}).CanWrite(room); err != nil {
		return 0, nil, err
	}
	text, err := chat.Clean(req.Text)
	if err != nil {
		return 0, nil, err
	}
	standing, err := s.chat.Standing(r.Context(), r.user.ID)
	if err != nil {
		return 0, nil, s.chatError("chat standing", err)
	}
	if err := s.takeChatRate(r); err != nil {
		return 0, nil, err
	}
	l := chat.Line{Game: v.Round.ID, Room: room, User: r.user.ID, Name: r.user.Name, Text: text, Time: s.now().UTC().Truncate(time.Millisecond), Muted: standing.Muted}
	if err := s.chat.AddLine(r.Context(), &l, chat.KeepLines); err != nil {
		return 0, nil, s.chatError("chat line", err)
	}
	s.chats.deliver(l)
	s.rounds.Publish(store.Change{Chat: l.ID, ChatGame: l.Game})
	return http.StatusCreated, lineOf(&l), nil
}

// takeChatRate counts a line of r's account against his bound and the
// site's, or refuses it: 429 chat.too_fast with the seconds to wait, or
// 503 chat.busy.
func (s *Server) takeChatRate(r *request) error {
	key := "account:" + strconv.FormatInt(r.user.ID, 10)
	wait, err := s.chatRate.Take(r.Context(), key, s.now())
	if err != nil {
		return s.chatError("chat's rate", err)
	}
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		r.w.Header().Set("Retry-After", strconv.Itoa(secs))
		return &apiError{http.StatusTooManyRequests, codeChatTooFast,
			fmt.Sprintf("you are writing too fast: wait %s and try again", waitText(secs)), map[string]any{"n": secs}}
	}
	wait, err = s.chatSiteRate.Take(r.Context(), "site", s.now())
	if err == nil && wait > 0 {
		if err := s.chatRate.Give(context.WithoutCancel(r.Context()), key); err != nil {
			s.log.Error("chat's rate: give back", "err", err)
		}
		r.w.Header().Set("Retry-After", "1")
		return failure(http.StatusServiceUnavailable, codeChatBusy, "the site's chat is too busy just now, try again in a moment")
	}
	if err != nil {
		return s.chatError("chat's site rate", err)
	}
	return nil
}

// handleChatLines is GET /api/games/{id}/chat: the latest lines of the
// game that the viewer sees ({"lines": [...]}, the oldest first), as his
// event stream sends them when it opens.
func (s *Server) handleChatLines(r *request) (int, any, error) {
	if s.chat == nil {
		return 0, nil, errNoChat
	}
	lv, err := s.rounds.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	reader, err := s.chatReader(r.Context(), lv, r.viewer())
	if err != nil {
		return 0, nil, err
	}
	lines, err := s.chat.Lines(r.Context(), lv.View().Round.ID, chat.Recent)
	if err != nil {
		return 0, nil, s.chatError("chat lines", err)
	}
	out := []lineJSON{}
	for i := range lines {
		if reader().Sees(&lines[i]) {
			out = append(out, lineOf(&lines[i]))
		}
	}
	return http.StatusOK, map[string]any{"lines": out}, nil
}

// chatReader returns who reads the chat of lv as who, at every call as
// the game stands then (a player reads the spectators' room once it is
// over), with his blocks as the store has them now.
func (s *Server) chatReader(ctx context.Context, lv *round.Live, who viewer) (func() chat.Reader, error) {
	blocked, err := s.blocked(ctx, who.user)
	if err != nil {
		return nil, s.chatError("blocks", err)
	}
	return readerOf(lv, who, blocked), nil
}

// readerOf returns who reads the chat of lv as who, blocking whom
// blocked says, at every call as the game stands then.
func readerOf(lv *round.Live, who viewer, blocked func(int64) bool) func() chat.Reader {
	return func() chat.Reader {
		r := lv.View().Round
		_, player := r.SeatOf(who.player())
		return chat.Reader{User: who.user, Player: player, Over: r.Game.Over(), Blocked: blocked}
	}
}

// chatStream is what a game's event stream needs for the chat: the
// latest lines at once, then each line as it comes, for its viewer.
type chatStream struct {
	first  []chat.Line
	lines  chan chat.Line
	reader func() chat.Reader
}

// openChat starts the chat of a game's event stream for who: his blocks
// held while it lasts, the latest lines read, the lines to come queued.
// It returns nil (and nothing to close) when the store keeps no chat,
// or when it cannot be read: the game streams without it.
func (s *Server) openChat(ctx context.Context, lv *round.Live, who viewer) (*chatStream, func()) {
	if s.chat == nil {
		return nil, func() {}
	}
	blocked, release := func(int64) bool { return false }, func() {}
	if who.user != 0 {
		b, done, err := s.blocks.hold(ctx, s.chat, who.user)
		if err != nil {
			s.log.Error("chat: blocks", "err", err)
			return nil, func() {}
		}
		blocked, release = b.has, done
	}
	cs := &chatStream{lines: make(chan chat.Line, chatQueue), reader: readerOf(lv, who, blocked)}
	game := lv.View().Round.ID
	leave := s.chats.join(game, cs.lines)
	first, err := s.chat.Lines(ctx, game, chat.Recent)
	if err != nil {
		s.log.Error("chat: lines", "game", game, "err", err)
	}
	cs.first = first
	return cs, func() {
		leave()
		release()
	}
}

// chatInbox is how many chat changes of the feed (lines, blocks) wait
// for this server's chat to take them in: beyond, they are dropped and
// logged (the viewers read the lines when their streams open again).
const chatInbox = 1024

// chatHeard takes in c, a change of the chat made on another server (a
// line, or an account's blocks), without waiting: the feed does not
// wait. The changes are taken in one at a time, in their order
// (chatInboxLoop), so that a block is in force before the lines
// written after it reach the streams.
func (s *Server) chatHeard(c store.Change) {
	if s.chat == nil {
		return
	}
	select {
	case s.chatIn <- c:
	default:
		s.log.Error("chat: a change of the feed dropped: too many wait", "line", c.Chat, "blocks", c.Blocks)
	}
}

// chatInboxLoop takes in the chat's changes of the feed until Close: a
// line is read and brought to the viewers of its game on this server,
// if any; the blocks of an account are read again if a stream here
// holds them.
func (s *Server) chatInboxLoop() {
	defer s.bg.Done()
	for {
		select {
		case c := <-s.chatIn:
			s.takeChatChange(c)
		case <-s.ctx.Done():
			return
		}
	}
}

// takeChatChange takes in c (chatInboxLoop).
func (s *Server) takeChatChange(c store.Change) {
	if c.Blocks != 0 {
		if b := s.blocks.changed(c.Blocks); b != nil {
			ids, err := s.chat.Blocked(s.ctx, c.Blocks)
			if err != nil && s.ctx.Err() == nil {
				s.log.Error("chat: blocks of the feed", "user", c.Blocks, "err", err)
			}
			if err == nil {
				b.replace(ids)
			}
		}
		s.hub.wake(nil, s.now())
	}
	if c.Chat != 0 && s.chats.watched(c.ChatGame) {
		l, err := s.chat.Line(s.ctx, c.Chat)
		switch {
		case err == nil:
			s.chats.deliver(*l)
		case !errors.Is(err, chat.ErrNotFound) && s.ctx.Err() == nil:
			s.log.Error("chat: a line of the feed", "line", c.Chat, "err", err)
		}
	}
}

// other returns the account named by the request's path ({name}), who
// must be another than the viewer's, logged in.
func (s *Server) other(r *request) (*account.User, error) {
	if s.chat == nil {
		return nil, errNoChat
	}
	if r.user == nil {
		return nil, chat.ErrGuest
	}
	name := r.PathValue("name")
	u, err := s.cfg.Accounts.UserByKey(r.Context(), account.Key(name))
	if errors.Is(err, account.ErrNotFound) {
		return nil, noPlayer(name)
	}
	if err != nil {
		return nil, s.chatError("account", err)
	}
	if u.ID == r.user.ID {
		return nil, chat.ErrSelf
	}
	return u, nil
}

// handleBlock is POST /api/users/{name}/block and .../unblock: the
// viewer no longer sees the account's chat nor his challenges (or sees
// them again), at once, on his streams already open too, on every
// server. The account blocked is not told: nothing he sees changes.
func (s *Server) handleBlock(on bool) func(r *request) (int, any, error) {
	return func(r *request) (int, any, error) {
		u, err := s.other(r)
		if err != nil {
			return 0, nil, err
		}
		if on {
			err = s.chat.Block(r.Context(), r.user.ID, u.ID, s.now(), chat.MaxBlocks)
		} else {
			err = s.chat.Unblock(r.Context(), r.user.ID, u.ID)
		}
		if err != nil {
			return 0, nil, s.chatError("block", err)
		}
		s.blocks.set(r.user.ID, u.ID, on)
		s.rounds.Publish(store.Change{Blocks: r.user.ID})
		s.hub.wake(nil, s.now()) // the lobby as the viewer sees it changed
		return http.StatusOK, map[string]any{"user": u.Name, "blocked": on}, nil
	}
}

// reportReq is the body of a report.
type reportReq struct {
	Reason string `json:"reason"`
	Game   string `json:"game"`
}

// handleReport is POST /api/users/{name}/report: a reason, and the game
// where it happened (optional), kept for the moderators (201, the
// report's id).
func (s *Server) handleReport(r *request) (int, any, error) {
	var req reportReq
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	u, err := s.other(r)
	if err != nil {
		return 0, nil, err
	}
	reason, err := chat.CleanReason(req.Reason)
	if err != nil {
		return 0, nil, err
	}
	if req.Game != "" {
		if _, err := s.rounds.Look(r.Context(), req.Game); err != nil {
			return 0, nil, err
		}
	}
	key := "account:" + strconv.FormatInt(r.user.ID, 10)
	wait, err := s.reportRate.Take(r.Context(), key, s.now())
	if err != nil {
		return 0, nil, s.chatError("reports' rate", err)
	}
	if wait > 0 {
		mins := int((wait + time.Minute - 1) / time.Minute)
		r.w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		return 0, nil, &apiError{http.StatusTooManyRequests, codeReportTooFast,
			fmt.Sprintf("you have sent many reports lately: wait %d minutes and try again", mins), map[string]any{"n": mins}}
	}
	rep := chat.Report{By: r.user.ID, About: u.ID, Game: req.Game, Reason: reason, Time: s.now()}
	if err := s.chat.AddReport(r.Context(), &rep, chat.MaxReports); err != nil {
		if err := s.reportRate.Give(context.WithoutCancel(r.Context()), key); err != nil {
			s.log.Error("reports' rate: give back", "err", err)
		}
		return 0, nil, s.chatError("report", err)
	}
	s.log.Info("report", "id", rep.ID, "by", r.user.Name, "about", u.Name, "game", rep.Game)
	return http.StatusCreated, map[string]any{"id": rep.ID}, nil
}

// handleMute is POST /api/users/{name}/mute and .../unmute, for the
// moderators: a muted account's lines are shown to him alone from then
// on (he is not told).
func (s *Server) handleMute(on bool) func(r *request) (int, any, error) {
	return func(r *request) (int, any, error) {
		u, err := s.other(r)
		if err != nil {
			return 0, nil, err
		}
		me, err := s.chat.Standing(r.Context(), r.user.ID)
		if err != nil {
			return 0, nil, s.chatError("standing", err)
		}
		if !me.Moderator {
			return 0, nil, failure(http.StatusForbidden, codeNotModerator, "only a moderator may do this")
		}
		if err := s.chat.SetMuted(r.Context(), u.ID, on); err != nil {
			return 0, nil, s.chatError("mute", err)
		}
		s.log.Info("mute", "by", r.user.Name, "user", u.Name, "muted", on)
		return http.StatusOK, map[string]any{"user": u.Name, "muted": on}, nil
	}
}
