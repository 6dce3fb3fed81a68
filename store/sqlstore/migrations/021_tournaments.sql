-- The site's tournaments (package tournament). A tournament's version
-- rises with every change of it, its entries and its pairings: the
-- servers' viewers poll it. round is the last round paired (an arena's
-- batches of pairings): a round is paired by the one write that raises
-- it from the round before. invited is the invited usernames, a line
-- each, and password the SHA-256 of the password, empty for none.
CREATE TABLE tournaments (
	id              TEXT PRIMARY KEY,
	name            TEXT NOT NULL,
	pairing_system  TEXT NOT NULL,
	size            INTEGER NOT NULL,
	initial_ms      BIGINT NOT NULL,
	increment_ms    BIGINT NOT NULL,
	days            INTEGER NOT NULL,
	rated           INTEGER NOT NULL,
	start_ms        BIGINT NOT NULL,
	minutes         INTEGER NOT NULL,
	rounds          INTEGER NOT NULL,
	double_table    INTEGER NOT NULL,
	min_rating      INTEGER NOT NULL,
	max_rating      INTEGER NOT NULL,
	min_rated_games INTEGER NOT NULL,
	invited         TEXT NOT NULL,
	password        TEXT NOT NULL,
	creator         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	creator_name    TEXT NOT NULL,
	status          TEXT NOT NULL,
	round           INTEGER NOT NULL,
	started_ms      BIGINT NOT NULL,
	ends_ms         BIGINT NOT NULL,
	created_ms      BIGINT NOT NULL,
	version         BIGINT NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status, start_ms);
CREATE INDEX tournaments_creator ON tournaments (creator, created_ms);

-- The players of each tournament: their rating in its pool when they
-- entered (it orders the start numbers), and whether they withdrew.
CREATE TABLE tournament_entries (
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	bot           INTEGER NOT NULL,
	rating        INTEGER NOT NULL,
	joined_ms     BIGINT NOT NULL,
	withdrawn     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament_id, user_id)
);

-- The boards of each round: black 0 is white's bye, game_id is empty for
-- a bye and a forfeit, and result '*' until the game ends.
CREATE TABLE tournament_pairings (
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	round         INTEGER NOT NULL,
	board         INTEGER NOT NULL,
	white         BIGINT NOT NULL,
	black         BIGINT NOT NULL,
	game_id       TEXT NOT NULL,
	result        TEXT NOT NULL,
	PRIMARY KEY (tournament_id, round, board)
);

CREATE INDEX tournament_pairings_result ON tournament_pairings (result);

-- The chat of each tournament, one room that every account writes in
-- and everyone reads, the latest lines kept (tournament.ChatKept). muted
-- says that the writer was muted then: the line is shown to him alone.
CREATE TABLE tournament_chat (
	id            AUTO_ID,
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	text          TEXT NOT NULL,
	muted         INTEGER NOT NULL DEFAULT 0,
	at_ms         BIGINT NOT NULL
);

CREATE INDEX tournament_chat_tournament ON tournament_chat (tournament_id, id)
