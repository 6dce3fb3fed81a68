-- Personal API tokens, and bot accounts. A token is kept by the SHA-256
-- of its secret, never the secret, with its owner's description and its
-- scopes (words separated by spaces). An account upgraded to a bot keeps
-- bot = 1 for good, and so do the seats it holds (white_bot, black_bot):
-- an account is upgraded before it plays any game, so every game it
-- holds a seat in is a bot's. A challenge open to every account is for
-- people alone unless allow_bots says bots may take it, and from_bot and
-- to_bot mark its parties that are bots. (No semicolon in comments: the
-- statements are split at them.)
CREATE TABLE api_tokens (
	id           TEXT PRIMARY KEY,
	token_hash   TEXT NOT NULL UNIQUE,
	user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	description  TEXT NOT NULL,
	scopes       TEXT NOT NULL,
	created_ms   BIGINT NOT NULL
);

CREATE INDEX api_tokens_user ON api_tokens (user_id);

ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN allow_bots INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN from_bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN to_bot INTEGER NOT NULL DEFAULT 0;
