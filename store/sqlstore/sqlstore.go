// Package sqlstore implements store.Store on database/sql, for SQLite (the
// embedded default, modernc.org/sqlite, pure Go) and PostgreSQL (pgx). One
// schema and one set of queries serve both: times are integers, and the
// placeholders are rewritten for PostgreSQL.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"emergo/store"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a Store on a SQL database.
type DB struct {
	db       *sql.DB
	postgres bool
	dsn      string                           // PostgreSQL's connection string, for the feed
	batch    *batcher[func(tx *sql.Tx) error] // SQLite: group commit of every write; nil on PostgreSQL
	updates  *batcher[pgWrite]                // PostgreSQL: group commit of the games' updates; nil on SQLite
	stmts    stmts
	gates    gates // the writes that wait for an advisory lock (serialized)
}

// OpenSQLite opens (creating it if needed) the SQLite database in file
// and migrates it. WAL lets readers go on while a move is written;
// synchronous=FULL makes a commit durable before it returns; immediate
// transactions take the write lock at BEGIN, so two writers queue on the
// busy timeout instead of failing on a lock upgrade.
func OpenSQLite(ctx context.Context, file string) (*DB, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "synchronous(FULL)", "foreign_keys(ON)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+file+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	s, err := open(ctx, db, false)
	if err != nil {
		return nil, err
	}
	s.batch = newBatcher(sqliteBatch, 1, sqliteCommit(db))
	return s, nil
}

// Open wraps an already opened database; postgres selects the PostgreSQL
// placeholders. It migrates the schema.
func Open(ctx context.Context, db *sql.DB, postgres bool) (*DB, error) {
	return open(ctx, db, postgres)
}

func open(ctx context.Context, db *sql.DB, postgres bool) (*DB, error) {
	s := &DB{db: db, postgres: postgres}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if postgres {
		s.updates = newBatcher(pipelineBatch, pipelineLanes, s.pipelineCommit)
	}
	return s, nil
}

// Ping checks that the database answers: a connection is taken from
// the pool and used.
func (s *DB) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("sqlstore: ping: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *DB) Close() error {
	if s.batch != nil {
		s.batch.close()
	}
	if s.updates != nil {
		s.updates.close()
	}
	s.stmts.close()
	return s.db.Close()
}

// write runs fn in a transaction: batched with others on SQLite, alone on
// PostgreSQL.
func (s *DB) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.batch != nil {
		return s.batch.do(ctx, fn)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: commit: %w", err)
	}
	return nil
}

// rebind turns ? placeholders into $1, $2... for PostgreSQL.
func (s *DB) rebind(q string) string {
	if !s.postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (s *DB) migrate(ctx context.Context) error {
	if s.postgres {
		// Servers started at once migrate one after the other: the first
		// applies the migrations, the others find them applied. The lock
		// is the schema's, and a session's: taken and given back on one
		// connection.
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("sqlstore: migrate: %w", err)
		}
		defer conn.Close()
		const lock = `(2002, hashtext(current_schema()))`
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock`+lock); err != nil {
			return fmt.Errorf("sqlstore: migrate: lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock`+lock)
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)`); err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	steps, err := migrationSteps(migrations)
	if err != nil {
		return err
	}
	for _, m := range steps {
		if err := s.apply(ctx, m.version, m.name); err != nil {
			return fmt.Errorf("sqlstore: migration %s: %w", strings.TrimPrefix(m.name, "migrations/"), err)
		}
	}
	return nil
}

// migration is a file of migrations/: NNN_what.sql, applied once, in
// the order of the versions NNN.
type migration struct {
	version int
	name    string
}

// migrationSteps lists the migrations of fsys in order. Two files of one
// version are an error: the second would be taken as applied and never
// run.
func migrationSteps(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var steps []migration
	seen := map[int]string{}
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("sqlstore: migration %s: no version number", base)
		}
		if other, ok := seen[v]; ok {
			return nil, fmt.Errorf("sqlstore: migrations %s and %s have one version, %d", other, base, v)
		}
		seen[v] = base
		steps = append(steps, migration{v, name})
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].version < steps[j].version })
	return steps, nil
}

func (s *DB) apply(ctx context.Context, v int, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), v).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	text, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	for _, stmt := range strings.Split(string(text), ";") {
		if strings.TrimSpace(stripComments(stmt)) == "" {
			continue
		}
		stmt = s.dialect(stripComments(stmt))
		if stmt == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO schema_migrations (version) VALUES (?)`), v); err != nil {
		return err
	}
	return tx.Commit()
}

