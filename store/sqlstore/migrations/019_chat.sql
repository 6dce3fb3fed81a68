-- The chat of the games (package chat): each game's lines, both rooms,
-- the latest KeepLines of them kept (chat_lines_game reads them and finds
-- the oldest to delete). muted says that the writer was muted then: the
-- line is shown to him alone. name is the writer's username as it was.
CREATE TABLE chat_lines (
	id      AUTO_ID,
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	room    TEXT NOT NULL,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	text    TEXT NOT NULL,
	muted   INTEGER NOT NULL DEFAULT 0,
	at_ms   BIGINT NOT NULL
);

CREATE INDEX chat_lines_game ON chat_lines (game_id, id);

-- Who blocks whom: the blocker no longer sees the chat of the blocked,
-- nor his challenges. Read by the blocker.
CREATE TABLE chat_blocks (
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	blocked_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_ms BIGINT NOT NULL,
	PRIMARY KEY (user_id, blocked_id)
);

-- The reports for the moderators: by whom, about whom, in which game
-- (empty for none), why.
CREATE TABLE chat_reports (
	id         AUTO_ID,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	about_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	game_id    TEXT NOT NULL,
	reason     TEXT NOT NULL,
	created_ms BIGINT NOT NULL
);

-- The moderators and the muted accounts: a row only for an account
-- that is, or was, either.
CREATE TABLE chat_standing (
	user_id   BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	moderator INTEGER NOT NULL DEFAULT 0,
	muted     INTEGER NOT NULL DEFAULT 0
)
