package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Every registered command answers -h with its usage and its flags, and
// exits 0.
func TestHelpOfEveryCommand(t *testing.T) {
	// A flag each command has, "" for none.
	cases := map[string]string{
		"admin":           "",
		"admin grant":     "-db",
		"admin reports":   "-n",
		"admin revoke":    "-db",
		"analyze":         "-depth",
		"bench":           "-hash",
		"book":            "",
		"book build":      "-games",
		"book show":       "-book",
		"bot":             "-engine",
		"convert":         "-to",
		"egtb":            "",
		"egtb gen":        "-size",
		"egtb probe":      "",
		"engine":          "-hash",
		"legal":           "-batch",
		"match":           "-p1",
		"perft":           "-divide",
		"play":            "-level",
		"puzzles":         "",
		"puzzles gen":     "-count",
		"puzzles verify":  "-threads",
		"replay":          "-lenient",
		"serve":           "-addr",
		"show":            "-size",
		"strength":        "-rows",
		"tournament":      "",
		"tournament pair": "-system",
		"tune":            "",
		"tune fit":        "-l2",
		"tune gen":        "-games",
		"tune spsa":       "-nodes",
		"worker":          "-threads",
	}
	for name := range commands {
		if _, ok := cases[name]; !ok {
			t.Errorf("command %q has no case here", name)
		}
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, h := range []string{"-h", "-help", "--help"} {
			args := append(strings.Fields(name), h)
			var stdout, stderr bytes.Buffer
			err := run(args, strings.NewReader(""), &stdout, &stderr)
			if code := report(err, args, &stderr); code != 0 {
				t.Errorf("emergo %s: exit %d, error %v", strings.Join(args, " "), code, err)
			}
			help := stderr.String()
			if !strings.HasPrefix(help, "Usage: emergo "+name+" ") {
				t.Errorf("emergo %s: the help does not start with its usage:\n%s", strings.Join(args, " "), help)
			}
			flagLine := cases[name]
			if flagLine != "" && !strings.Contains(help, "\nFlags:\n  "+flagLine) && !strings.Contains(help, "\n  "+flagLine+" ") {
				t.Errorf("emergo %s: the help lacks %s:\n%s", strings.Join(args, " "), flagLine, help)
			}
			if flagLine == "" && strings.Contains(help, "Flags:") {
				t.Errorf("emergo %s: a Flags heading without flags:\n%s", strings.Join(args, " "), help)
			}
			if strings.Contains(help, "emergo:") || stdout.Len() > 0 {
				t.Errorf("emergo %s: more than the help:\n%s%s", strings.Join(args, " "), stdout.String(), help)
			}
		}
	}
	var stderr bytes.Buffer
	if err := run([]string{"-h"}, nil, &bytes.Buffer{}, &stderr); err != nil || !strings.Contains(stderr.String(), "perft") {
		t.Errorf("emergo -h: %v\n%s", err, stderr.String())
	}
}