// dialect writes the words of a migration that differ between the
// databases, or returns "" for a statement that is not for this one:
//   - AUTO_ID, a 64-bit key the database assigns at insertion;
//   - COMPUTED, a generated column's storage: STORED on PostgreSQL (its
//     value then compared on update, so that an unchanged value keeps an
//     update HOT), VIRTUAL on SQLite (the only kind ALTER TABLE adds);
//   - POSTGRES, first, a statement for PostgreSQL only (storage settings).
func (s *DB) dialect(stmt string) string {
	stmt = strings.TrimSpace(stmt)
	if rest, ok := strings.CutPrefix(stmt, "POSTGRES "); ok {
		if !s.postgres {
			return ""
		}
		stmt = rest
	}
	id, computed := "INTEGER PRIMARY KEY", "VIRTUAL"
	if s.postgres {
		id, computed = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "STORED"
	}
	return strings.NewReplacer("AUTO_ID", id, "COMPUTED", computed).Replace(stmt)
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func dms(d time.Duration) int64 { return d.Milliseconds() }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

const gameColumns = `size, start_pos, created_ms, updated_ms, mode, level,
	white_name, white_token, white_engine, white_user, black_name, black_token, black_engine, black_user,
	result, reason, draw_offer, take_back, initial_ms, increment_ms,
	white_left_ms, black_left_ms, turn_start_ms, days, deadline_ms, rated, invite, client, person_turn_ms,
	white_bot, black_bot`

func gameArgs(g *store.Game) []any {
	return []any{g.Size, g.Start, ms(g.Created), ms(g.Updated), g.Mode, g.Level,
		g.Seats[0].Name, g.Seats[0].Token, b2i(g.Seats[0].Engine), g.Seats[0].UserID,
		g.Seats[1].Name, g.Seats[1].Token, b2i(g.Seats[1].Engine), g.Seats[1].UserID,
		g.Result, g.Reason, g.DrawOffer, g.TakeBack, dms(g.Initial), dms(g.Increment),
		dms(g.TimeLeft[0]), dms(g.TimeLeft[1]), ms(g.TurnStart), g.Days, ms(g.Deadline), b2i(g.Rated), g.Invite,
		g.Client, ms(g.PersonTurn), b2i(g.Seats[0].Bot), b2i(g.Seats[1].Bot)}
}

// Create implements store.Store.
func (s *DB) Create(ctx context.Context, g *store.Game) error {
	if err := s.write(ctx, func(tx *sql.Tx) error { return s.create(ctx, tx, g) }); err != nil {
		return err
	}
	g.Version = 1
	return nil
}

// create inserts g, version 1, in tx; it leaves g.Version to the caller,
// to set once the transaction commits.
func (s *DB) create(ctx context.Context, tx *sql.Tx, g *store.Game) error {
	args := append([]any{g.ID}, gameArgs(g)...)
	args = append(args, 1)
	q := s.rebind(`INSERT INTO games (id, ` + gameColumns + `, version) VALUES (?` + strings.Repeat(", ?", len(args)-1) + `)`)
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("sqlstore: create %s: %w", g.ID, err)
	}
	return s.insertMoves(ctx, tx, g, 0)
}

func (s *DB) insertMoves(ctx context.Context, tx *sql.Tx, g *store.Game, from int) error {
	q := s.rebind(`INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms) VALUES (?, ?, ?, ?, ?, ?)`)
	for i := from; i < len(g.Moves); i++ {
		m := g.Moves[i]
		if _, err := tx.ExecContext(ctx, q, g.ID, i, m.Text, ms(m.At), dms(m.TimeLeft[0]), dms(m.TimeLeft[1])); err != nil {
			return fmt.Errorf("sqlstore: game %s move %d: %w", g.ID, i+1, err)
		}
	}
	return nil
}

