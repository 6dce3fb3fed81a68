-- Accounts and their sessions, and the account holding each seat (0: a
-- guest, whose seat is held by its token alone). AUTO_ID is the one word
-- that differs between the databases: an INTEGER PRIMARY KEY (the rowid)
-- on SQLite, an identity column on PostgreSQL.
CREATE TABLE users (
	id         AUTO_ID,
	name       TEXT NOT NULL,
	name_key   TEXT NOT NULL UNIQUE,
	password   TEXT NOT NULL,
	created_ms BIGINT NOT NULL
);

-- A session is kept by the SHA-256 of its token, never the token.
CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_ms BIGINT NOT NULL,
	expires_ms BIGINT NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);

ALTER TABLE games ADD COLUMN white_user BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_user BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_white_user ON games (white_user);
CREATE INDEX games_black_user ON games (black_user);
