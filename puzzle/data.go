package puzzle

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// The shipped sets, made by the commands in their first lines
// (README.md, "Puzzles").
//
//go:embed data/puzzles9.txt.gz data/puzzles7.txt.gz
var data embed.FS

// Collection is a set of puzzles of one board size with the criteria
// that verified them.
type Collection struct {
	Size     int
	Criteria Criteria
	Command  string // the command that made the set
	// Deep is the depth to which every puzzle was verified again after
	// the set was made (a line "# verified depth=N"), 0 if it was not:
	// a deeper search can find that another move holds too, or that the
	// solution does not win after all, and such puzzles were dropped.
	Deep    int
	Puzzles []Puzzle
	byID    map[string]int
}

// ByID returns the puzzle of id, or nil.
func (c *Collection) ByID(id string) *Puzzle {
	i, ok := c.byID[id]
	if !ok {
		return nil
	}
	return &c.Puzzles[i]
}

var sets struct {
	once sync.Once
	sets map[int]*Collection
	err  error
}

// Set returns the shipped set of board size 9 or 7, read once. It panics
// if the set embedded in the program is broken, which its tests rule out;
// a size without a set returns nil.
func Set(size int) *Collection {
	sets.once.Do(func() {
		sets.sets = map[int]*Collection{}
		for _, n := range []int{9, 7} {
			raw, err := data.ReadFile(fmt.Sprintf("data/puzzles%d.txt.gz", n))
			if err == nil {
				sets.sets[n], err = Read(bytes.NewReader(raw))
			}
			if err != nil {
				sets.err = fmt.Errorf("puzzle: the set of %dx%d: %w", n, n, err)
				return
			}
		}
	})
	if sets.err != nil {
		panic(sets.err)
	}
	return sets.sets[size]
}

// Read reads a set written by `emergo puzzles gen`, gzipped: its command,
// its criteria and its puzzles, all of one board size.
func Read(r io.Reader) (*Collection, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	c := &Collection{byID: map[string]int{}}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# criteria "); ok {
			if c.Criteria, err = ParseCriteria(rest); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# verified depth="); ok {
			if c.Deep, err = strconv.Atoi(rest); err != nil || c.Deep < 1 {
				return nil, fmt.Errorf("line %d: %q: want a depth", n, line)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			if c.Command == "" {
				c.Command = rest
			}
			continue
		}
		p, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch {
		case c.Size == 0:
			c.Size = p.Size()
		case p.Size() != c.Size:
			return nil, fmt.Errorf("line %d: puzzle %s is %dx%d in a set of %dx%d", n, p.ID, p.Size(), p.Size(), c.Size, c.Size)
		}
		if _, dup := c.byID[p.ID]; dup {
			return nil, fmt.Errorf("line %d: puzzle %s twice", n, p.ID)
		}
		c.byID[p.ID] = len(c.Puzzles)
		c.Puzzles = append(c.Puzzles, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if c.Criteria.Depth == 0 {
		return nil, fmt.Errorf("no criteria line")
	}
	return c, nil
}
