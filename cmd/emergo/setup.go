package main

import (
	"errors"
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

// playFrom plays moves[first:] on gm, which holds moves[:first] already;
// the *notation.MovesError counts the moves from the first of the whole
// list.
func playFrom(gm *rules.Game, moves []string, first int) error {
	err := notation.PlayMoves(gm, moves[first:])
	var me *notation.MovesError
	if errors.As(err, &me) {
		me.Index += first
	}
	return err
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
