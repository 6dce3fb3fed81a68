// Package lobby is where people find opponents: challenges open to every
// account, direct challenges to one player, and rematches after a game
// between people. It holds the rules of a challenge (what it may ask,
// who may accept, decline or withdraw it, which colour each side gets)
// and the small Store interface that keeps challenges, implemented by
// store/sqlstore; the server turns its answers into HTTP and makes the
// game a challenge becomes.
package lobby

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/game"
	"emergo/rules"
	"emergo/store"
)

// Party is one side of a challenge: an account, or for a rematch between
// guests a browser, by the hash of its seat token.
type Party struct {
	User  int64  // the account, 0 for a guest
	Token string // the hash of the browser's seat token
	Name  string // as the seat shows it
	// Bot says that the account is a bot's: it takes an open challenge
	// only if the challenge allows bots (AllowBots).
	Bot bool
}

// Is reports whether p and q are one player: one account, or, between
// guests, one browser.
func (p Party) Is(q Party) bool {
	if p.User != 0 || q.User != 0 {
		return p.User == q.User
	}
	return p.Token != "" && p.Token == q.Token
}

// none reports whether p is nobody: the other side of an open challenge.
func (p Party) none() bool { return p.User == 0 && p.Token == "" }

// Color is the colour a challenger asks for.
type Color uint8

const (
	Random Color = iota
	White
	Black
)

var colorNames = [...]string{Random: "random", White: "white", Black: "black"}

