package round

import (
	"context"
	"errors"
	"time"

	"emergo/store"
)

// noteOpened notes in the store that the upload id, which lv holds, was
// opened by a request, at most once every Config.OpenedEvery: its last
// opening decides when it expires, and which ones make room at the
// storage bound.
func (k *Keeper) noteOpened(ctx context.Context, id string, lv *Live) {
	if !lv.upload {
		return
	}
	now := k.now().UnixNano()
	last := lv.opened.Load()
	if now-last < int64(k.cfg.OpenedEvery) || !lv.opened.CompareAndSwap(last, now) {
		return
	}
	if err := k.cfg.Uploads.OpenUpload(ctx, id, time.Unix(0, now)); err != nil {
		lv.opened.CompareAndSwap(now, last) // to be noted by the next request
		if ctx.Err() == nil {
			k.log.Error("note an upload opened", "game", id, "err", err)
		}
	}
}

// openedAt reads when the upload id was last opened, for lv, read from
// the store: or marks lv as no upload, for a game the store keeps no
// upload of.
func (k *Keeper) openedAt(ctx context.Context, id string, lv *Live) {
	at, err := k.cfg.Uploads.UploadOpened(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		lv.upload = false
	case err != nil:
		// Noted again an OpenedEvery from now at the latest.
		k.log.Error("read an upload's opening", "game", id, "err", err)
		lv.opened.Store(k.now().UnixNano())
	default:
		lv.opened.Store(at.UnixNano())
	}
}
