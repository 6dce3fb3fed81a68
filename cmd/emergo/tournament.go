package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"emergo/tournament/pairing"
	"emergo/tournament/trf"
)

func init() {
	register("tournament", "pair a tournament's next round (FIDE Dutch system, Berger tables)", runTournament)
}

const tournamentUsage = "Usage: emergo tournament pair -system dutch FILE.trf          the next round of a Swiss tournament\n" +
	"       emergo tournament pair -system berger -players N -round R  round R of a round robin\n\n" +
	"Run 'emergo tournament pair -h' for the flags.\n"

func runTournament(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("tournament", tournamentUsage, []subcommand{{"pair", runTournamentPair}}, args, stdout, stderr)
}

func runTournamentPair(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tournament pair", "[FILE.trf]",
		"Prints a round's pairing as the pairing programs print it: the number of\n"+
			"pairs on the first line (the bye counted as one), then the start numbers\n"+
			"of White and Black a line, the pairing-allocated bye as \"ID 0\".\n\n"+
			"-system dutch reads a TRF-16 file (XXR, the number of rounds; the byes\n"+
			"already written for the next round are its absent players) and pairs\n"+
			"the next round by the FIDE Dutch system. -system berger prints round -round\n"+
			"of FIDE's Berger table for -players players (3 to 16), boards in the\n"+
			"table's order, the player who meets the dummy of an odd number with the bye.", stderr)
	system := fs.String("system", "dutch", "the pairing system: dutch or berger")
	players := fs.Int("players", 0, "berger: the number of players")
	round := fs.Int("round", 0, "berger: the round")
	double := fs.Bool("double", false, "berger: a double round robin (the second cycle with the colours reversed)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var pairs []pairing.Pair
	var err error
	switch *system {
	case "dutch":
		if fs.NArg() != 1 {
			return usageError{"tournament pair -system dutch needs one FILE.trf"}
		}
		data, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return err
		}
		t, err := trf.Read(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", fs.Arg(0), err)
		}
		if pairs, err = pairing.Dutch(t.Swiss()); err != nil {
			return fmt.Errorf("%s: %w", fs.Arg(0), err)
		}
	case "berger":
		if fs.NArg() != 0 {
			return usageError{"tournament pair -system berger takes no file"}
		}
		if pairs, err = pairing.Berger(*players, *round, *double); err != nil {
			return usageError{err.Error()}
		}
	default:
		return usageError{fmt.Sprintf("unknown pairing system %q: dutch or berger", *system)}
	}
	fmt.Fprintln(stdout, len(pairs))
	for _, p := range pairs {
		fmt.Fprintln(stdout, p.White, p.Black)
	}
	return nil
}
