package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"

	"emergo/round"
)

// Invitations. The open seat of a friend game is kept for the friend its
// creator sends the link to: the link carries a secret after '#', which a
// browser sends to no server (not in requests, logs or Referer headers),
// and the page sends it with the request to join. The store keeps only
// the secret's hash. The secret is made from the creator's own cookie and
// the game, so that his page can show the link again whenever he looks,
// and nobody else can make it. A game stored without an invitation (before
// there were any) may be joined by anyone with its link.

// inviteSecret is the invitation to game id that the holder of cookie
// (the value of his emergo_id cookie) sends.
func inviteSecret(cookie, id string) string {
	mac := hmac.New(sha256.New, []byte(cookie))
	mac.Write([]byte("emergo invitation " + id))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:16])
}

// invites reports, in constant time, whether secret is the invitation
// whose hash is want.
func invites(want, secret string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(hashToken(secret)), []byte(want)) == 1
}

// invitation returns the invitation of r that the holder of cookie may
// send, his own, while it keeps a seat open: "" for anyone else, and when
// there is none.
func invitation(r *round.Round, cookie string) string {
	if r.Invite == "" || cookie == "" || r.Game.Over() {
		return ""
	}
	if secret := inviteSecret(cookie, r.ID); invites(r.Invite, secret) {
		return secret
	}
	return ""
}
