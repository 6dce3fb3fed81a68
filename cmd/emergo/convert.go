package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"emergo/record"
)

func init() {
	register("convert", "convert a record file to the PGN-style text or Abstract Play JSON", runConvert)
}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "IN OUT",
		"Reads every game of the record file IN, whatever its format (PGN-style, an\n"+
			"Abstract Play JSON record or an array of them, a MindSports move list; the\n"+
			"content decides, not the name), and writes them to OUT: Abstract Play JSON\n"+
			"if OUT ends in .json or .apjson, the PGN-style text otherwise, or as -to\n"+
			"says. Every tag the output can hold is kept; what it cannot hold (comments\n"+
			"and some tags in JSON) is named on standard error. IN or OUT - is standard\n"+
			"input or output.", stderr)
	to := fs.String("to", "", "the output's format, pgn or json, whatever OUT's name")
	lenient := fs.Bool("lenient", false, "keep a game that goes on after our rules end it, as played (see replay -h)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError{"convert needs IN and OUT"}
	}
	in, out := fs.Arg(0), fs.Arg(1)
	format := record.FormatFor(out)
	switch strings.ToLower(*to) {
	case "":
	case "pgn":
		format = record.PGN
	case "json", "apjson":
		format = record.APJSON
	default:
		return usageError{fmt.Sprintf("-to %q: choose pgn or json", *to)}
	}
	var data []byte
	var err error
	if in == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(in)
	}
	if err != nil {
		return err
	}
	converted, warnings, err := record.ReadOptions{Lenient: *lenient}.Convert(data, format)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "emergo: convert: %s\n", strings.TrimPrefix(w.Error(), "record: "))
	}
	if out == "-" {
		_, err = stdout.Write(converted)
		return err
	}
	return writeFileAtomic(out, converted)
}
