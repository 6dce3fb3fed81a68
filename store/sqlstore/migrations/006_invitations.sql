-- The invitation that keeps the open seat of a friend game for the friend
-- it was sent to: the SHA-256 (hex) of its secret, never the secret, or ''
-- for a seat anyone with the game's link may take (the games stored before
-- invitations). (No semicolon in comments: the statements are split at
-- them.)
ALTER TABLE games ADD COLUMN invite TEXT NOT NULL DEFAULT '';
