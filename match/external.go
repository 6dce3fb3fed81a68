package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// External is a player in another process that speaks the engine protocol
// of docs/protocol.md on its standard input and output. It implements
// player.Player, player.NewGamer and io.Closer.
//
// The conversation is the UCI-shaped minimum: ugi/ugiok and
// isready/readyok at the start, setoption name Size when the board
// changes, uginewgame and isready/readyok before each game, then for
// every move the whole game as position ... moves ... and go with the
// clock, answered by bestmove. Lines the runner does not need (info, id
// author, option) are skipped.
type External struct {
	name    string
	opts    ExternalOptions
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // stdout, one line at a time; closed at its end
	exited  chan struct{} // closed once the process has exited
	waitErr error         // the process's exit status, after exited
	size    int           // the board size last set, 0 for none
	pending error         // an error of NewGame, returned by the next Move
	once    sync.Once
}

// ExternalOptions configure StartExternal.
type ExternalOptions struct {
	// Stderr receives the engine's standard error; nil discards it.
	Stderr io.Writer
	// Timeout bounds the answers that take no thought: ugiok at the start
	// and readyok. Default 10 seconds.
	Timeout time.Duration
	// MoveTime is what the engine is told to think when the game has no
	// clock. Default player.DefaultMoveTime.
	MoveTime time.Duration
}

// ErrCrash is wrapped by the errors of an engine that stopped answering:
// its process ended or its output closed.
var ErrCrash = errors.New("the engine process ended")

// ErrTimeout is wrapped by the errors of an engine that did not answer a
// command that needs no thought in time.
var ErrTimeout = errors.New("the engine did not answer in time")

// IllegalMoveError is the error of an engine whose bestmove is not a legal
// move of the position.
type IllegalMoveError struct {
	Text string // the move as the engine sent it
	Err  error  // why it is not legal: the cause of notation's *MoveError
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %q: %v", e.Text, e.Err)
}

// Unwrap returns the cause of e.
func (e *IllegalMoveError) Unwrap() error { return e.Err }

// EngineError is the error of StartExternal: the engine at Path did not
// start, or failed the handshake.
type EngineError struct {
	Path string
	Err  error
}

func (e *EngineError) Error() string { return fmt.Sprintf("match: engine %s: %v", e.Path, e.Err) }

// Unwrap returns the cause of e.
func (e *EngineError) Unwrap() error { return e.Err }

// errNoBestMove is the cause of a bestmove line without a move.
var errNoBestMove = errors.New("bestmove without a move")

// StartExternal starts the engine at path with args and waits for its ugiok
// and readyok. The process is killed when ctx ends.
func StartExternal(ctx context.Context, path string, args []string, o ExternalOptions) (*External, error) {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MoveTime <= 0 {
		o.MoveTime = player.DefaultMoveTime
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stderr = o.Stderr
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &EngineError{Path: path, Err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &EngineError{Path: path, Err: err}
	}
	if err := cmd.Start(); err != nil {
		return nil, &EngineError{Path: path, Err: err}
	}
	e := &External{
		name:   filepath.Base(path),
		opts:   o,
		cmd:    cmd,
		stdin:  stdin,
		lines:  make(chan string, 64),
		exited: make(chan struct{}),
	}
	go e.read(stdout)
	if err := e.handshake(ctx); err != nil {
		e.Close()
		return nil, &EngineError{Path: path, Err: err}
	}
	return e, nil
}

// read forwards the engine's output line by line, then reaps the process.
func (e *External) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		e.lines <- strings.TrimSpace(sc.Text())
	}
	close(e.lines)
	e.waitErr = e.cmd.Wait()
	close(e.exited)
}

func (e *External) handshake(ctx context.Context) error {
	if err := e.send("ugi"); err != nil {
		return err
	}
	err := e.await(ctx, e.opts.Timeout, "ugiok", func(line string) {
		if name, ok := strings.CutPrefix(line, "id name "); ok && strings.TrimSpace(name) != "" {
			e.name = strings.TrimSpace(name)
		}
	})
	if err != nil {
		return err
	}
	return e.sync(ctx)
}

// sync sends isready and waits for readyok.
func (e *External) sync(ctx context.Context) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	return e.await(ctx, e.opts.Timeout, "readyok", nil)
}

// send writes one command line.
func (e *External) send(cmd string) error {
	if _, err := io.WriteString(e.stdin, cmd+"\n"); err != nil {
		return e.crashed()
	}
	return nil
}

// crashed returns the error of an engine whose process ended, with its
// exit status once known.
func (e *External) crashed() error {
	select {
	case <-e.exited:
		if e.waitErr != nil {
			return fmt.Errorf("%w (%v)", ErrCrash, e.waitErr)
		}
	case <-time.After(100 * time.Millisecond):
	}
	return ErrCrash
}

