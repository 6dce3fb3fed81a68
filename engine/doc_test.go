package engine

import (
	"bytes"
	"context"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the sessions of docs/protocol.md with the engine's answers")

// protocolDoc is the protocol's documentation, whose sessions are tested.
const protocolDoc = "../docs/protocol.md"

// docSession is a session shown in the documentation: a fenced block
// whose lines start with "> " (what the interface sends) or "< " (what
// the engine answers).
type docSession struct {
	line       int // of the block's first line in the document, from 1
	start, end int // byte offsets of the block's lines in the document
	lines      []string
}

// docSessions returns the sessions of doc: the fenced blocks whose first
// line starts with "> ".
func docSessions(doc string) []docSession {
	var out []docSession
	var cur *docSession
	off := 0
	for i, l := range strings.SplitAfter(doc, "\n") {
		text := strings.TrimRight(l, "\n")
		switch {
		case strings.HasPrefix(text, "```") && cur == nil:
			cur = &docSession{line: i + 2, start: off + len(l)}
		case strings.HasPrefix(text, "```"):
			cur.end = off
			if len(cur.lines) > 0 && strings.HasPrefix(cur.lines[0], "> ") {
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, text)
		}
		off += len(l)
	}
	return out
}

// replay runs the commands of a session, the lines that start with "> ",
// in a new session with the default options, and returns the transcript:
// each command, then its answers marked "< ". After each go it waits for
// the search to end (an infinite one, for all its reports, bestmove
// waiting for stop), so that the transcript does not depend on timing.
func replay(t *testing.T, lines []string) []string {
	t.Helper()
	var out bytes.Buffer
	s, err := newSession(context.Background(), &out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	answers := func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for l := range strings.Lines(out.String()) {
			got = append(got, strings.TrimRight("< "+l, " \n"))
		}
		out.Reset()
	}
	for _, l := range lines {
		cmd, ok := strings.CutPrefix(l, "> ")
		if !ok {
			continue
		}
		got = append(got, l)
		if s.handle(cmd) {
			s.halt()
			answers()
			return got
		}
		if j := s.job; j != nil && j.infinite {
			<-j.searched
		} else if j != nil {
			s.wait()
		}
		answers()
	}
	s.halt()
	answers()
	return got
}

// varying matches the fields of an answer that change from run to run.
var varying = regexp.MustCompile(`\b(time|nps) [0-9]+`)

func masked(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = varying.ReplaceAllString(strings.TrimRight(l, " "), "$1 _")
	}
	return out
}

// TestProtocolDoc runs every session of docs/protocol.md and compares the
// engine's answers with the document's, but for times and speeds. With
// -update it writes the answers into the document instead.
func TestProtocolDoc(t *testing.T) {
	raw, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	sessions := docSessions(doc)
	if len(sessions) < 2 {
		t.Fatalf("%s: %d sessions, want the example and others", protocolDoc, len(sessions))
	}
	var fresh strings.Builder
	prev := 0
	for _, ds := range sessions {
		for i, l := range ds.lines {
			if !strings.HasPrefix(l, "> ") && !strings.HasPrefix(l, "< ") {
				t.Errorf("%s:%d: %q is neither a command (> ) nor an answer (< )", protocolDoc, ds.line+i, l)
			}
		}
		got := replay(t, ds.lines)
		fresh.WriteString(doc[prev:ds.start])
		fresh.WriteString(strings.Join(got, "\n") + "\n")
		prev = ds.end
		if *update {
			continue
		}
		want, have := masked(ds.lines), masked(got)
		for i := range max(len(want), len(have)) {
			w, h := "(nothing)", "(nothing)"
			if i < len(want) {
				w = want[i]
			}
			if i < len(have) {
				h = have[i]
			}
			if w != h {
				t.Errorf("%s:%d: the session differs from the engine's:\n doc: %s\n got: %s\n(go test ./engine -run TestProtocolDoc -update rewrites it)",
					protocolDoc, ds.line+i, w, h)
				break
			}
		}
	}
	fresh.WriteString(doc[prev:])
	if *update && fresh.String() != doc {
		if err := os.WriteFile(protocolDoc, []byte(fresh.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", protocolDoc)
	}
}

func TestDocSessions(t *testing.T) {
	doc := "text\n```\n> ugi\n< ugiok\n```\n\n```\ninfo depth <D>\n```\n```sh\n> isready\n```\n"
	got := docSessions(doc)
	if len(got) != 2 {
		t.Fatalf("%d sessions, want 2: %+v", len(got), got)
	}
	if s := got[0]; s.line != 3 || doc[s.start:s.end] != "> ugi\n< ugiok\n" || len(s.lines) != 2 {
		t.Errorf("first session %+v, block %q", s, doc[s.start:s.end])
	}
	if s := got[1]; s.line != 11 || doc[s.start:s.end] != "> isready\n" {
		t.Errorf("second session %+v", s)
	}
}
