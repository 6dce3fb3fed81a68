-- The throttles' buckets, shared by every server on the database so that
-- a limit holds across them: the attempts of a subject (an account, an
-- address) under a named limit, as the time until which its bucket is
-- full (throttle.Limit.Take). A drained bucket counts nothing and is
-- pruned.
CREATE TABLE throttles (
	name     TEXT NOT NULL,
	subject  TEXT NOT NULL,
	full_ms  BIGINT NOT NULL,
	PRIMARY KEY (name, subject)
);

CREATE INDEX throttles_full ON throttles (full_ms);
