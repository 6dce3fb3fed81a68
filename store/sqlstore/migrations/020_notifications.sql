-- What the site tells its players away from the game they look at
-- (package notify): each account's notifications, the latest
-- notify.Kept kept. unread_key is the type and game of a yourTurn while
-- it is unread, and NULL otherwise: the unique index keeps one unread
-- yourTurn a game (a later move takes its place), and leaves the others
-- alone, NULLs being distinct. (No semicolon in comments: the statements
-- are split at them.)
CREATE TABLE notifications (
	id         AUTO_ID,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	kind       TEXT NOT NULL,
	game_id    TEXT NOT NULL,
	from_user  BIGINT NOT NULL,
	created_ms BIGINT NOT NULL,
	is_read    INTEGER NOT NULL,
	unread_key TEXT
);

CREATE UNIQUE INDEX notifications_unread ON notifications (user_id, unread_key);
CREATE INDEX notifications_user ON notifications (user_id, created_ms);

-- The browsers that asked for Web Push, by their endpoint: one browser
-- is one account's at a time.
CREATE TABLE push_subscriptions (
	endpoint   TEXT PRIMARY KEY,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	p256dh     TEXT NOT NULL,
	auth       TEXT NOT NULL,
	created_ms BIGINT NOT NULL
);

CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id, created_ms);

-- Who follows whom.
CREATE TABLE follows (
	follower   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	followed   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_ms BIGINT NOT NULL,
	PRIMARY KEY (follower, followed)
);

CREATE INDEX follows_followed ON follows (followed, created_ms);

-- The site's VAPID keys (RFC 8292), when serve is given no file of them:
-- made by the first server that needs them, and shared by all, since a
-- browser's subscription holds the public key it was made with. Whoever
-- reads the database reads the subscriptions too, so the private key is
-- no more exposed here than they are.
CREATE TABLE vapid_keys (
	id          INTEGER PRIMARY KEY,
	public_key  TEXT NOT NULL,
	private_key TEXT NOT NULL
);
