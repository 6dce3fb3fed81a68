-- The invitations that wait: friend games that go on with a seat open
-- (neither a token nor an account in it). Each creator has a bound on
-- those he has waiting, counted with the site's when he makes one, and
-- they are aborted when nobody takes them in time (the server's sweep).
-- Their creator's client key is kept in games.client (013), as an engine
-- game's, while the game goes on. Those waiting when this runs have none,
-- and are counted by their account or browser alone: the sweep aborts
-- the old ones all the same. They have an index of their own, for the
-- count and the sweep, which read those alone: its columns are the words
-- of its condition, for which SQLite's planner prefers it to the index of
-- every game going on. (No semicolon in comments: the statements are
-- split at them.)
CREATE INDEX games_invitations ON games (mode, result, reason, created_ms)
	WHERE mode = 'friend' AND result = '*' AND reason = '' AND ((white_token = '' AND white_user = 0) OR (black_token = '' AND black_user = 0));
