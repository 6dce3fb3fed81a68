package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emergo/chat"
	"emergo/store"
	"emergo/tournament"
)

const tournamentColumns = `name, pairing_system, size, initial_ms, increment_ms, days, rated, start_ms, minutes, rounds, double_table,
	min_rating, max_rating, min_rated_games, invited, password, creator, creator_name, status, round, started_ms, ends_ms, created_ms, version`

// selectTournament reads the columns of tournamentColumns and the number
// of players.
const selectTournament = `SELECT id, ` + tournamentColumns + `,
	(SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = tournaments.id AND e.withdrawn = 0) FROM tournaments`

// scanner is a row or rows to scan.
type scanner interface{ Scan(dest ...any) error }

func scanTournament(row scanner) (*tournament.Tournament, error) {
	t := &tournament.Tournament{}
	var system, status, invited string
	var initial, inc, start, started, ends, created int64
	var rated, double int
	k := &t.Conditions
	err := row.Scan(&t.ID, &t.Name, &system, &t.Size, &initial, &inc, &t.Days, &rated, &start, &t.Minutes, &t.Rounds, &double,
		&k.MinRating, &k.MaxRating, &k.MinRatedGames, &invited, &k.Password, &t.Creator, &t.CreatorName, &status, &t.Round,
		&started, &ends, &created, &t.Version, &t.Players)
	if err != nil {
		return nil, err
	}
	t.System, t.Status = tournament.System(system), tournament.Status(status)
	t.Initial, t.Increment = time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond
	t.Rated, t.Double = rated != 0, double != 0
	t.Start, t.Started, t.Ends, t.Created = fromMS(start), fromMS(started), fromMS(ends), fromMS(created)
	if invited != "" {
		k.Invited = strings.Split(invited, "\n")
	}
	return t, nil
}

