-- The lobby reads, for each viewer, the challenges he made and those made
-- to him, and counts a challenger's pending challenges when he posts one:
-- by the account (from_user, to_user), or for a guest by the hash of his
-- seat token (from_token, to_token). Each index leads with the party and
-- then narrows to the pending challenges not expired, so that neither a
-- viewer's read nor the count scans the answered ones of a busy account.
-- The open challenges (to_user 0, to_token empty) are read by
-- challenges_to_user too. (No semicolon in comments: the statements are
-- split at them.)
CREATE INDEX challenges_from_user ON challenges (from_user, status, expires_ms);
CREATE INDEX challenges_from_token ON challenges (from_token, status, expires_ms);
CREATE INDEX challenges_to_user ON challenges (to_user, status, expires_ms);
CREATE INDEX challenges_to_token ON challenges (to_token, status, expires_ms);