// Get implements store.Store.
func (s *DB) Get(ctx context.Context, id string) (*store.Game, error) {
	g := &store.Game{ID: id}
	var created, updated, initial, inc, wl, bl, turn, deadline, personTurn int64
	var we, be, rated, wbot, bbot int
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT `+gameColumns+`, version FROM games WHERE id = ?`), id).Scan(
		&g.Size, &g.Start, &created, &updated, &g.Mode, &g.Level,
		&g.Seats[0].Name, &g.Seats[0].Token, &we, &g.Seats[0].UserID,
		&g.Seats[1].Name, &g.Seats[1].Token, &be, &g.Seats[1].UserID,
		&g.Result, &g.Reason, &g.DrawOffer, &g.TakeBack, &initial, &inc, &wl, &bl, &turn,
		&g.Days, &deadline, &rated, &g.Invite, &g.Client, &personTurn, &wbot, &bbot, &g.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: get %s: %w", id, err)
	}
	g.Created, g.Updated, g.TurnStart, g.Deadline = fromMS(created), fromMS(updated), fromMS(turn), fromMS(deadline)
	g.PersonTurn = fromMS(personTurn)
	g.Seats[0].Engine, g.Seats[1].Engine, g.Rated = we == 1, be == 1, rated == 1
	g.Seats[0].Bot, g.Seats[1].Bot = wbot == 1, bbot == 1
	g.Initial, g.Increment = time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond
	g.TimeLeft = [2]time.Duration{time.Duration(wl) * time.Millisecond, time.Duration(bl) * time.Millisecond}
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT text, at_ms, white_left_ms, black_left_ms FROM moves WHERE game_id = ? ORDER BY ply`), id)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: get %s moves: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.Move
		var at, w, b int64
		if err := rows.Scan(&m.Text, &at, &w, &b); err != nil {
			return nil, fmt.Errorf("sqlstore: get %s moves: %w", id, err)
		}
		m.At = fromMS(at)
		m.TimeLeft = [2]time.Duration{time.Duration(w) * time.Millisecond, time.Duration(b) * time.Millisecond}
		g.Moves = append(g.Moves, m)
	}
	return g, rows.Err()
}

// Update implements store.Store.
func (s *DB) Update(ctx context.Context, g *store.Game, keep int) error {
	var err error
	if s.postgres {
		// One statement, committed with the updates of other games
		// made at the same time.
		err = s.updates.do(ctx, postgresUpdate(g, keep))
	} else {
		err = s.write(ctx, func(tx *sql.Tx) error { return s.update(ctx, tx, g, keep) })
	}
	if err != nil {
		return err
	}
	g.Version++
	return nil
}

