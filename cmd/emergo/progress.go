package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// progressHelp is the paragraph of the usage text of every command that
// reports progress.
const progressHelp = "Progress goes to standard error: on a terminal, one line rewritten in\n" +
	"place; elsewhere nothing, unless -v asks for a line per step. -quiet\n" +
	"silences it everywhere."

// progress reports long work on standard error. On a terminal it keeps one
// status line rewritten in place; with -v, or for a note, it writes whole
// lines; off a terminal without -v it writes nothing. Its methods may be
// called from several goroutines.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool // rewrite a status line in place
	lines   bool // write every status as a line of its own
	width   int  // columns of the terminal, 0 if unknown
	shown   bool // a status line is on the screen
	last    time.Time
	pending string           // the latest status not yet drawn
	now     func() time.Time // the clock; time.Now if nil
}

// newProgress returns the progress reporter of a command: verbose is -v,
// quiet -quiet.
func newProgress(w io.Writer, verbose, quiet bool) *progress {
	p := &progress{w: w}
	if quiet {
		p.w = io.Discard
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			p.width = cols
		}
	}
	p.lines = verbose
	return p
}

// redraw is how often at most the status line is rewritten.
const redraw = 100 * time.Millisecond

// status reports the state of the work: on a terminal it replaces the
// status line, with -v it is a line of its own.
func (p *progress) status(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lines {
		p.clearLocked()
		fmt.Fprintf(p.w, format+"\n", a...)
		return
	}
	p.updateLocked(fmt.Sprintf(format, a...))
}

// update is a status too frequent for lines of their own, such as each
// depth of a search: it only rewrites the status line on a terminal.
func (p *progress) update(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.lines {
		p.updateLocked(fmt.Sprintf(format, a...))
	}
}

// updateLocked rewrites the status line on a terminal, at most ten times a
// second: a status in between waits for the next call or for done.
func (p *progress) updateLocked(text string) {
	if !p.tty {
		return
	}
	p.pending = text
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	if t := now(); t.Sub(p.last) >= redraw {
		p.last = t
		p.drawLocked()
	}
}

// note reports a step worth keeping, such as a finished row: a line of
// its own on a terminal or with -v, nothing otherwise.
func (p *progress) note(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lines || p.tty {
		p.clearLocked()
		fmt.Fprintf(p.w, format+"\n", a...)
	}
}

// clear takes the status line off the screen, so that other output can be
// written; the next status draws it again.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

// done ends the status line: the latest status stays on the screen as a
// line of its own.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.pending != "" {
		p.drawLocked()
	}
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

func (p *progress) drawLocked() {
	text := p.pending
	p.pending = ""
	// A line longer than the terminal would wrap, and the carriage return
	// would then rewrite only its last part.
	if p.width > 1 && utf8.RuneCountInString(text) >= p.width {
		r := []rune(text)
		text = string(r[:p.width-2]) + "…"
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", text)
	p.shown = true
}

func (p *progress) clearLocked() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
