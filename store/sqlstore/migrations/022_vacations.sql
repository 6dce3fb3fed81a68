-- Each account's latest vacation from its correspondence games (package
-- account): it runs from vacation_start_ms and ends before
-- vacation_until_ms (0 for none taken), and vacation_used is the days
-- taken in the calendar year vacation_year, out of the yearly allowance.
ALTER TABLE users ADD COLUMN vacation_start_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_until_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_year INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_used INTEGER NOT NULL DEFAULT 0;
