-- A player's games, the newest first, a page at a time: the games of an
-- account are found by its seat's column, in the order of their creation
-- time and ID, so that the page after a game (created, id) is one range of
-- each index. These replace the indexes of the seats' accounts alone.
DROP INDEX games_white_user;
DROP INDEX games_black_user;
CREATE INDEX games_white_user ON games (white_user, created_ms, id);
CREATE INDEX games_black_user ON games (black_user, created_ms, id);