// await reads lines until one starts with the word want, and returns it;
// every other line goes to other, if not nil. It gives up after timeout
// (if positive) or when ctx ends.
func (e *External) await(ctx context.Context, timeout time.Duration, want string, other func(string)) error {
	_, err := e.awaitLine(ctx, timeout, want, other)
	return err
}

func (e *External) awaitLine(ctx context.Context, timeout time.Duration, want string, other func(string)) (string, error) {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return "", e.crashed()
			}
			if first, _, _ := strings.Cut(line, " "); first == want {
				return line, nil
			}
			if other != nil {
				other(line)
			}
		case <-expire:
			return "", fmt.Errorf("%w: no %s after %v", ErrTimeout, want, timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Name returns the name the engine gave in its id name line, or the base
// name of its program.
func (e *External) Name() string { return e.name }

// NewGame tells the engine that a new game starts and waits until it is
// ready. An error is kept for the next Move.
func (e *External) NewGame() {
	e.pending = e.send("uginewgame")
	if e.pending == nil {
		e.pending = e.sync(context.Background())
	}
}

// Move sends the game and the clock and waits for the engine's bestmove
// until ctx ends. The move must be legal in the current position: an
// *IllegalMoveError says why not.
func (e *External) Move(ctx context.Context, g *rules.Game, c player.Clock) (rules.Move, error) {
	if err := e.pending; err != nil {
		return rules.Move{}, err
	}
	geo := g.Geometry()
	if geo.N != e.size {
		if err := e.send(fmt.Sprintf("setoption name Size value %d", geo.N)); err != nil {
			return rules.Move{}, err
		}
		e.size = geo.N
	}
	if err := e.send(positionCommand(g)); err != nil {
		return rules.Move{}, err
	}
	if err := e.send(goCommand(c, e.opts.MoveTime)); err != nil {
		return rules.Move{}, err
	}
	// Without a deadline from the caller, an engine told to think
	// MoveTime that does not answer long after it has hung.
	var wait time.Duration
	if _, ok := ctx.Deadline(); !ok && c.MoveTime == 0 && c.Time == [2]time.Duration{} {
		wait = 2*e.opts.MoveTime + e.opts.Timeout
	}
	line, err := e.awaitLine(ctx, wait, "bestmove", nil)
	if err != nil {
		if ctx.Err() != nil {
			// Ask the engine to stop; the game is decided without it.
			e.send("stop")
		}
		return rules.Move{}, err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return rules.Move{}, &IllegalMoveError{Text: "", Err: errNoBestMove}
	}
	p := g.Position()
	m, err := notation.ParseMove(&p, f[1])
	if err != nil {
		var me *notation.MoveError
		if errors.As(err, &me) {
			err = me.Err
		}
		return rules.Move{}, &IllegalMoveError{Text: f[1], Err: err}
	}
	return m, nil
}

// positionCommand returns the position command for the game so far: from
// startpos when the game began on the empty board, else from the start
// position's text.
func positionCommand(g *rules.Game) string {
	var b strings.Builder
	start := g.Start()
	if start == rules.NewPosition(g.Geometry()) {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position ")
		b.WriteString(notation.FormatPosition(&start))
	}
	if g.Len() > 0 {
		b.WriteString(" moves")
		var buf []byte
		for _, m := range g.Moves() {
			buf = append(buf[:0], ' ')
			b.Write(m.AppendText(buf, g.Geometry()))
		}
	}
	return b.String()
}

// goCommand returns the go command for clock c: movetime, the clocks of
// both players (p1 is White) in milliseconds, or def as a movetime when c
// sets no limit.
func goCommand(c player.Clock, def time.Duration) string {
	ms := func(d time.Duration) int64 { return max(d.Milliseconds(), 0) }
	switch {
	case c.MoveTime > 0:
		return fmt.Sprintf("go movetime %d", ms(c.MoveTime))
	case c.Time[0] > 0 || c.Time[1] > 0:
		return fmt.Sprintf("go p1time %d p2time %d p1inc %d p2inc %d",
			ms(c.Time[0]), ms(c.Time[1]), ms(c.Inc[0]), ms(c.Inc[1]))
	}
	return fmt.Sprintf("go movetime %d", ms(def))
}

// Close asks the engine to quit and kills it if it has not exited within
// a second.
func (e *External) Close() error {
	e.once.Do(func() {
		// Nobody reads the output any more: drain it, so that the reader
		// can reach the end and reap the process.
		go func() {
			for range e.lines {
			}
		}()
		e.send("quit")
		e.stdin.Close()
		select {
		case <-e.exited:
		case <-time.After(time.Second):
			e.cmd.Process.Kill()
			<-e.exited
		}
	})
	return nil
}
