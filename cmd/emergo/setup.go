package main

import (
	"flag"
	"fmt"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// startGame returns a game from -position (if given) or from the empty
// board of -size. A size that contradicts the position is an error.
func startGame(size int, position string, sizeSet bool) (*rules.Game, error) {
	if strings.TrimSpace(position) != "" {
		p, err := notation.ParsePosition(position)
		if err != nil {
			return nil, err
		}
		if sizeSet && p.Geometry().N != size {
			return nil, usageError{fmt.Sprintf("-size %d contradicts the %dx%d position", size, p.Geometry().N, p.Geometry().N)}
		}
		return rules.NewGameFrom(p), nil
	}
	g := rules.GeometryOf(size)
	if g == nil {
		return nil, usageError{fmt.Sprintf("-size %d: the board is 9 or 7", size)}
	}
	return rules.NewGame(g), nil
}

// playMoves plays move texts on gm; the error names the first move that
// cannot be played, counted from 1, and why.
func playMoves(gm *rules.Game, moves []string) error { return playFrom(gm, moves, 0) }

// playFrom plays moves[first:] on gm, which holds moves[:first] already;
// errors count the moves from the first of the whole list.
func playFrom(gm *rules.Game, moves []string, first int) error {
	for i := first; i < len(moves); i++ {
		text := moves[i]
		if o := gm.Outcome(); o.Over() {
			return fmt.Errorf("move %d %q: the game is over (%s)", i+1, text, o)
		}
		p := gm.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			return fmt.Errorf("move %d %w", i+1, err)
		}
		if err := gm.Play(m); err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
	}
	return nil
}

// moveFields splits a line of moves, dropping move numbers such as "12."
// or "12..." so that movetext can be pasted as it is.
func moveFields(line string) []string {
	f := strings.Fields(line)
	out := f[:0]
	for _, s := range f {
		if t := strings.TrimRight(s, "."); t != s && t != "" && strings.Trim(t, "0123456789") == "" {
			continue
		}
		out = append(out, s)
	}
	return out
}

// wasSet reports whether the flag name was given on the command line.
func wasSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// boardFlags are the -size and -position flags that several commands share.
type boardFlags struct {
	fs       *flag.FlagSet
	size     int
	position string
}

func addBoardFlags(fs *flag.FlagSet) *boardFlags {
	b := &boardFlags{fs: fs}
	fs.IntVar(&b.size, "size", 9, "board size: 9 or 7")
	fs.StringVar(&b.position, "position", "", "start from this position text (docs/notation.md) instead of the empty board")
	return b
}

// game returns the game the flags describe.
func (b *boardFlags) game() (*rules.Game, error) {
	return startGame(b.size, b.position, wasSet(b.fs, "size"))
}
