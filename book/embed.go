package book

import (
	"bytes"
	"embed"
	"fmt"
	"sync"
)

// data holds the books built into the program, one a board size, as
// `emergo book build` wrote them (README.md gives their commands; the
// header of each says its Config too).
//
//go:embed data/book9.gz data/book7.gz
var data embed.FS

var embedded = sync.OnceValues(func() (map[int]*Book, error) {
	books := map[int]*Book{}
	for _, size := range []int{9, 7} {
		raw, err := data.ReadFile(fmt.Sprintf("data/book%d.gz", size))
		if err != nil {
			return nil, err
		}
		b, err := Read(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("book: the embedded %dx%d book: %w", size, size, err)
		}
		if b.Config.Size != size {
			return nil, fmt.Errorf("book: the embedded %dx%d book is of size %d", size, size, b.Config.Size)
		}
		books[size] = b
	}
	return books, nil
})

// Embedded returns the book of the board size (9 or 7) built into the
// program, nil for another size. It panics if the embedded books do not
// read: they are part of the build, and a test reads them.
func Embedded(size int) *Book {
	books, err := embedded()
	if err != nil {
		panic(err)
	}
	return books[size]
}
