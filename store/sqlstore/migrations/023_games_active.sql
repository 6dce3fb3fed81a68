-- games.updated_ms changes at every move. While it had an index of its
-- own (for the recent games' list), no move's update could be a HOT one
-- on PostgreSQL: each wrote an entry in every index of games, and most of
-- PostgreSQL's work for a move was there. The list is now ordered by the
-- minute of the last change, which a game changes at most once a minute,
-- then by updated_ms among the games of that minute (an incremental sort).
ALTER TABLE games ADD COLUMN updated_min BIGINT GENERATED ALWAYS AS (updated_ms / 60000) COMPUTED;
DROP INDEX games_updated;
CREATE INDEX games_updated_min ON games (updated_min);
-- Room in each page for the next version of its rows, so that an update
-- stays in its page (HOT) without waiting for the page to be pruned.
POSTGRES ALTER TABLE games SET (fillfactor = 70);
