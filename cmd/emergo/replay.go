package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"emergo/record"
)

func init() {
	register("replay", "check a record file and print each game's result", runReplay)
}

func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "FILE",
		"Replays every game of a record file (PGN-style, or Abstract Play JSON when the\n"+
			"name ends in .json) with the rules, and prints each game's result and how it\n"+
			"ended. Stops at the first error, naming the game, the move and the reason.", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"replay needs one FILE"}
	}
	recs, err := readRecords(fs.Arg(0))
	if err != nil {
		return err
	}
	for i, rec := range recs {
		gm, err := rec.Game()
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", fs.Arg(0), i+1, err)
		}
		how := rec.Tag("Termination")
		if o := gm.Outcome(); o.Over() {
			how = o.Reason.String()
		}
		if how == "" {
			how = "not finished on the board"
		}
		fmt.Fprintf(stdout, "game %d: %s - %s: %s (%s), %d moves\n",
			i+1, rec.Tag("White"), rec.Tag("Black"), rec.Result, how, len(rec.Moves))
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no games", fs.Arg(0))
	}
	return nil
}

// readRecords reads a record file: Abstract Play JSON if the name ends in
// .json or .apjson, the PGN-style text otherwise. The first bad game is an error.
func readRecords(path string) ([]record.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".json" || ext == ".apjson" {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		rec, err := record.ReadAPJSON(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return []record.Record{rec}, nil
	}
	var recs []record.Record
	dec := record.NewDecoder(f)
	for {
		var rec record.Record
		err := dec.Decode(&rec)
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		recs = append(recs, rec)
	}
}
