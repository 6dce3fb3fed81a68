package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatchCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.pgn")
	stdout, _, err := emergo(t, "", "match", "-p1", "random", "-p2", "greedy", "-games", "4", "-size", "7", "-quiet", "-out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Games: 4 of 4", "Elo difference", "LOS", "Game pairs"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("match output lacks %q:\n%s", want, stdout)
		}
	}
	replayed, _, err := emergo(t, "", "replay", out)
	if err != nil {
		t.Fatalf("the match's record does not replay: %v", err)
	}
	if n := strings.Count(replayed, "\n"); n != 4 {
		t.Errorf("replay printed %d games:\n%s", n, replayed)
	}
	if data, _ := os.ReadFile(out); !strings.Contains(string(data), `[White "random"]`) && !strings.Contains(string(data), `[White "greedy"]`) {
		t.Errorf("record lacks the players:\n%s", data)
	}
}

func TestMatchBadSpecs(t *testing.T) {
	for _, args := range [][]string{
		{"match", "-p1", "level:11", "-p2", "random"},
		{"match", "-p1", "mcts:x", "-p2", "random"},
		{"match", "-p1", "nobody", "-p2", "random"},
		{"match", "-p2", "random"},
	} {
		_, _, err := emergo(t, "", args...)
		if err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}
