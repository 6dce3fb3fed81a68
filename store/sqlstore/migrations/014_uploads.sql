-- The uploaded records, the games of mode analysis: each one's digest
-- (store.Upload: what makes a record uploaded twice stored once), its
-- size (store.UploadSize: what it counts against the uploads' storage
-- bound) and when it was last opened, by which the uploads nobody opens
-- expire and the least recently opened make room at the bound. The
-- uploads stored before get a row each: their digest their ID (the
-- digest of no record), opened when they were created. (No semicolon in
-- comments: the statements are split at them.)
CREATE TABLE uploads (
	game_id   TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	digest    TEXT NOT NULL UNIQUE,
	size      BIGINT NOT NULL,
	opened_ms BIGINT NOT NULL
);

CREATE INDEX uploads_opened ON uploads (opened_ms, game_id);

INSERT INTO uploads (game_id, digest, size, opened_ms)
	SELECT g.id, 'id:' || g.id,
		1024 + (SELECT COUNT(*) * 64 + COALESCE(SUM(LENGTH(m.text)), 0) FROM moves m WHERE m.game_id = g.id),
		g.created_ms
	FROM games g WHERE g.mode = 'analysis';