// update writes g in tx if its stored version is still g.Version, and
// replaces its moves from ply keep on; it leaves g.Version to the caller,
// to increment once the transaction commits.
func (s *DB) update(ctx context.Context, tx *sql.Tx, g *store.Game, keep int) error {
	if s.postgres {
		return writeOne(ctx, tx, postgresUpdate(g, keep))
	}
	cols := strings.Split(strings.Join(strings.Fields(gameColumns), ""), ",")
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = c + " = ?"
	}
	args := append(gameArgs(g), g.ID, g.Version)
	q := s.rebind(`UPDATE games SET ` + strings.Join(set, ", ") + `, version = version + 1 WHERE id = ? AND version = ?`)
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("sqlstore: update %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlstore: update %s: %w", g.ID, err)
	} else if n != 1 {
		return store.ErrConflict
	}
	if _, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM moves WHERE game_id = ? AND ply >= ?`), g.ID, keep); err != nil {
		return fmt.Errorf("sqlstore: update %s: %w", g.ID, err)
	}
	return s.insertMoves(ctx, tx, g, keep)
}

// updatePostgresSQL is update on PostgreSQL in one statement: the game's
// row if its version is still $33, the moves from ply $34 (the new length)
// on deleted, and the new ones, from keep on, written over the old ones.
// A move is then one round trip and one commit; as update's five
// statements (BEGIN, UPDATE, DELETE, INSERT, COMMIT) it was five round
// trips, and under load each waited for the server process to be
// scheduled again. The statement comes in three forms, by the moves it
// writes: none (an offer, a resignation), one (a move: $35 to $39), or
// any number (arrays $35 to $39). PostgreSQL plans each once per
// connection only if its generic plan costs about what a plan for the
// values would: the form of arrays, whose length it cannot know, was
// planned again at every move, which cost more than running it.
var updatePostgresSQL = func() [3]string {
	cols := strings.Split(strings.Join(strings.Fields(gameColumns), ""), ",")
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = fmt.Sprintf("%s = $%d", c, i+1)
	}
	n := len(cols)
	head := fmt.Sprintf(`WITH u AS (
		UPDATE games SET %s, version = version + 1 WHERE id = $%d AND version = $%d RETURNING id
	), d AS (
		DELETE FROM moves WHERE game_id IN (SELECT id FROM u) AND ply >= $%d
	)`, strings.Join(set, ", "), n+1, n+2, n+3)
	const upsert = `ON CONFLICT (game_id, ply) DO UPDATE SET text = excluded.text, at_ms = excluded.at_ms,
			white_left_ms = excluded.white_left_ms, black_left_ms = excluded.black_left_ms`
	a := n + 4
	return [3]string{
		head + `
	SELECT COUNT(*) FROM u`,
		head + fmt.Sprintf(`, i AS (
		INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms)
		SELECT u.id, $%d::integer, $%d::text, $%d::bigint, $%d::bigint, $%d::bigint FROM u
		%s
	)
	SELECT COUNT(*) FROM u`, a, a+1, a+2, a+3, a+4, upsert),
		head + fmt.Sprintf(`, i AS (
		INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms)
		SELECT u.id, m.ply, m.text, m.at_ms, m.white_left_ms, m.black_left_ms
		FROM u, unnest($%d::integer[], $%d::text[], $%d::bigint[], $%d::bigint[], $%d::bigint[])
			AS m (ply, text, at_ms, white_left_ms, black_left_ms)
		%s
	)
	SELECT COUNT(*) FROM u`, a, a+1, a+2, a+3, a+4, upsert),
	}
}()

// rowQuerier is what writeOne needs of a database or a
// transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// postgresUpdate is update on PostgreSQL (updatePostgresSQL).
func postgresUpdate(g *store.Game, keep int) pgWrite {
	keep = max(0, min(keep, len(g.Moves)))
	args := append(gameArgs(g), g.ID, g.Version, len(g.Moves))
	var query string
	switch moves := g.Moves[keep:]; len(moves) {
	case 0:
		query = updatePostgresSQL[0]
	case 1:
		m := moves[0]
		query = updatePostgresSQL[1]
		args = append(args, keep, m.Text, ms(m.At), dms(m.TimeLeft[0]), dms(m.TimeLeft[1]))
	default:
		n := len(moves)
		plies, texts := make([]int32, n), make([]string, n)
		at, white, black := make([]int64, n), make([]int64, n), make([]int64, n)
		for i, m := range moves {
			plies[i], texts[i] = int32(keep+i), m.Text
			at[i], white[i], black[i] = ms(m.At), dms(m.TimeLeft[0]), dms(m.TimeLeft[1])
		}
		query = updatePostgresSQL[2]
		args = append(args, plies, texts, at, white, black)
	}
	return pgWrite{what: "update " + g.ID, query: query, args: args}
}

// Ongoing implements store.Store.
func (s *DB) Ongoing(ctx context.Context) ([]string, error) {
	return s.ids(ctx, "ongoing", `SELECT id FROM games WHERE result = '*' AND reason = '' AND days = 0 AND mode <> 'analysis' ORDER BY updated_ms`)
}

// Due implements store.Store.
func (s *DB) Due(ctx context.Context, by time.Time, limit int) ([]string, error) {
	return s.ids(ctx, "due", `SELECT id FROM games WHERE result = '*' AND reason = '' AND deadline_ms > 0 AND deadline_ms <= ?
		ORDER BY deadline_ms LIMIT ?`, by.UnixMilli(), limit)
}

// ids returns the IDs the query q selects.
func (s *DB) ids(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Recent implements store.Store.
func (s *DB) Recent(ctx context.Context, limit int, idle time.Time) ([]store.Summary, error) {
	return s.summaries(ctx, "recent", `g.mode <> 'analysis'
		AND NOT (g.white_token = '' AND g.white_engine = 0 AND g.white_user = 0)
		AND NOT (g.black_token = '' AND g.black_engine = 0 AND g.black_user = 0)
		AND NOT (g.result = '*' AND g.reason = '' AND g.deadline_ms = 0 AND g.updated_ms < ?)
		ORDER BY g.updated_min DESC, g.updated_ms DESC LIMIT ?`, ms(idle), limit)
}

// Seated implements store.Store.
func (s *DB) Seated(ctx context.Context, token string, user int64, limit int) ([]store.Summary, error) {
	// The empty token is the open seats', user 0 the guests'.
	var holds []string
	var args []any
	if token != "" {
		holds = append(holds, `g.white_token = ? OR g.black_token = ?`)
		args = append(args, token, token)
	}
	if user != 0 {
		holds = append(holds, `g.white_user = ? OR g.black_user = ?`)
		args = append(args, user, user)
	}
	if len(holds) == 0 {
		return nil, nil
	}
	return s.summaries(ctx, "seated", `(`+strings.Join(holds, " OR ")+`)
		ORDER BY CASE WHEN g.result = '*' AND g.reason = '' THEN 0 ELSE 1 END, g.updated_ms DESC LIMIT ?`, append(args, limit)...)
}

// summaries returns the games that the condition where (with its order and
// limit) selects, as summaries.
func (s *DB) summaries(ctx context.Context, what, where string, args ...any) ([]store.Summary, error) {
	return s.summariesFrom(ctx, what, "games g WHERE "+where, args...)
}

// summaryColumns are the columns of a summary of the game g, in the
// order scanSummary reads them.
const summaryColumns = `g.id, g.size, g.start_pos, g.mode, g.level, g.created_ms,
	g.initial_ms, g.increment_ms,
	g.white_name, g.black_name, g.white_token, g.black_token, g.white_user, g.black_user, g.result, g.reason,
	g.days, g.deadline_ms, g.rated, g.updated_ms, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id),
	g.white_bot, g.black_bot`

// summariesFrom returns, as summaries, the games that from selects: the
// rest of a query after FROM, a table expression of games named g with
// its conditions, order and limit.
func (s *DB) summariesFrom(ctx context.Context, what, from string, args ...any) ([]store.Summary, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT `+summaryColumns+` FROM `+from), args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	defer rows.Close()
	var out []store.Summary
	for rows.Next() {
		var sm store.Summary
		if err := scanSummary(rows, &sm); err != nil {
			return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
		}
		out = append(out, sm)
	}
	return out, rows.Err()
}

