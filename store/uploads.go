package store

import (
	"context"
	"time"
)

// Upload is what a store keeps beside the game of an uploaded record
// (mode "analysis"), so that the uploads' storage is bounded and those
// nobody opens expire.
type Upload struct {
	// Digest identifies the record's game, its content and not its ID
	// (the site's is the SHA-256 of the game as it keeps it, in hex): a
	// record uploaded twice is stored once.
	Digest string
	// Size is what the upload counts against the uploads' bound, in
	// bytes: UploadSize of its game.
	Size int64
}

// UploadSize estimates the bytes that g takes in a store: a KiB for the
// game's row and its indexes, and 64 bytes and its text for each move
// (SQLite takes about 70 bytes for a move of 5 characters). The migration
// that made the uploads' table counts the uploads stored before it so.
func UploadSize(g *Game) int64 {
	n := int64(1024)
	for _, m := range g.Moves {
		n += 64 + int64(len(m.Text))
	}
	return n
}

// Uploads keeps the uploaded records: their games, as Store keeps any,
// and beside each its Upload and when it was last opened.
type Uploads interface {
	// CreateUpload stores g, an uploaded record, with u, opened at
	// g.Created, unless an upload of u.Digest is stored already: then it
	// stores nothing. It returns the ID of the upload's game, g's or the
	// one stored before. Then, while the uploads' Sizes add up to more
	// than limit (0 or less: no limit), it deletes the others, the least
	// recently opened first, and returns their IDs.
	CreateUpload(ctx context.Context, g *Game, u Upload, limit int64) (id string, deleted []string, err error)
	// UploadOpened returns when the upload of the game id was last
	// opened; ErrNotFound for a game that is not an upload.
	UploadOpened(ctx context.Context, id string) (time.Time, error)
	// OpenUpload notes that the upload of the game id was opened at t;
	// nothing for a game that is not an upload.
	OpenUpload(ctx context.Context, id string, t time.Time) error
	// ExpireUploads deletes the uploads last opened before before, at
	// most limit of them, the least recently opened first, and returns
	// their IDs.
	ExpireUploads(ctx context.Context, before time.Time, limit int) ([]string, error)
	// UploadBytes returns the sum of the stored uploads' Sizes.
	UploadBytes(ctx context.Context) (int64, error)
}