// CreateTournament implements tournament.Store.
func (s *DB) CreateTournament(ctx context.Context, t *tournament.Tournament, admit func(tournament.Counts) error) error {
	count := s.rebind(`SELECT
		(SELECT COUNT(*) FROM tournaments WHERE creator = ? AND status IN (?, ?, ?)),
		(SELECT COUNT(*) FROM tournaments WHERE creator = ? AND created_ms > ?),
		(SELECT COUNT(*) FROM tournaments WHERE status IN (?, ?, ?))`)
	open := []any{string(tournament.Created), string(tournament.Running), string(tournament.Paused)}
	insert := s.rebind(`INSERT INTO tournaments (id, ` + tournamentColumns + `) VALUES (?` + strings.Repeat(", ?", 24) + `)`)
	k := t.Conditions
	err := s.serialized(ctx, tournamentsLock, func(tx *sql.Tx) error {
		var c tournament.Counts
		args := append(append([]any{t.Creator}, open...), t.Creator, ms(t.Created.Add(-tournament.Day)))
		if err := tx.QueryRowContext(ctx, count, append(args, open...)...).Scan(&c.Open, &c.Day, &c.Site); err != nil {
			return fmt.Errorf("sqlstore: create tournament: count: %w", err)
		}
		if err := admit(c); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, insert, t.ID, t.Name, string(t.System), t.Size, dms(t.Initial), dms(t.Increment), t.Days,
			b2i(t.Rated), ms(t.Start), t.Minutes, t.Rounds, b2i(t.Double), k.MinRating, k.MaxRating, k.MinRatedGames,
			strings.Join(k.Invited, "\n"), k.Password, t.Creator, t.CreatorName, string(t.Status), t.Round,
			ms(t.Started), ms(t.Ends), ms(t.Created), 1)
		if err != nil {
			return fmt.Errorf("sqlstore: create tournament: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	t.Version = 1
	return nil
}

// Tournament implements tournament.Store.
func (s *DB) Tournament(ctx context.Context, id string) (*tournament.Tournament, error) {
	t, err := scanTournament(s.db.QueryRowContext(ctx, s.rebind(selectTournament+` WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tournament.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: tournament %s: %w", id, err)
	}
	return t, nil
}

// TournamentVersion implements tournament.Store.
func (s *DB) TournamentVersion(ctx context.Context, id string) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT version FROM tournaments WHERE id = ?`), id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, tournament.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("sqlstore: tournament %s: %w", id, err)
	}
	return v, nil
}

// Tournaments implements tournament.Store.
func (s *DB) Tournaments(ctx context.Context, finished int) ([]*tournament.Tournament, error) {
	q := s.rebind(selectTournament + ` WHERE status IN (?, ?, ?) ORDER BY start_ms, created_ms`)
	out, err := s.tournaments(ctx, q, string(tournament.Created), string(tournament.Running), string(tournament.Paused))
	if err != nil {
		return nil, err
	}
	q = s.rebind(selectTournament + ` WHERE status IN (?, ?) ORDER BY created_ms DESC LIMIT ?`)
	over, err := s.tournaments(ctx, q, string(tournament.Finished), string(tournament.Cancelled), finished)
	return append(out, over...), err
}

func (s *DB) tournaments(ctx context.Context, q string, args ...any) ([]*tournament.Tournament, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: tournaments: %w", err)
	}
	defer rows.Close()
	var out []*tournament.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: tournaments: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// UpdateTournament implements tournament.Store.
func (s *DB) UpdateTournament(ctx context.Context, t *tournament.Tournament) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE tournaments SET status = ?, rounds = ?, started_ms = ?, ends_ms = ?, version = version + 1
			WHERE id = ? AND version = ?`), string(t.Status), t.Rounds, ms(t.Started), ms(t.Ends), t.ID, t.Version)
		return changedOne(res, err, "tournament "+t.ID)
	})
	if err != nil {
		return err
	}
	t.Version++
	return nil
}

// changedOne turns the result of a conditional write into nil for one
// row changed, tournament.ErrConflict for none.
func changedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	if n == 0 {
		return tournament.ErrConflict
	}
	return nil
}

// bump raises tournament id's version in tx; on PostgreSQL it also
// locks its row until tx ends, so that the writes of one tournament's
// entries and pairings queue one after the other.
func (s *DB) bump(ctx context.Context, tx *sql.Tx, id string) error {
	res, err := tx.ExecContext(ctx, s.rebind(`UPDATE tournaments SET version = version + 1 WHERE id = ?`), id)
	if err := changedOne(res, err, "tournament "+id); err != nil {
		if errors.Is(err, tournament.ErrConflict) {
			return tournament.ErrNotFound
		}
		return err
	}
	return nil
}

// Enter implements tournament.Store.
func (s *DB) Enter(ctx context.Context, id string, e tournament.Entry, max int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := s.bump(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE tournament_entries SET withdrawn = 0 WHERE tournament_id = ? AND user_id = ?`), id, e.User)
		if err := changedOne(res, err, "enter "+id); !errors.Is(err, tournament.ErrConflict) {
			return err // taken back, or an error
		}
		var n int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?`), id).Scan(&n); err != nil {
			return fmt.Errorf("sqlstore: enter %s: %w", id, err)
		}
		if n >= max {
			return tournament.ErrFull
		}
		_, err = tx.ExecContext(ctx, s.rebind(`INSERT INTO tournament_entries (tournament_id, user_id, name, bot, rating, joined_ms, withdrawn)
			VALUES (?, ?, ?, ?, ?, ?, 0)`), id, e.User, e.Name, b2i(e.Bot), e.Rating, ms(e.Joined))
		if err != nil {
			return fmt.Errorf("sqlstore: enter %s: %w", id, err)
		}
		return nil
	})
}

// Withdraw implements tournament.Store.
func (s *DB) Withdraw(ctx context.Context, id string, user int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := s.bump(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?
			AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = ?)`), id, user, id, string(tournament.Created))
		if err == nil {
			_, err = tx.ExecContext(ctx, s.rebind(`UPDATE tournament_entries SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ?`), id, user)
		}
		if err != nil {
			return fmt.Errorf("sqlstore: withdraw from %s: %w", id, err)
		}
		return nil
	})
}