func (c Color) String() string {
	if int(c) < len(colorNames) {
		return colorNames[c]
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// ParseColor reads a Color's word; the empty word is Random.
func ParseColor(text string) (Color, error) {
	if text == "" {
		return Random, nil
	}
	for c, name := range colorNames {
		if name == text {
			return Color(c), nil
		}
	}
	return 0, &Error{Problem: BadColour, Reason: fmt.Sprintf(`colour %q: want "white", "black" or "random"`, text)}
}

// Status is where a challenge stands.
type Status string

const (
	Pending   Status = "pending"
	Accepted  Status = "accepted"
	Declined  Status = "declined"
	Cancelled Status = "cancelled"
)

// Settings are what a challenge asks for.
type Settings struct {
	Size    int          // 9 or 7
	Control game.Control // a clock (Time, Increment) or days per move
	Rated   bool
	Color   Color // the challenger's
	// AllowBots lets a bot account accept a challenge open to every
	// account; without it, an open challenge is for people alone.
	AllowBots bool
}

// Challenge is an offer to play a game.
type Challenge struct {
	ID   string
	From Party
	// To is the player a direct challenge or a rematch is for; nobody
	// (the zero Party) for a challenge open to every account.
	To Party
	Settings
	// Rematch is the game this challenge is a rematch of, "" for none.
	Rematch string
	Status  Status
	Game    string // the game made when it was accepted
	Created time.Time
	Expires time.Time // a pending challenge is gone after it
	Updated time.Time // when it was accepted, declined or withdrawn
}

// How long a challenge waits for its answer: a live game is wanted now,
// a correspondence game may wait for a reply for days.
const (
	LiveWait           = 30 * time.Minute
	CorrespondenceWait = 7 * 24 * time.Hour
)

// Problem says which rule a challenge breaks, for a message in any
// language.
type Problem uint8

const (
	BadColour     Problem = iota + 1 // a colour that is none of White, Black and Random
	BadSize                          // a board that is neither 9x9 nor 7x7
	NoControl                        // neither a clock nor days per move
	ToGuest                          // a direct challenge to a guest
	ChallengeSelf                    // a challenge to oneself
)

// Error is a challenge that breaks a rule, or an action on one that is
// not allowed; Reason says which, in the words of the player who asked.
type Error struct {
	Problem Problem
	Reason  string
}

func (e *Error) Error() string { return "lobby: " + e.Reason }

// The errors of the actions on a challenge, and of every Store.
var (
	ErrNotFound = errors.New("lobby: no such challenge")
	// ErrGone is a challenge no longer pending: accepted, declined,
	// withdrawn, or expired.
	ErrGone = errors.New("lobby: the challenge was taken, declined or withdrawn")
	// ErrNotYours is an action on a challenge that the player may not
	// take: accepting one's own, answering one made to another, and
	// withdrawing another's.
	ErrNotYours = errors.New("lobby: that challenge is not yours to answer")
	// ErrAccount is an action of a guest that needs an account.
	ErrAccount = errors.New("lobby: log in to play in the lobby")
	// ErrForPeople is a bot's acceptance of an open challenge that does
	// not allow bots: the lobby's seats are for people unless the
	// challenger says otherwise.
	ErrForPeople = errors.New("lobby: that challenge is for people: it does not allow bots")
	// ErrFull is a challenge refused because the lobby holds as many
	// pending challenges as Limits.Total allows.
	ErrFull = errors.New("lobby: the lobby is full, try again later")
)

// Limits bound the challenges pending at once: those of one account,
// those of one guest's browser (a guest offers rematches only), and all
// of them. A challenge answered, withdrawn or expired frees its place.
// A bound of zero admits none: OrDefault fills those not set.
type Limits struct {
	Account int
	Guest   int
	Total   int
}

// DefaultLimits let an account have ten challenges waiting (a few time
// controls, open and direct), a guest three rematches, and the site ten
// thousand: a lobby far larger than any page shows, small enough that
// counting it when a challenge is posted stays cheap.
var DefaultLimits = Limits{Account: 10, Guest: 3, Total: 10000}

// OrDefault returns l with DefaultLimits' value for every bound not set
// (zero or less).
func (l Limits) OrDefault() Limits {
	if l.Account <= 0 {
		l.Account = DefaultLimits.Account
	}
	if l.Guest <= 0 {
		l.Guest = DefaultLimits.Guest
	}
	if l.Total <= 0 {
		l.Total = DefaultLimits.Total
	}
	return l
}

// Of is the bound of from's pending challenges.
func (l Limits) Of(from Party) int {
	if from.User != 0 {
		return l.Account
	}
	return l.Guest
}

// Admit says whether from, who has mine challenges pending while total
// are pending in all, may post one more: nil, a *TooManyError or ErrFull.
func (l Limits) Admit(from Party, mine, total int) error {
	switch {
	case mine >= l.Of(from):
		return &TooManyError{Limit: l.Of(from)}
	case total >= l.Total:
		return ErrFull
	}
	return nil
}

// TooManyError is a challenge refused because its challenger has Limit
// challenges pending already.
type TooManyError struct{ Limit int }

func (e *TooManyError) Error() string {
	return fmt.Sprintf("lobby: you have %d challenges waiting, as many as you may: withdraw one or wait for an answer", e.Limit)
}

// New returns the pending challenge id of from to to (nobody for an open
// challenge) with settings, made at now. Open and direct challenges come
// from accounts; a rated one is between accounts and needs a clock or days
// per move, as every challenge does.
func New(id string, from, to Party, s Settings, now time.Time) (*Challenge, error) {
	if from.User == 0 {
		return nil, ErrAccount
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	switch {
	case !to.none() && to.User == 0:
		return nil, &Error{Problem: ToGuest, Reason: "a direct challenge is for an account"}
	case to.Is(from):
		return nil, &Error{Problem: ChallengeSelf, Reason: "you cannot challenge yourself"}
	}
	return newChallenge(id, from, to, s, "", now), nil
}

// Finished is what a rematch needs of a game between people that has
// ended: its seats (White's and Black's) and its settings.
type Finished struct {
	ID    string
	Seats [2]Party
	Size  int
	// Control and Rated are the game's.
	Control game.Control
	Rated   bool
}

// Rematch returns the challenge id, made at now by the player of colour
// by in the finished game g, to play again with the same settings and
// the colours swapped.
func Rematch(id string, g Finished, by rules.Color, now time.Time) (*Challenge, error) {
	color := Black
	if by == rules.Black {
		color = White
	}
	s := Settings{Size: g.Size, Control: g.Control, Rated: g.Rated, Color: color}
	if err := s.check(); err != nil {
		return nil, err
	}
	return newChallenge(id, g.Seats[by], g.Seats[by.Other()], s, g.ID, now), nil
}

func newChallenge(id string, from, to Party, s Settings, rematch string, now time.Time) *Challenge {
	wait := LiveWait
	if s.Control.Correspondence() {
		wait = CorrespondenceWait
	}
	return &Challenge{ID: id, From: from, To: to, Settings: s, Rematch: rematch, Status: Pending, Created: now, Expires: now.Add(wait), Updated: now}
}

// check reports what is wrong with s.
func (s Settings) check() error {
	switch {
	case s.Size != 9 && s.Size != 7:
		return &Error{Problem: BadSize, Reason: "size must be 9 or 7"}
	case s.Control.None() || s.Control.MoveTime > 0:
		return &Error{Problem: NoControl, Reason: "a challenge needs a clock or days per move"}
	case s.Color > Black:
		return &Error{Problem: BadColour, Reason: "unknown colour"}
	}
	return nil
}

// Open reports whether c is open to every account.
func (c *Challenge) Open() bool { return c.To.none() }

// Live reports whether c is pending at now.
func (c *Challenge) Live(now time.Time) bool { return c.Status == Pending && now.Before(c.Expires) }

// Concerns reports whether c is p's to see in the lobby: open to all,
// made by p, or made to p.
func (c *Challenge) Concerns(p Party) bool { return c.Open() || c.From.Is(p) || c.To.Is(p) }

// CanAccept reports why p may not accept c at now, or nil.
func (c *Challenge) CanAccept(p Party, now time.Time) error {
	switch {
	case !c.Live(now):
		return ErrGone
	case c.From.Is(p):
		return ErrNotYours
	case !c.Open() && !c.To.Is(p):
		return ErrNotYours
	case c.Open() && p.User == 0:
		return ErrAccount
	case c.Open() && p.Bot && !c.AllowBots:
		return ErrForPeople
	}
	return nil
}

// CanDecline reports why p may not decline c at now: only the player a
// challenge was made to declines it.
func (c *Challenge) CanDecline(p Party, now time.Time) error {
	switch {
	case !c.Live(now):
		return ErrGone
	case c.Open() || !c.To.Is(p):
		return ErrNotYours
	}
	return nil
}

// CanCancel reports why p may not withdraw c at now: only its challenger
// does.
func (c *Challenge) CanCancel(p Party, now time.Time) error {
	switch {
	case !c.Live(now):
		return ErrGone
	case !c.From.Is(p):
		return ErrNotYours
	}
	return nil
}

// Seats returns who plays White and who Black when p accepts c: the
// challenger takes the colour he asked for, and for Random the challenger
// is White when whiteFirst (a coin the caller tosses).
func (c *Challenge) Seats(p Party, whiteFirst bool) [2]Party {
	if c.Color == Black || (c.Color == Random && !whiteFirst) {
		return [2]Party{p, c.From}
	}
	return [2]Party{c.From, p}
}

// Store keeps challenges.
//
// The lobby is read for one viewer at a time, in two parts, so that no
// challenge of a viewer's is ever lost behind the others': the open
// challenges, the same for every viewer (OpenChallenges, shared fairly
// between their challengers), and the viewer's own and those made to him
// (ChallengesOf).
type Store interface {
	// CreateChallenge stores the new challenge c if its challenger has
	// fewer than limits.Of(c.From) challenges pending at c.Created, and
	// the store fewer than limits.Total; otherwise it stores nothing and
	// returns limits.Admit's error. The count and the write are one
	// transaction, exact between servers sharing the store.
	CreateChallenge(ctx context.Context, c *Challenge, limits Limits) error
	// Challenge returns the challenge id, or ErrNotFound.
	Challenge(ctx context.Context, id string) (*Challenge, error)
	// OpenChallenges returns the open challenges pending at now (not
	// expired), at most limit, the oldest first. When there are more,
	// the challengers share limit in turns: the oldest challenge of
	// each, then the second of each, and so on, so that the many
	// challenges of a few do not hide those of the others.
	OpenChallenges(ctx context.Context, now time.Time, limit int) ([]Challenge, error)
	// ChallengesOf returns the challenges that p made (open ones too)
	// and those made to p, pending at now or accepted, declined or
	// withdrawn after since, the oldest first: at most limit of those p
	// made and at most limit of those made to p. When there are more it
	// keeps the pending (the oldest first) before the answered (the
	// latest first), and of those made to p the challengers share limit
	// in turns, as in OpenChallenges. Nobody (no account and no token)
	// has none.
	ChallengesOf(ctx context.Context, p Party, now, since time.Time, limit int) ([]Challenge, error)
	// RematchOf returns the latest challenge to a rematch of the game id,
	// or ErrNotFound.
	RematchOf(ctx context.Context, id string) (*Challenge, error)
	// Accept marks the challenge id accepted at now, its game g, and
	// creates g (as store.Store's Create does) in the same transaction,
	// if the challenge is pending at now; otherwise ErrGone (ErrNotFound
	// for no challenge) and nothing is written.
	Accept(ctx context.Context, id string, now time.Time, g *store.Game) error
	// Answer gives the challenge id status (Declined or Cancelled) at
	// now, if it is pending at now; otherwise ErrGone (ErrNotFound for no
	// challenge).
	Answer(ctx context.Context, id string, status Status, now time.Time) error
	// Prune deletes the challenges that expired, or were answered,
	// before before.
	Prune(ctx context.Context, before time.Time) error
}
