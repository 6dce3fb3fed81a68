package main

import (
	"bytes"
	"strings"
	"testing"

	"emergo/notation"
)

func TestEngineCommand(t *testing.T) {
	in := strings.NewReader("ugi\nsetoption name Size value 7\nposition startpos moves a1\ngo depth 3\n")
	var out, errOut bytes.Buffer
	if err := run([]string{"engine", "-hash", "1", "-seed", "5"}, in, &out, &errOut); err != nil {
		t.Fatalf("emergo engine: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.Contains(out.String(), "\nugiok\n") {
		t.Errorf("no ugiok in\n%s", out.String())
	}
	last := lines[len(lines)-1]
	text, ok := strings.CutPrefix(last, "bestmove ")
	if !ok {
		t.Fatalf("last line %q, want the bestmove", last)
	}
	p, _ := notation.ParsePosition("7x7 w 8/8 -")
	m, _ := notation.ParseMove(&p, "a1")
	p.Play(m)
	if _, err := notation.ParseMove(&p, text); err != nil {
		t.Errorf("bestmove %q is not legal on 7x7 after a1: %v", text, err)
	}
}

func TestEngineFlags(t *testing.T) {
	for _, args := range [][]string{
		{"engine", "-level", "0"},
		{"engine", "-size", "8"},
		{"engine", "-hash", "5000"},
		{"engine", "extra"},
		{"engine", "-nosuchflag"},
	} {
		var out, errOut bytes.Buffer
		err := run(args, strings.NewReader(""), &out, &errOut)
		if err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	var errOut bytes.Buffer
	if err := run([]string{"engine", "-h"}, strings.NewReader(""), &bytes.Buffer{}, &errOut); err != nil {
		t.Errorf("engine -h returned %v", err)
	}
	if !strings.Contains(errOut.String(), "Usage: emergo engine") {
		t.Errorf("engine -h printed %q", errOut.String())
	}
}

func TestBenchCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"bench", "-hash", "1", "2"}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("emergo bench: %v\n%s", err, errOut.String())
	}
	var keys []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		keys = append(keys, strings.Fields(l)[0])
	}
	if got := strings.Join(keys, " "); got != "positions depth nodes time nps" {
		t.Errorf("bench printed\n%s", out.String())
	}
	if !strings.Contains(out.String(), "\ndepth 2\n") {
		t.Errorf("bench 2 did not search to depth 2:\n%s", out.String())
	}
	for _, args := range [][]string{{"bench", "0"}, {"bench", "x"}, {"bench", "1", "2"}, {"bench", "-threads", "0"}} {
		if err := run(args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
