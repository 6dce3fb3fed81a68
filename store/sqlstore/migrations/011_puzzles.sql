-- Puzzles: the Glicko-2 rating of each puzzle that has been tried (a
-- puzzle without a row has its set's initial rating), each solver's
-- puzzle rating, and a row of every solver's first attempt at a puzzle,
-- which is what rates it once. A solver is "u:" and an account's id, or
-- "k:" and the key of a browser's cookie.
CREATE TABLE puzzle_ratings (
	puzzle_id  TEXT PRIMARY KEY,
	rating     DOUBLE PRECISION NOT NULL,
	deviation  DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	plays      INTEGER NOT NULL,
	last_ms    BIGINT NOT NULL
);

CREATE TABLE puzzle_solvers (
	solver     TEXT PRIMARY KEY,
	rating     DOUBLE PRECISION NOT NULL,
	deviation  DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	games      INTEGER NOT NULL,
	last_ms    BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
	solver        TEXT NOT NULL,
	puzzle_id     TEXT NOT NULL,
	at_ms         BIGINT NOT NULL,
	solved        INTEGER NOT NULL,
	rating_before DOUBLE PRECISION NOT NULL,
	rating_after  DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (solver, puzzle_id)
);
