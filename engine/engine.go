// Package engine serves the engine text protocol of docs/protocol.md over
// any reader and writer: a line-based protocol in the shape of UCI, as the
// UGI convention adapts it to games other than chess. A GUI, a match
// runner or a person at a terminal sends commands (ugi, position, go,
// stop, ...) and reads the answers (ugiok, info, bestmove, ...).
//
// The package is a thin adapter: the rules, the notation, the search and
// the playing levels live in their own packages. Run serves one session;
// it keeps no global state, so any number of sessions can run side by
// side, over pipes in tests as well as on a process's standard streams.
//
// A search runs in its own goroutine, so that stop, isready, quit, query
// and position are served while it thinks. Both goroutines write whole
// lines under one mutex.
package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// Name and Author are the engine's answer to ugi.
const (
	Name   = "Emergo"
	Author = "The Emergo authors"
)

// MaxLine is the longest command line read, in bytes. A longer line is
// reported and skipped.
const MaxLine = 1 << 20

// Options are the values the protocol's options start from, and the seed
// of the weak levels' noise. A zero field takes the default that the ugi
// answer announces.
type Options struct {
	HashMiB int    // transposition table, 1 to 4096 MiB; default 16
	Threads int    // search threads, 1 to 64; default 1
	Level   int    // playing level, 1 to player.MaxLevel (full strength, the default)
	Size    int    // board of position startpos, 9 or 7; default 9
	MultiPV int    // best lines to report, 1 to 16; default 1
	Seed    uint64 // seed of the noise of the levels below player.MaxLevel
}

// withDefaults fills the zero fields and checks the others against the
// ranges of the options.
func (o Options) withDefaults() (Options, error) {
	for _, d := range &optionDefs {
		v := d.field(&o)
		if *v == 0 {
			*v = d.def
			continue
		}
		if !d.valid(*v) {
			return o, fmt.Errorf("engine: option %s: %d is not %s", d.name, *v, d.want())
		}
	}
	return o, nil
}

// Run serves one session of the protocol: it reads commands from r, one
// per line, and writes the answers to w until quit, the end of r, or the
// end of ctx. At the end of r a running search is allowed to finish if it
// has limits (so that a script can pipe in "position" and "go depth 8"),
// and stopped if it is infinite. Run returns nil after quit or the end of
// r, ctx.Err() when ctx ends it, and otherwise the first error of reading
// r or writing w. Answers are written whole: each line, or each block of
// lines such as the answer to ugi, with one Write call.
//
// Run does not close r. When it returns before the end of r, a goroutine
// may stay blocked in r.Read until r is closed or delivers another line.
func Run(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	s, err := newSession(ctx, w, opts)
	if err != nil {
		return err
	}

	lines := make(chan line)
	quit := make(chan struct{})
	var readErr error // written before lines is closed
	go func() {
		defer close(lines)
		readErr = readLines(r, lines, quit)
	}()
	defer close(quit)

	for {
		select {
		case <-ctx.Done():
			s.halt()
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				s.finish()
				if readErr != nil {
					return fmt.Errorf("engine: reading commands: %w", readErr)
				}
				return s.writeErr()
			}
			if l.tooLong {
				s.errorf("line too long (more than %d bytes), ignored", MaxLine)
			} else if s.handle(l.text) {
				s.halt()
				return s.writeErr()
			}
		}
		if err := s.writeErr(); err != nil {
			s.halt()
			return err
		}
	}
}

// line is one command line, or the mark of a line longer than MaxLine.
type line struct {
	text    string
	tooLong bool
}

// readLines sends the lines of r on out until the end of r or quit. It
// returns nil at the end of r.
func readLines(r io.Reader, out chan<- line, quit <-chan struct{}) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var buf []byte
		long := false
		for {
			chunk, more, err := br.ReadLine()
			if !long && len(buf)+len(chunk) <= MaxLine {
				buf = append(buf, chunk...)
			} else {
				long, buf = true, nil
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					if len(buf) > 0 || long {
						break // a last line without a newline
					}
					return nil
				}
				return err
			}
			if !more {
				break
			}
		}
		select {
		case out <- line{text: string(buf), tooLong: long}:
		case <-quit:
			return nil
		}
	}
}

// session is the state of one protocol session. Everything but the
// output is owned by the goroutine of Run; a search goroutine gets copies
// of what it needs and touches only the output.
type session struct {
	ctx  context.Context
	init Options // the defaults announced by ugi
	opts Options // the current values of the options

	// game is the current game. It is never modified once set, only
	// replaced, so a search may go on reading the game it started from.
	game *rules.Game

	// eng is the engine at the current level, Hash and Threads; nil when
	// an option changed and it must be built again before the next search.
	eng *player.Engine
	// fresh says uginewgame came: clear the table before the next search.
	fresh bool

	job *job           // the running search, if any
	wg  sync.WaitGroup // the search goroutine

	mu   sync.Mutex // guards w and werr
	w    io.Writer
	werr error
}

// newSession returns a session that writes to w, with the options opts
// start from, at the empty board.
func newSession(ctx context.Context, w io.Writer, opts Options) (*session, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &session{ctx: ctx, w: w, init: opts, opts: opts}
	s.game = rules.NewGame(rules.GeometryOf(opts.Size))
	return s, nil
}

