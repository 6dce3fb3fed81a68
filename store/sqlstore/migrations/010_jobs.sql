-- The queue of engine work (package enginework): engine moves, answers a
-- game waits on, analysis. task and result are JSON. A job is queued,
-- running (claimed by worker until expires_ms, its lease, on its claim
-- number claims), or ended: done, failed (error says why) or dropped.
-- priority orders the queue (0 the games' jobs, 1 analysis), then
-- created_ms and id. client and account are who asked for an analysis,
-- which the limits count. An engine move is asked once per game version
-- while it is queued or running (jobs_move). (No semicolon in comments:
-- the statements are split at them.)
CREATE TABLE jobs (
	id          AUTO_ID,
	kind        TEXT NOT NULL,
	priority    INTEGER NOT NULL,
	task        TEXT NOT NULL,
	game_id     TEXT NOT NULL,
	version     BIGINT NOT NULL,
	client      TEXT NOT NULL,
	account     BIGINT NOT NULL,
	state       TEXT NOT NULL,
	claims      INTEGER NOT NULL,
	worker      TEXT NOT NULL,
	created_ms  BIGINT NOT NULL,
	started_ms  BIGINT NOT NULL,
	expires_ms  BIGINT NOT NULL,
	finished_ms BIGINT NOT NULL,
	result      TEXT NOT NULL,
	error       TEXT NOT NULL
);

CREATE INDEX jobs_queue ON jobs (state, priority, created_ms, id);
CREATE INDEX jobs_finished ON jobs (finished_ms);
CREATE UNIQUE INDEX jobs_move ON jobs (game_id, version) WHERE kind = 'move' AND state IN ('queued', 'running');
