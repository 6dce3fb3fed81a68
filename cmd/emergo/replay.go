package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"emergo/record"
)

func init() {
	register("replay", "check a record file and print each game's result", runReplay)
}

func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "FILE",
		"Replays every game of a record file (PGN-style, an Abstract Play JSON record or\n"+
			"an array of them; the content decides, not the name) with the rules, and\n"+
			"prints each game's result and how it ended. Stops at the first error, naming\n"+
			"the game, the move and the reason.", stderr)
	lenient := fs.Bool("lenient", false, "keep a game that goes on after our rules end it (Abstract Play has no\nrepetition rule), or ends with a result they contradict, as played, and say\nwhere our rules end it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"replay needs one FILE"}
	}
	path := fs.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	recs, err := record.ReadOptions{Lenient: *lenient}.ReadAll(data)
	if errors.Is(err, record.ErrRulesEnd) {
		return fmt.Errorf("%s: %w: emergo replay -lenient %[1]s", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i, rec := range recs {
		gm, err := rec.Game()
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", path, i+1, err)
		}
		how := rec.Tag("Termination")
		end := rec.Tag(record.RulesEnd)
		if o := gm.Outcome(); o.Over() && end == "" {
			how = o.Reason.String()
		}
		if how == "" {
			how = "not finished on the board"
		}
		// A ply is one player's move; the record's moves are numbered in
		// pairs, so "39 moves" would read as twice the game it is.
		fmt.Fprintf(stdout, "game %d: %s - %s: %s (%s), %s",
			i+1, rec.Tag("White"), rec.Tag("Black"), rec.Result, how, plural(len(rec.Moves), "ply/plies"))
		if end != "" {
			fmt.Fprintf(stdout, "; our rules end it at %s", end)
		}
		fmt.Fprintln(stdout)
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no games", path)
	}
	return nil
}