// Flags may come anywhere among the arguments, for every command.
func TestFlagsAnywhere(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		want  string // in the output, or in the error if usage or fail
		usage bool
		fail  bool
	}{
		{"after a move", []string{"show", "c3", "-size", "7"}, "Position: 7x7 b 7/8 c3:W1", false, false},
		{"after the depth", []string{"perft", "2", "-size", "7"}, "528\n", false, false},
		{"around the depth", []string{"perft", "-size", "7", "2", "-divide"}, "a1 23\n", false, false},
		{"with =", []string{"legal", "c3", "-size=7"}, "a1\n", false, false},
		{"between moves", []string{"legal", "c3", "-size", "7", "e3"}, "a1\n", false, false},
		{"a rule error, not a flag error", []string{"show", "d4", "-size", "7"}, `move 1 "d4": the first move may not be on the centre`, false, true},
		{"a negative number is an argument", []string{"perft", "-1"}, `depth "-1": want a number from 0 to 64`, true, true},
		{"-- ends the flags", []string{"perft", "--", "-size"}, `depth "-size"`, true, true},
		{"-- then a move", []string{"show", "-size", "7", "--", "c3"}, "c3:W1", false, false},
		{"a flag without its value", []string{"perft", "2", "-size"}, "perft: flag -size needs a value", true, true},
		{"an unknown flag", []string{"show", "c3", "-nosuch"}, "show: flag provided but not defined: -nosuch", true, true},
		{"a bad value", []string{"show", "-size", "x"}, `show: invalid value "x" for flag -size`, true, true},
		{"tune gen", []string{"tune", "gen", "extra", "-games", "1"}, `tune gen takes no arguments, got "extra"`, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, err := emergo(t, "", c.args...)
			switch {
			case !c.fail && err != nil:
				t.Fatalf("error %v\n%s", err, errs)
			case !c.fail && !strings.Contains(out, c.want):
				t.Errorf("output lacks %q:\n%s", c.want, out)
			case c.fail && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want one with %q", err, c.want)
			case c.fail && (exitCode(err) == 2) != c.usage:
				t.Errorf("error %v: exit code %d", err, exitCode(err))
			}
			if c.fail && errs != "" {
				t.Errorf("the command printed %q itself; main prints the error once", errs)
			}
		})
	}
}

// The analysis takes its flags after the record as well as before.
func TestAnalyzeFlagsAfterTheRecord(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "game.pgn")
	writeBlunderRecord(t, in)
	chart, out := filepath.Join(dir, "x.svg"), filepath.Join(dir, "y.pgn")
	if _, errs, err := emergo(t, "", "analyze", "-svg", chart, in, "-out", out, "-depth", "1"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	for _, f := range []string{chart, out} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}

// A command without flags says so by having no Flags heading.
func TestUsageWithoutFlags(t *testing.T) {
	var help bytes.Buffer
	fs := newFlags("t", "FILE", "A test.", &help)
	if err := parseFlags(fs, []string{"-h"}); err != flag.ErrHelp {
		t.Fatalf("-h: %v", err)
	}
	if got, want := help.String(), "Usage: emergo t FILE\n\nA test.\n"; got != want {
		t.Errorf("usage %q, want %q", got, want)
	}
}

func TestParseFlags(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // the flags' values and the arguments, or the error
	}{
		{"none", nil, "n=0 b=false s= []"},
		{"interleaved", []string{"x", "-n", "3", "y", "-b", "z"}, "n=3 b=true s= [x y z]"},
		{"a value that starts with -", []string{"-s", "-x", "a"}, "n=0 b=false s=-x [a]"},
		{"a negative value", []string{"-n", "-1", "a"}, "n=-1 b=false s= [a]"},
		{"a negative argument", []string{"-b", "-1"}, "n=0 b=true s= [-1]"},
		{"a bool does not take the next argument", []string{"-b", "false"}, "n=0 b=true s= [false]"},
		{"a bool with =", []string{"--b=false", "a"}, "n=0 b=false s= [a]"},
		{"--", []string{"a", "--", "-n", "2"}, "n=0 b=false s= [a -n 2]"},
		{"a lone -", []string{"-", "-n", "2"}, "n=2 b=false s= [-]"},
		{"the last flag wins", []string{"-n", "1", "a", "-n", "2"}, "n=2 b=false s= [a]"},
		{"unknown", []string{"a", "-x", "b"}, "t: flag provided but not defined: -x"},
		{"no value", []string{"a", "-n"}, "t: flag -n needs a value"},
		{"help", []string{"a", "-h"}, flag.ErrHelp.Error()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var usage bytes.Buffer
			fs := newFlags("t", "[ARG...]", "A test.", &usage)
			n := fs.Int("n", 0, "a number")
			b := fs.Bool("b", false, "a switch")
			s := fs.String("s", "", "a text")
			got := ""
			if err := parseFlags(fs, c.args); err != nil {
				got = err.Error()
			} else {
				got = fmt.Sprintf("n=%d b=%v s=%s %v", *n, *b, *s, fs.Args())
			}
			if got != c.want {
				t.Errorf("parseFlags(%q) = %s, want %s", c.args, got, c.want)
			}
			if help := c.name == "help"; help != (usage.Len() > 0) {
				t.Errorf("usage printed: %q", usage.String())
			}
		})
	}
}