// handle serves one command line. It reports whether the session is over.
func (s *session) handle(text string) (quit bool) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return false
	}
	args := f[1:]
	switch f[0] {
	case "ugi":
		s.ugi()
	case "isready":
		if s.idle() {
			s.engine() // allocate the table now rather than in the next go
		}
		s.println("readyok")
	case "setoption":
		s.setOption(args)
	case "uginewgame":
		s.fresh = true
		s.game = rules.NewGame(rules.GeometryOf(s.opts.Size))
	case "position":
		s.position(args)
	case "go":
		s.goCommand(args)
	case "stop":
		s.halt()
	case "quit":
		return true
	case "query":
		s.query(args)
	case "bench":
		s.bench(args)
	case "d":
		s.debug()
	default:
		s.errorf("unknown command %q", f[0])
	}
	return false
}

func (s *session) ugi() {
	var b strings.Builder
	fmt.Fprintf(&b, "id name %s\nid author %s\n", Name, Author)
	for _, d := range &optionDefs {
		b.WriteString(d.describe(*d.field(&s.init)))
		b.WriteByte('\n')
	}
	b.WriteString("ugiok\n")
	s.write(b.String())
}

// engine returns the engine for the current options, building it if an
// option changed and clearing it after uginewgame. It must not be called
// while a search runs.
func (s *session) engine() *player.Engine {
	if s.eng == nil {
		e, err := player.NewEngine(s.opts.Level, player.EngineOptions{
			HashMiB: s.opts.HashMiB, Threads: s.opts.Threads, Seed: s.opts.Seed,
		})
		if err != nil {
			panic(err) // the level was checked by setoption
		}
		s.eng, s.fresh = e, false
	}
	if s.fresh {
		s.eng.NewGame()
		s.fresh = false
	}
	return s.eng
}

func (s *session) query(args []string) {
	if len(args) != 1 {
		s.errorf("query: want one of gameover, p1turn, result")
		return
	}
	o := s.game.Outcome()
	switch args[0] {
	case "gameover":
		s.printf("response %t", o.Over())
	case "p1turn":
		p := s.game.Position()
		s.printf("response %t", p.Side() == rules.White)
	case "result":
		r := "none"
		switch o.Result {
		case rules.WhiteWins:
			r = "p1win"
		case rules.BlackWins:
			r = "p2win"
		case rules.Draw:
			r = "draw"
		}
		s.println("response " + r)
	default:
		s.errorf("query: unknown question %q; want gameover, p1turn or result", args[0])
	}
}

// bench runs the search benchmark on the session's engine. It blocks the
// session until it is done.
func (s *session) bench(args []string) {
	if !s.ready("bench") {
		return
	}
	depth := player.BenchDepth
	if len(args) > 0 {
		d, ok := parseInt(args[0], 1, maxDepth)
		if !ok || len(args) > 1 {
			s.errorf("bench: want an optional depth from 1 to %d, not %q", maxDepth, strings.Join(args, " "))
			return
		}
		depth = int(d)
	}
	nodes, el := s.engine().Search().Bench(depth)
	s.fresh = true // the table holds the last bench position
	ms := el.Milliseconds()
	s.printf("info string bench nodes %d time %d nps %d", nodes, ms, nps(nodes, el))
}

// debug prints the board, the position text and the state of the game.
func (s *session) debug() {
	g := s.game
	p := g.Position()
	var last rules.Move
	if n := g.Len(); n > 0 {
		last = g.Moves()[n-1]
	}
	var b strings.Builder
	b.WriteString(notation.Diagram(&p, last))
	b.WriteString("position " + notation.FormatPosition(&p) + "\n")
	start := g.Start()
	b.WriteString("start " + notation.FormatPosition(&start))
	if g.Len() > 0 {
		b.WriteString(" moves")
		for _, m := range g.Moves() {
			b.WriteString(" " + m.Text(p.Geometry()))
		}
	}
	b.WriteByte('\n')
	if o := g.Outcome(); o.Over() {
		fmt.Fprintf(&b, "result %s, %s\n", o.Result, o.Reason)
	} else {
		fmt.Fprintf(&b, "%s to move, %d legal moves\n", p.Side(), len(g.Legal()))
	}
	s.write(b.String())
}

// println writes one line.
func (s *session) println(text string) { s.write(text + "\n") }

// printf writes one line formatted as by fmt.Sprintf.
func (s *session) printf(format string, a ...any) { s.println(fmt.Sprintf(format, a...)) }

// errorf reports an error in a command as "info string error: ...". The
// text is kept to one line whatever the input held.
func (s *session) errorf(format string, a ...any) {
	msg := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, fmt.Sprintf(format, a...))
	s.println("info string error: " + msg)
}

// write writes text, one or more whole lines, with one Write call. After
// the first error nothing more is written.
func (s *session) write(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeLocked(text)
}

func (s *session) writeLocked(text string) {
	if s.werr == nil {
		_, s.werr = io.WriteString(s.w, text)
	}
}

func (s *session) writeErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.werr != nil {
		return fmt.Errorf("engine: writing answers: %w", s.werr)
	}
	return nil
}
