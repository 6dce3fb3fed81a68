-- Games against the engine: bounded per client and in total, and ended
-- when their person stops playing. client is the client key (the address,
-- or its /64: throttle.ClientKey) of the person who created an engine
-- game, kept while it goes on so that the engine games of a guest's
-- address are counted, and forgotten when it ends. person_turn_ms is
-- when the person's turn began in an engine game without a clock that
-- goes on, while it is his (0 otherwise): the sweep of idle engine games
-- finds the games by it. Those going on when this runs are taken to wait
-- on their person from their turn's start: the sweep looks at each game
-- before it ends one. The engine games going on have an index of their
-- own, for the counts of the bound and the sweep, which read those alone:
-- its columns are the words of its condition, for which SQLite's planner
-- prefers it to the index of every game going on. (No semicolon in
-- comments: the statements are split at them.)
ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN person_turn_ms BIGINT NOT NULL DEFAULT 0;

UPDATE games SET person_turn_ms = turn_start_ms
	WHERE mode = 'engine' AND result = '*' AND reason = '' AND initial_ms = 0;

CREATE INDEX games_engine_ongoing ON games (mode, result, reason, created_ms)
	WHERE mode = 'engine' AND result = '*' AND reason = '';