// An error is printed once, and a usage error with where to find help.
func TestReport(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"success", []string{"perft", "1"}, "", 0},
		{"help", []string{"perft", "-h"}, "", 0},
		{"usage", []string{"perft", "-1"}, "emergo: depth \"-1\": want a number from 0 to 64\nRun 'emergo perft -h' for usage.\n", 2},
		{"usage of tune gen", []string{"tune", "gen", "-games", "0"}, "emergo: -games 0: at least one game\nRun 'emergo tune gen -h' for usage.\n", 2},
		{"usage of book build", []string{"book", "build", "-games", "0"}, "emergo: book: 0 games: at least one\nRun 'emergo book build -h' for usage.\n", 2},
		{"usage of book show", []string{"book", "show", "-size", "8"}, "emergo: -size 8: want 9 or 7\nRun 'emergo book show -h' for usage.\n", 2},
		{"usage of puzzles gen", []string{"puzzles", "gen", "-size", "8"}, "emergo: -size 8: want 9 or 7\nRun 'emergo puzzles gen -h' for usage.\n", 2},
		{"usage of tune fit", []string{"tune", "fit", "-size", "8", "x.gz"}, "emergo: -size 8: want 9, 7 or 0 (both)\nRun 'emergo tune fit -h' for usage.\n", 2},
		{"usage of tune spsa", []string{"tune", "spsa", "-size", "8"}, "emergo: -size 8: want 9 or 7\nRun 'emergo tune spsa -h' for usage.\n", 2},
		{"usage of egtb gen", []string{"egtb", "gen", "-size", "8"}, "emergo: -size 8: want 9 or 7\nRun 'emergo egtb gen -h' for usage.\n", 2},
		{"no subcommand", []string{"puzzles"}, "emergo: puzzles needs gen or verify first: emergo puzzles gen|verify [flags]\nRun 'emergo puzzles -h' for usage.\n", 2},
		{"unknown subcommand", []string{"book", "make"}, "emergo: book needs build or show first: emergo book build|show [flags]\nRun 'emergo book -h' for usage.\n", 2},
		{"failure", []string{"show", "zz"}, "emergo: move 1 \"zz\": \"zz\" is not a square name\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(c.args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
			if code := report(err, c.args, &stderr); code != c.code || stderr.String() != c.want {
				t.Errorf("exit %d, printed %q; want %d, %q", code, stderr.String(), c.code, c.want)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	var got []string
	for _, n := range []int{0, 1, 2} {
		got = append(got, plural(n, "legal move"), plural(n, "man/men"))
	}
	want := []string{"0 legal moves", "0 men", "1 legal move", "1 man", "2 legal moves", "2 men"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The engine's workers: a worker works for the servers of a PostgreSQL
// database, and a server leaves its engine work to workers only there.
func TestWorkerUsage(t *testing.T) {
	t.Setenv("EMERGO_POSTGRES", "")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a worker without a database", []string{"worker"}, "worker needs -postgres"},
		{"a worker without searches", []string{"worker", "-postgres", "postgres://nowhere/db", "-threads", "-1"}, "-threads -1"},
		{"a worker with a short lease", []string{"worker", "-postgres", "postgres://nowhere/db", "-lease", "10ms"}, "-lease 10ms"},
		{"a worker given arguments", []string{"worker", "-postgres", "postgres://nowhere/db", "now"}, `worker takes no arguments, got "now"`},
		{"a server on SQLite without workers", []string{"serve", "-workers", "0"}, "-workers 0 needs -postgres"},
		{"a server of negative workers", []string{"serve", "-workers", "-2"}, "-workers -2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := emergo(t, "", c.args...)
			if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want a usage error with %q", err, c.want)
			}
		})
	}
}
