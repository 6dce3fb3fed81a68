-- Correspondence games: their days per move (0: a live game), and the time
-- by which the player to move must move (0: none runs), so that a server
-- finds the games whose time runs out without holding them in memory. The
-- seat tokens are indexed for a player's list of his games. (No semicolon
-- in comments: the statements are split at them.)
ALTER TABLE games ADD COLUMN days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN deadline_ms BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_deadline ON games (deadline_ms);
CREATE INDEX games_white_token ON games (white_token);
CREATE INDEX games_black_token ON games (black_token);
