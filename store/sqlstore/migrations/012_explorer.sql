-- The opening explorer's index of the site's finished games (package
-- explorer). explorer_games marks every game with a result once it is
-- indexed, those that do not count too (with positions 0), so that the
-- backfill at a server's start finds the others. explorer_moves holds,
-- for each position of the first plies of a game that counts, its key
-- (book.Key, a 64-bit hash, stored as a signed integer), the move played
-- from it and the game's result. A game is in it once for a position. The
-- explorer counts a position's moves and results in
-- explorer_moves_position alone. (No semicolon in comments: the
-- statements are split at them.)
CREATE TABLE explorer_games (
	game_id   TEXT PRIMARY KEY,
	positions INTEGER NOT NULL
);

CREATE TABLE explorer_moves (
	game_id TEXT NOT NULL,
	ply     INTEGER NOT NULL,
	pos_key BIGINT NOT NULL,
	move    TEXT NOT NULL,
	result  TEXT NOT NULL,
	PRIMARY KEY (game_id, ply)
);

CREATE INDEX explorer_moves_position ON explorer_moves (pos_key, move, result);
