package sqlstore

import (
	"context"
	"time"

	"emergo/store"
)

// The invitations that wait, as the queries below select them: the friend
// games that go on with a seat open, neither a token nor an account in
// it. Their own index (games_invitations) holds them, so that counting
// them and sweeping them reads those alone; the words must be the index's
// own for SQLite to use it.
const invitationWaiting = `mode = 'friend' AND result = '*' AND reason = '' AND ((white_token = '' AND white_user = 0) OR (black_token = '' AND black_user = 0))`

// invitationsLock is the advisory lock of the bound on invitations.
const invitationsLock = 0x656d696e7669 // "eminvi"

// CreateInvitation implements store.Store, as CreateEngineGame does: the
// creator is the person in the seat taken.
func (s *DB) CreateInvitation(ctx context.Context, g *store.Game, admit func(store.InvitationCount) error) error {
	creator := g.Seats[0]
	if creator.Token == "" && creator.UserID == 0 {
		creator = g.Seats[1]
	}
	return s.createCounted(ctx, g, creator, lockKey(invitationsLock), invitationWaiting, func(n store.EngineCount) error {
		return admit(store.InvitationCount(n))
	})
}

// ExpiredInvitations implements store.Store.
func (s *DB) ExpiredInvitations(ctx context.Context, live, correspondence time.Time, limit int) ([]string, error) {
	return s.ids(ctx, "expired invitations", `SELECT id FROM games WHERE `+invitationWaiting+` AND (
		(days = 0 AND created_ms <= ?) OR (days > 0 AND created_ms <= ?))
		ORDER BY created_ms, id LIMIT ?`, ms(live), ms(correspondence), limit)
}
