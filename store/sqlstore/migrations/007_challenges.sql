-- The lobby's challenges: open to every account (to_user and to_token
-- empty), to one account, or a rematch of a game (rematch, to a guest by
-- the hash of its seat token too). A challenge is pending until
-- expires_ms, or until it is accepted (game_id: the game it became),
-- declined or withdrawn (status, at updated_ms). color is the
-- challenger's: 0 random, 1 white, 2 black. (No semicolon in comments:
-- the statements are split at them.)
CREATE TABLE challenges (
	id           TEXT PRIMARY KEY,
	from_user    BIGINT NOT NULL,
	from_token   TEXT NOT NULL,
	from_name    TEXT NOT NULL,
	to_user      BIGINT NOT NULL,
	to_token     TEXT NOT NULL,
	to_name      TEXT NOT NULL,
	size         INTEGER NOT NULL,
	initial_ms   BIGINT NOT NULL,
	increment_ms BIGINT NOT NULL,
	days         INTEGER NOT NULL,
	rated        INTEGER NOT NULL,
	color        INTEGER NOT NULL,
	rematch      TEXT NOT NULL,
	status       TEXT NOT NULL,
	game_id      TEXT NOT NULL,
	created_ms   BIGINT NOT NULL,
	expires_ms   BIGINT NOT NULL,
	updated_ms   BIGINT NOT NULL
);

CREATE INDEX challenges_status ON challenges (status, expires_ms);
CREATE INDEX challenges_updated ON challenges (updated_ms);
CREATE INDEX challenges_rematch ON challenges (rematch);
