package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"emergo/store"
)

// Feed is the change feed of the servers sharing one PostgreSQL store
// (server.Feed): a change is published with pg_notify, and each follower
// LISTENs on a connection of its own. The channel is the store's schema's,
// so that two sites in two schemas of one database keep apart.
//
// PostgreSQL delivers a notification to every session listening when it
// is published, and to none that is not: a change published while a
// follower's connection is broken is lost to it. The follower connects
// again and says so (the lost callback of Follow), and its server reads
// again what it holds.
type Feed struct {
	db      *sql.DB
	config  *pgx.ConnConfig // of the listening connections
	channel string
}

// maxNotes bounds the notifications of one statement.
const maxNotes = 64

// publishSQL sends the notifications $2 on the channel $1 in one
// statement, its own transaction, committed without waiting for the disk:
// the changes they announce are durable already, and a notification lost
// in a crash of PostgreSQL is lost with the followers' connections, which
// then read again what they hold. A durable commit made each move wait
// for the disk twice.
const publishSQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, p)
	FROM unnest($2::text[]) WITH ORDINALITY AS n (p, i) ORDER BY i`

// Timings of a follower's connection.
const (
	// feedPing is how long a follower waits for a notification before
	// it checks that its connection still works: a connection dropped
	// without a word (a firewall's timeout) is found within it.
	feedPing = 30 * time.Second
	// feedRetry is the first wait before connecting again, doubled on
	// each failure up to feedRetryMax.
	feedRetry    = 100 * time.Millisecond
	feedRetryMax = 5 * time.Second
)

// Feed returns the change feed of the store, which must be PostgreSQL,
// opened by OpenPostgres (a follower needs the connection string).
func (s *DB) Feed(ctx context.Context) (*Feed, error) {
	if !s.postgres || s.dsn == "" {
		return nil, errors.New("sqlstore: a change feed needs a PostgreSQL store opened by OpenPostgres")
	}
	config, err := pgx.ParseConfig(s.dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: feed: %w", err)
	}
	config.RuntimeParams["application_name"] = "emergo feed"
	var schema sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, fmt.Errorf("sqlstore: feed: %w", err)
	}
	if !schema.Valid {
		return nil, errors.New("sqlstore: feed: no current schema: the search path names none that exists")
	}
	return &Feed{db: s.db, config: config, channel: channelOf(schema.String)}, nil
}

// channelOf is the notification channel of the store in schema: a name
// of at most 63 bytes, PostgreSQL's longest.
func channelOf(schema string) string {
	name := "emergo:" + schema
	if len(name) > 63 {
		h := sha256.Sum256([]byte(schema))
		name = "emergo:" + hex.EncodeToString(h[:8])
	}
	return name
}

// Channel is the name of the feed's channel.
func (f *Feed) Channel() string { return f.channel }

// wireChange is a change as a notification's payload carries it.
type wireChange struct {
	Origin  string `json:"origin,omitempty"`
	Game    string `json:"game,omitempty"`
	Version int64  `json:"version,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	Lobby   bool   `json:"lobby,omitempty"`
	Work    bool   `json:"work,omitempty"`
	// State and Keep are the change itself (store.Change), left out
	// of a payload that would be too long for PostgreSQL.
	State    *store.Game `json:"state,omitempty"`
	Keep     int         `json:"keep,omitempty"`
	Chat     int64       `json:"chat,omitempty"`
	ChatGame string      `json:"chatGame,omitempty"`
	Blocks   int64       `json:"blocks,omitempty"`

	Spectators     int    `json:"spectators,omitempty"`
	SpectatorsGame string `json:"spectatorsGame,omitempty"`
}

// maxPayload is the longest payload sent: PostgreSQL refuses one of 8,000
// bytes or more.
const maxPayload = 7900

// Publish announces c to every follower of the feed, this process's
// too.
func (f *Feed) Publish(ctx context.Context, c store.Change) error {
	return f.PublishAll(ctx, []store.Change{c})
}

// PublishAll announces cs, in their order, in one statement (a few for
// very many): round.Keeper's outbox uses it.
func (f *Feed) PublishAll(ctx context.Context, cs []store.Change) error {
	for len(cs) > 0 {
		n := min(len(cs), maxNotes)
		payloads := make([]string, n)
		for i, c := range cs[:n] {
			p, err := payloadOf(c)
			if err != nil {
				return err
			}
			payloads[i] = p
		}
		if _, err := f.db.ExecContext(ctx, publishSQL, f.channel, payloads); err != nil {
			return fmt.Errorf("sqlstore: publish: %w", err)
		}
		cs = cs[n:]
	}
	return nil
}

// payloadOf is the notification's payload of c: without its game if the
// game would make it too long, for the followers to read it back.
func payloadOf(c store.Change) (string, error) {
	payload, err := json.Marshal(wireChange(c))
	if err == nil && len(payload) > maxPayload {
		c.State, c.Keep = nil, 0
		payload, err = json.Marshal(wireChange(c))
	}
	if err != nil {
		return "", fmt.Errorf("sqlstore: publish: %w", err)
	}
	return string(payload), nil
}

// Follow calls changed with every change published on the feed, one at
// a time, until ctx ends; then it returns nil. It calls lost once it
// listens (with nil), and again each time it listens again after its
// connection broke (with why): the changes published meanwhile are lost.
// If it cannot listen at first, it returns the error at once; after
// that it connects again, with growing waits, for as long as ctx lasts.
// A payload that is not a change (another program's) is skipped.
func (f *Feed) Follow(ctx context.Context, changed func(store.Change), lost func(error)) error {
	conn, err := f.listen(ctx)
	if err != nil {
		return err
	}
	lost(nil)
	for {
		why := f.receive(ctx, conn, changed)
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn.Close(cctx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		for wait := feedRetry; ; wait = min(2*wait, feedRetryMax) {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
			if conn, err = f.listen(ctx); err == nil {
				break
			}
		}
		lost(why)
	}
}

// listen opens a connection that listens on the feed's channel.
func (f *Feed) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, f.config)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: feed: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{f.channel}.Sanitize()); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("sqlstore: feed: %w", err)
	}
	return conn, nil
}

// receive passes the notifications of conn to changed until ctx ends or
// the connection breaks, and returns why.
func (f *Feed) receive(ctx context.Context, conn *pgx.Conn, changed func(store.Change)) error {
	for {
		wctx, cancel := context.WithTimeout(ctx, feedPing)
		n, err := conn.WaitForNotification(wctx)
		quiet := wctx.Err() != nil && ctx.Err() == nil
		cancel()
		switch {
		case err == nil:
			var w wireChange
			if json.Unmarshal([]byte(n.Payload), &w) == nil {
				changed(store.Change(w))
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case quiet:
			if err := conn.Ping(ctx); err != nil {
				return fmt.Errorf("sqlstore: feed: %w", err)
			}
		default:
			return fmt.Errorf("sqlstore: feed: %w", err)
		}
	}
}
