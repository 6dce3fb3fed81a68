package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

func init() {
	register("legal", "list the legal moves after a sequence of moves", runLegal)
}

func runLegal(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("legal", "[MOVE...]",
		"Prints the legal moves after the given moves, one per line, in byte order.\n"+
			"With -batch, reads one move sequence per line from standard input and prints\n"+
			"one line per input line: the legal moves separated by spaces, an empty line\n"+
			"when the game is over, or \"error: move N ...\" naming the first illegal move.", stderr)
	bf := addBoardFlags(fs)
	batch := fs.Bool("batch", false, "read move sequences from standard input, one per line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	gm, err := bf.game()
	if err != nil {
		return err
	}
	if *batch {
		if fs.NArg() > 0 {
			return usageError{"-batch reads moves from standard input; give none as arguments"}
		}
		return legalBatch(gm, stdin, stdout)
	}
	if err := notation.PlayMoves(gm, fs.Args()); err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, m := range notation.SortedMoves(gm.Geometry(), gm.Legal()) {
		fmt.Fprintln(w, m)
	}
	if o := gm.Outcome(); o.Over() {
		fmt.Fprintf(stderr, "game over: %s\n", o)
	}
	return w.Flush()
}

// legalBatch answers one line per input line. Output is flushed whenever
// no more input is already buffered, so a caller that writes a line and
// waits for the answer is served at once, and a piped file at full speed.
// Checkers often send every prefix of a game in turn, so the game of the
// previous line is kept and only the moves after the common prefix are
// taken back and played: a game of n plies costs O(n), not O(n²).
func legalBatch(gm *rules.Game, stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReaderSize(stdin, 1<<16)
	out := bufio.NewWriterSize(stdout, 1<<16)
	var line strings.Builder
	var played []string // the input texts of the moves gm holds
	for {
		chunk, isPrefix, err := in.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		line.Write(chunk)
		if isPrefix {
			continue
		}
		moves := moveFields(line.String())
		k := 0
		for k < len(played) && k < len(moves) && played[k] == moves[k] {
			k++
		}
		for len(played) > k {
			gm.Undo()
			played = played[:len(played)-1]
		}
		err = playFrom(gm, moves, k)
		played = append(played, moves[k:gm.Len()]...)
		if err != nil {
			fmt.Fprintf(out, "error: %v\n", err)
		} else {
			writeLegalLine(out, gm)
		}
		line.Reset()
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
	return out.Flush()
}

func writeLegalLine(w *bufio.Writer, gm *rules.Game) {
	for i, m := range notation.SortedMoves(gm.Geometry(), gm.Legal()) {
		if i > 0 {
			w.WriteByte(' ')
		}
		w.WriteString(m)
	}
	w.WriteByte('\n')
}
