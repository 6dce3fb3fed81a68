-- Games and their moves. Times are Unix milliseconds and durations
-- milliseconds, so the same schema serves SQLite and PostgreSQL.
CREATE TABLE games (
	id            TEXT PRIMARY KEY,
	size          INTEGER NOT NULL,
	start_pos     TEXT NOT NULL,
	created_ms    BIGINT NOT NULL,
	updated_ms    BIGINT NOT NULL,
	mode          TEXT NOT NULL,
	level         INTEGER NOT NULL,
	white_name    TEXT NOT NULL,
	white_token   TEXT NOT NULL,
	white_engine  INTEGER NOT NULL,
	black_name    TEXT NOT NULL,
	black_token   TEXT NOT NULL,
	black_engine  INTEGER NOT NULL,
	result        TEXT NOT NULL,
	reason        TEXT NOT NULL,
	draw_offer    INTEGER NOT NULL,
	take_back     INTEGER NOT NULL,
	initial_ms    BIGINT NOT NULL,
	increment_ms  BIGINT NOT NULL,
	white_left_ms BIGINT NOT NULL,
	black_left_ms BIGINT NOT NULL,
	turn_start_ms BIGINT NOT NULL,
	version       BIGINT NOT NULL
);

CREATE INDEX games_ongoing ON games (result);
CREATE INDEX games_updated ON games (updated_ms);

CREATE TABLE moves (
	game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply           INTEGER NOT NULL,
	text          TEXT NOT NULL,
	at_ms         BIGINT NOT NULL,
	white_left_ms BIGINT NOT NULL,
	black_left_ms BIGINT NOT NULL,
	PRIMARY KEY (game_id, ply)
);
