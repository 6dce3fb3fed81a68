-- Rated games and the ratings they make: whether a game is rated, each
-- account's Glicko-2 rating in each pool (a board size and a speed, "live"
-- or "correspondence"), and a row of history per player of every rated
-- game, which is also what makes a game rated only once. A user_id is an
-- account's (users.id), as in games' white_user and black_user. (No
-- semicolon in comments: the statements are split at them.)
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
	user_id    BIGINT NOT NULL,
	size       INTEGER NOT NULL,
	speed      TEXT NOT NULL,
	rating     DOUBLE PRECISION NOT NULL,
	deviation  DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	games      INTEGER NOT NULL,
	last_ms    BIGINT NOT NULL,
	PRIMARY KEY (user_id, size, speed)
);

CREATE TABLE rating_history (
	game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	user_id       BIGINT NOT NULL,
	size          INTEGER NOT NULL,
	speed         TEXT NOT NULL,
	at_ms         BIGINT NOT NULL,
	rating_before DOUBLE PRECISION NOT NULL,
	rating_after  DOUBLE PRECISION NOT NULL,
	deviation     DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_user ON rating_history (user_id, size, speed, at_ms);
