// Package notify is what the site tells its players away from the game
// they are looking at: the notifications of each account (its turn in a
// correspondence game, a challenge received, a game over, a new
// follower), kept a bounded number deep; the browsers that asked for Web
// Push, and the sending of a notification to them (push.go); and the
// players each account follows (follow.go). Its small Store interface is
// implemented in store/sqlstore; the server calls it from its handlers
// and from the round's Notifier.
package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/store"
)

// The types of notification, as the API names them.
const (
	// YourTurn says that the opponent has moved in a correspondence game:
	// one unread at most per game, the latest move's.
	YourTurn = "yourTurn"
	// Challenge is a challenge to the account, from the challenger.
	Challenge = "challenge"
	// GameOver is the end of a correspondence game the account played.
	GameOver = "gameOver"
	// Follower is a new follower of the account: one unread at most per
	// follower.
	Follower = "follower"
	// Vacation is an opponent's vacation begun, with a correspondence
	// game of theirs, his deadlines paused: one unread at most per
	// opponent.
	Vacation = "vacation"
	// TournamentRound is a round of a Swiss or a round robin paired: the
	// account's game in it, and its opponent.
	TournamentRound = "tournamentRound"
)

// The bounds of what one account keeps.
const (
	// Kept is how many notifications an account keeps: a new one beyond
	// it drops the oldest.
	Kept = 100
	// MaxSubscriptions is how many browsers of one account receive Web
	// Push: a new one beyond it drops the oldest.
	MaxSubscriptions = 10
	// MaxFollows is how many players one account may follow.
	MaxFollows = 500
	// MaxListed bounds a list of followers or followed players read at
	// once, and the games of the followed players.
	MaxListed = 500
)

// Notification is a notice for one account.
type Notification struct {
	ID   int64
	User int64 // the account told
	Type string
	// Game is the game it is about, "" for none (a challenge, a
	// follower).
	Game string
	// From is the account that made it happen (the opponent, the
	// challenger, the follower), 0 for none; FromName its name as the
	// store reads it back.
	From     int64
	FromName string
	Created  time.Time
	Read     bool
}

// Unread is the kind of which an account has one unread notification at
// most, "" for a notification of its own: a game's yourTurn (the latest
// move's), a follower's follow (followed again after an unfollow), an
// opponent's vacation.
func (n *Notification) Unread() string {
	switch n.Type {
	case YourTurn:
		return n.Type + " " + n.Game
	case Follower, Vacation:
		return fmt.Sprintf("%s %d", n.Type, n.From)
	}
	return ""
}

// Subscription is a browser's Web Push subscription (the PushSubscription
// of the Push API): where to send, and the keys to encrypt for it.
type Subscription struct {
	User     int64
	Endpoint string
	// P256dh is the browser's ECDH public key and Auth its
	// authentication secret, base64url as the browser gives them.
	P256dh, Auth string
	Created      time.Time
}

// Person is an account in a list of followers or followed players.
type Person struct {
	ID    int64
	Name  string
	Since time.Time // when the follow began
}

// ErrTooManyFollows is Follow's refusal of a follow beyond MaxFollows.
var ErrTooManyFollows = errors.New("notify: you follow as many players as you may")

// Store keeps the notifications, the push subscriptions and the follows.
type Store interface {
	// AddNotification stores n (its ID set), and drops the account's
	// oldest beyond keep. A notification that has an unread one of its
	// kind already (Unread) takes its place (its From and Created),
	// keeping its ID: AddNotification then reports that it is not fresh.
	AddNotification(ctx context.Context, n *Notification, keep int) (fresh bool, err error)
	// Notifications returns the latest limit of the account's
	// notifications, the newest first, with FromName.
	Notifications(ctx context.Context, user int64, limit int) ([]Notification, error)
	// MarkRead marks the account's notifications of ids read, all of
	// them for nil ids.
	MarkRead(ctx context.Context, user int64, ids []int64) error

	// AddSubscription keeps sub for its account, taking its endpoint
	// from any other account (one browser, one account at a time), and
	// drops the account's oldest beyond max.
	AddSubscription(ctx context.Context, sub Subscription, max int) error
	// RemoveSubscription forgets the endpoint, of the account user, or of
	// whichever account holds it for user 0 (a push service said that it
	// is gone).
	RemoveSubscription(ctx context.Context, user int64, endpoint string) error
	// Subscriptions returns the account's subscriptions.
	Subscriptions(ctx context.Context, user int64) ([]Subscription, error)
	// KeepKeys stores k as the site's VAPID keys if it has none yet, and
	// returns those it has: the first server's, for every server.
	KeepKeys(ctx context.Context, k Keys) (Keys, error)

	// Follow makes follower follow followed, refusing a follow beyond max
	// with ErrTooManyFollows. It reports whether the follow is new, so
	// that of two servers noting one follow only one tells of it.
	Follow(ctx context.Context, follower, followed int64, at time.Time, max int) (bool, error)
	// Unfollow ends a follow; ending none is no error.
	Unfollow(ctx context.Context, follower, followed int64) error
	// Follows reports whether follower follows followed.
	Follows(ctx context.Context, follower, followed int64) (bool, error)
	// Followers and Following list up to limit of the accounts that
	// follow user and that user follows, the latest follow first.
	Followers(ctx context.Context, user int64, limit int) ([]Person, error)
	Following(ctx context.Context, user int64, limit int) ([]Person, error)
	// CountFollows returns how many follow user, and how many he follows.
	CountFollows(ctx context.Context, user int64) (followers, following int, err error)
	// FollowedGames returns up to limit of the games going on in which an
	// account that user follows holds a seat, the latest changed first.
	FollowedGames(ctx context.Context, user int64, limit int) ([]store.Summary, error)
}