// scanSummary reads the summaryColumns of rows into sm, and the columns
// after them into more.
func scanSummary(rows *sql.Rows, sm *store.Summary, more ...any) error {
	var created, initial, inc, deadline, upd int64
	var rated, wbot, bbot int
	if err := rows.Scan(append([]any{&sm.ID, &sm.Size, &sm.Start, &sm.Mode, &sm.Level, &created, &initial, &inc,
		&sm.Names[0], &sm.Names[1], &sm.Tokens[0], &sm.Tokens[1], &sm.Users[0], &sm.Users[1],
		&sm.Result, &sm.Reason, &sm.Days, &deadline, &rated, &upd, &sm.Plies, &wbot, &bbot}, more...)...); err != nil {
		return err
	}
	sm.Created, sm.Deadline, sm.Updated, sm.Rated = fromMS(created), fromMS(deadline), fromMS(upd), rated == 1
	sm.Bots = [2]bool{wbot == 1, bbot == 1}
	sm.Initial, sm.Increment = time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond
	return nil
}

// versionChunk bounds the IDs of one query of Versions (SQLite allows
// 32766 parameters, PostgreSQL 65535).
const versionChunk = 500

// Versions implements store.Store.
func (s *DB) Versions(ctx context.Context, ids []string) (map[string]int64, error) {
	out := make(map[string]int64, len(ids))
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), versionChunk)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		q := `SELECT id, version FROM games WHERE id IN (?` + strings.Repeat(", ?", len(chunk)-1) + `)`
		rows, err := s.db.QueryContext(ctx, s.rebind(q), args...)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: versions: %w", err)
		}
		for rows.Next() {
			var id string
			var v int64
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlstore: versions: %w", err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("sqlstore: versions: %w", err)
		}
	}
	return out, nil
}