// Entries implements tournament.Store.
func (s *DB) Entries(ctx context.Context, id string) ([]tournament.Entry, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT user_id, name, bot, rating, joined_ms, withdrawn FROM tournament_entries
		WHERE tournament_id = ? ORDER BY joined_ms, user_id`), id)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: entries of %s: %w", id, err)
	}
	defer rows.Close()
	var out []tournament.Entry
	for rows.Next() {
		var e tournament.Entry
		var bot, withdrawn int
		var joined int64
		if err := rows.Scan(&e.User, &e.Name, &bot, &e.Rating, &joined, &withdrawn); err != nil {
			return nil, fmt.Errorf("sqlstore: entries of %s: %w", id, err)
		}
		e.Bot, e.Withdrawn, e.Joined = bot != 0, withdrawn != 0, fromMS(joined)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Pairings implements tournament.Store.
func (s *DB) Pairings(ctx context.Context, id string) ([]tournament.Pairing, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT round, board, white, black, game_id, result FROM tournament_pairings
		WHERE tournament_id = ? ORDER BY round, board`), id)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: pairings of %s: %w", id, err)
	}
	defer rows.Close()
	var out []tournament.Pairing
	for rows.Next() {
		var p tournament.Pairing
		if err := rows.Scan(&p.Round, &p.Board, &p.White, &p.Black, &p.Game, &p.Result); err != nil {
			return nil, fmt.Errorf("sqlstore: pairings of %s: %w", id, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Pair implements tournament.Store.
func (s *DB) Pair(ctx context.Context, id string, round int, ps []tournament.Pairing, games []*store.Game) error {
	insert := s.rebind(`INSERT INTO tournament_pairings (tournament_id, round, board, white, black, game_id, result) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE tournaments SET round = round + 1, version = version + 1 WHERE id = ? AND round = ?`), id, round-1)
		if err := changedOne(res, err, "pair "+id); err != nil {
			return err
		}
		for _, g := range games {
			if err := s.create(ctx, tx, g); err != nil {
				return err
			}
		}
		for _, p := range ps {
			if _, err := tx.ExecContext(ctx, insert, id, round, p.Board, p.White, p.Black, p.Game, p.Result); err != nil {
				return fmt.Errorf("sqlstore: pair %s round %d: %w", id, round, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, g := range games {
		g.Version = 1
	}
	return nil
}

// Record implements tournament.Store.
func (s *DB) Record(ctx context.Context, id string, round, board int, result string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE tournament_pairings SET result = ?
			WHERE tournament_id = ? AND round = ? AND board = ? AND result = ?`), result, id, round, board, tournament.Pending)
		if err := changedOne(res, err, "record "+id); err != nil {
			if errors.Is(err, tournament.ErrConflict) {
				return nil // recorded already
			}
			return err
		}
		return s.bump(ctx, tx, id)
	})
}

// Ended implements tournament.Store.
func (s *DB) Ended(ctx context.Context) ([]tournament.Ended, error) {
	return s.pendingGames(ctx, "ended", `(g.result <> '*' OR g.reason <> '')`)
}

// Unstarted implements tournament.Store.
func (s *DB) Unstarted(ctx context.Context, before time.Time) ([]tournament.Ended, error) {
	return s.pendingGames(ctx, "unstarted", `g.result = '*' AND g.reason = '' AND g.days = 0 AND g.created_ms < ?
		AND (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) < 2`, ms(before))
}

// pendingGames returns the pairings without a result whose game meets
// cond.
func (s *DB) pendingGames(ctx context.Context, what, cond string, args ...any) ([]tournament.Ended, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT p.tournament_id, p.round, p.board, p.game_id, p.white, p.black, g.result,
			(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)
		FROM tournament_pairings p JOIN games g ON g.id = p.game_id
		WHERE p.result = ? AND `+cond), append([]any{tournament.Pending}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %s tournament games: %w", what, err)
	}
	defer rows.Close()
	var out []tournament.Ended
	for rows.Next() {
		var e tournament.Ended
		if err := rows.Scan(&e.Tournament, &e.Round, &e.Board, &e.Game, &e.White, &e.Black, &e.Result, &e.Plies); err != nil {
			return nil, fmt.Errorf("sqlstore: %s tournament games: %w", what, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// AddChatLine implements tournament.Store.
func (s *DB) AddChatLine(ctx context.Context, l *chat.Line, keep int) error {
	add := s.rebind(`INSERT INTO tournament_chat (tournament_id, user_id, name, text, muted, at_ms)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`)
	trim := s.rebind(`DELETE FROM tournament_chat WHERE tournament_id = ? AND id <= (
		SELECT id FROM tournament_chat WHERE tournament_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`)
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := s.bump(ctx, tx, l.Game); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, add, l.Game, l.User, l.Name, l.Text, b2i(l.Muted), ms(l.Time)).Scan(&l.ID); err != nil {
			return fmt.Errorf("sqlstore: add a tournament chat line: %w", err)
		}
		if _, err := tx.ExecContext(ctx, trim, l.Game, l.Game, keep); err != nil {
			return fmt.Errorf("sqlstore: trim a tournament's chat: %w", err)
		}
		return nil
	})
}

// ChatLines implements tournament.Store.
func (s *DB) ChatLines(ctx context.Context, id string, n int) ([]chat.Line, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT id, tournament_id, user_id, name, text, muted, at_ms FROM tournament_chat
		WHERE tournament_id = ? ORDER BY id DESC LIMIT ?`), id, n)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: the chat of %s: %w", id, err)
	}
	defer rows.Close()
	var out []chat.Line
	for rows.Next() {
		l := chat.Line{Room: chat.Spectators}
		var muted int
		var at int64
		if err := rows.Scan(&l.ID, &l.Game, &l.User, &l.Name, &l.Text, &muted, &at); err != nil {
			return nil, fmt.Errorf("sqlstore: the chat of %s: %w", id, err)
		}
		l.Muted, l.Time = muted != 0, fromMS(at)
		out = append(out, l)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

var _ tournament.Store = (*DB)(nil)
