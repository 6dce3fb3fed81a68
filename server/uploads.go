package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"emergo/round"
	"emergo/store"
	"emergo/throttle"
)

// The bounds of the uploaded records (POST /api/records), beside the
// Config's: each client's uploads an hour (UploadLimit), the bytes they
// take in the store (UploadStorage) and how long one nobody opens is
// kept (UploadIdle).

// maxUploadPlies is the longest record the site takes, in plies: more
// than any game played (the engines' self-play games end by 300), and
// little enough that a game the site holds in memory costs some 35 KB.
const maxUploadPlies = 1000

// expireBatch bounds the uploads that one query of the sweep deletes.
const expireBatch = 1000

// errNoUploads is the answer to an upload when the store keeps none.
var errNoUploads = failure(http.StatusServiceUnavailable, codeNoUploads, "this server does not keep uploaded records")

// uploadThrottles count the uploads of each client: by its address
// (clientKey), and by its account when it is logged in, in the
// Throttles, so that the bound holds across the servers of a site.
type uploadThrottles struct {
	address, account throttle.Limiter
}

func newUploadThrottles(st throttle.Store, l throttle.Limit) uploadThrottles {
	return uploadThrottles{st.Limiter("upload-address", l), st.Limiter("upload-account", l)}
}

// takeUpload counts an upload of r's client, or refuses it: 429 with
// the minutes to wait, and Retry-After.
func (s *Server) takeUpload(r *request) error {
	ctx, now := r.Context(), s.now()
	addr := clientKey(r.Request)
	wait, err := s.uploadLimits.address.Take(ctx, addr, now)
	if err == nil && wait == 0 && r.user != nil {
		account := strconv.FormatInt(r.user.ID, 10)
		if wait, err = s.uploadLimits.account.Take(ctx, account, now); err != nil || wait > 0 {
			if err := s.uploadLimits.address.Give(ctx, addr); err != nil {
				s.log.Error("upload throttle", "err", err)
			}
		}
	}
	if err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("upload throttle", "err", err)
		return errStorage
	}
	if wait == 0 {
		return nil
	}
	secs := int((wait + time.Second - 1) / time.Second)
	minutes := (secs + 59) / 60
	r.w.Header().Set("Retry-After", strconv.Itoa(secs))
	return &apiError{http.StatusTooManyRequests, codeRecordTooMany,
		fmt.Sprintf("too many records uploaded: wait %s and try again", waitText(secs)), map[string]any{"n": minutes}}
}

// createUpload stores rd, an uploaded record, and answers with its game.
// The same record uploaded before is stored once: the answer is then the
// game stored before, 200 instead of 201. To keep the uploads within
// cfg.UploadStorage, the store deletes the least recently opened ones.
func (s *Server) createUpload(r *request, rd *round.Round) (int, any, error) {
	g := rd.Stored(rd.Created)
	u := store.Upload{Digest: uploadDigest(g), Size: store.UploadSize(g)}
	if u.Size > s.cfg.UploadStorage {
		return 0, nil, &apiError{http.StatusInsufficientStorage, codeRecordStorageFull,
			"the server has no room for a record this large", map[string]any{"size": u.Size, "max": s.cfg.UploadStorage}}
	}
	id, deleted, err := s.uploads.CreateUpload(r.Context(), g, u, s.cfg.UploadStorage)
	if err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("create upload", "game", rd.ID, "err", err)
		return 0, nil, errStorage
	}
	if len(deleted) > 0 {
		s.rounds.Deleted(deleted)
		s.log.Info("uploads deleted to make room", "games", len(deleted), "bound", s.cfg.UploadStorage)
	}
	v, err := s.rounds.Look(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	status := http.StatusOK
	if id == rd.ID {
		status = http.StatusCreated
		s.metrics.gamesCreated.Add(1)
		s.log.Info("game created", "game", id, "mode", rd.Mode, "size", rd.Game.Rules().Geometry().N, "plies", rd.Game.Len())
	}
	return status, s.state(v, r.viewer()), nil
}

// uploadDigest identifies an uploaded record by the game the site keeps
// of it: its board, its players' names, its moves and how it ended. Two
// uploads of one game, even from files that differ otherwise (another
// format, other tags or comments), are one record.
func uploadDigest(g *store.Game) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d %q\n%q %q\n%q %q\n", g.Size, g.Start, g.Seats[0].Name, g.Seats[1].Name, g.Result, g.Reason)
	for _, m := range g.Moves {
		fmt.Fprintf(h, "%s\n", m.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// expireUploads deletes the uploads that nobody has opened for
// cfg.UploadIdle, and forgets those this server holds.
func (s *Server) expireUploads() {
	before := s.now().Add(-s.cfg.UploadIdle)
	for {
		ids, err := s.uploads.ExpireUploads(s.ctx, before, expireBatch)
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("expire uploads", "err", err)
			}
			return
		}
		if len(ids) > 0 {
			s.rounds.Deleted(ids)
			s.log.Info("uploads expired", "games", len(ids), "idle", s.cfg.UploadIdle)
		}
		if len(ids) < expireBatch {
			return
		}
	}
}
