// Command emergo is the Emergo toolbox: rules queries, perft, boards in the
// terminal and record checking. Each subcommand lives in its own file; this
// one only dispatches.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
)

// command is one subcommand: its one-line summary and its entry point,
// which gets the arguments after the subcommand's name.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(name, summary string, run func([]string, io.Reader, io.Writer, io.Writer) error) {
	commands[name] = command{summary, run}
}

func main() {
	args := os.Args[1:]
	os.Exit(report(run(args, os.Stdin, os.Stdout, os.Stderr), args, os.Stderr))
}

// report prints err, if any, with a pointer to the command's help when it
// is a usage error, and returns the exit status: 0 on success, 2 for a
// usage error, 1 for any other.
func report(err error, args []string, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "emergo:", err)
	var u usageError
	if errors.As(err, &u) && len(args) > 0 {
		if _, ok := commands[args[0]]; ok {
			name := args[0]
			var in subcommandError
			if errors.As(err, &in) {
				name = in.name
			}
			fmt.Fprintf(stderr, "Run 'emergo %s -h' for usage.\n", name)
		}
	}
	return exitCode(err)
}

// subcommandError is the error of a subcommand, such as tune gen, whose
// own -h (not its command's) describes what a usage error refers to.
type subcommandError struct {
	name string // "tune gen"
	err  error
}

func (e subcommandError) Error() string { return e.err.Error() }

func (e subcommandError) Unwrap() error { return e.err }

// exitCode is 2 for usage errors, 1 for everything else.
func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// interruptible returns the context of a long command, done on Ctrl-C
// (SIGINT), and the function that stops listening. Tests replace it.
var interruptible = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// subcommand is one of the words that follow a command such as tune
// (gen, fit) and its run.
type subcommand struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) error
}

// runSubcommand runs the subcommand of the command name that args begin
// with; help prints usage, the command's own.
func runSubcommand(name, usage string, subs []subcommand, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	var names []string
	for _, s := range subs {
		if len(args) > 0 && args[0] == s.name {
			if err := s.run(args[1:], stdout, stderr); err != nil {
				return subcommandError{name + " " + s.name, err}
			}
			return nil
		}
		names = append(names, s.name)
	}
	list := strings.Join(names, " or ")
	return usageError{fmt.Sprintf("%s needs %s first: emergo %s %s [flags]", name, list, name, strings.Join(names, "|"))}
}

// run runs the command args name. A request for help (-h) is a success:
// the command has printed its usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || isHelp(args[0]) {
		usage(stderr)
		if len(args) == 0 {
			return usageError{"no command given"}
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		usage(stderr)
		return usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	err := c.run(args[1:], stdin, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: emergo <command> [flags] [arguments]")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nFlags may come before, between or after the arguments; -- ends them.")
	fmt.Fprintln(w, "Run 'emergo <command> -h' for the flags of a command.")
}

// newFlags returns a flag set that reports errors instead of exiting, with
// a usage text naming the command; the text lists the flags if there are
// any.
func newFlags(name, args, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		synopsis := "emergo " + name
		if n > 0 {
			synopsis += " [flags]"
		}
		if args != "" {
			synopsis += " " + args
		}
		fmt.Fprintf(stderr, "Usage: %s\n\n%s\n", synopsis, about)
		if n > 0 {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseNoArgs is parseFlags for a command that takes flags only: an
// argument is a usage error that names it.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s takes no arguments, got %q", fs.Name(), fs.Arg(0))}
	}
	return nil
}

// parseFlags parses args, in which flags and arguments may come in any
// order: every argument that starts with '-' and a letter is a flag (move
// texts never do, and "-1" is an argument, for the command to refuse),
// and "--" makes all that follows arguments. A flag error becomes a usage
// error naming the command; -h prints the usage and returns flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case !isFlag(a):
			rest = append(rest, a)
		default:
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if hasValue || !takesValue(fs, name) {
				continue
			}
			if i+1 == len(args) {
				return usageError{fmt.Sprintf("%s: flag %s needs a value", fs.Name(), a)}
			}
			i++
			flags = append(flags, args[i])
		}
	}
	// The flag package prints its errors and the usage itself; the error
	// is printed once, by main, and the usage only when asked for.
	out, help := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(append(append(flags, "--"), rest...))
	fs.SetOutput(out)
	fs.Usage = help
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return err
	case err != nil:
		return usageError{fs.Name() + ": " + err.Error()}
	}
	return nil
}

// isFlag reports whether a command-line argument is a flag: one or two
// '-' and then anything but a digit or a point, so that "-1" and "-.5"
// are arguments.
func isFlag(a string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	if len(name) == len(a) || name == "" {
		return false
	}
	c := name[0]
	return !(c >= '0' && c <= '9' || c == '.')
}

// takesValue reports whether the flag name needs a value, as the next
// argument when it is not given as -name=value. Unknown flags take none:
// the flag package refuses them.
func takesValue(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}
