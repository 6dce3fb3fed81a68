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

// -report prints a recorded match's report as the match printed it, and
// pools the matches of several files.
func TestMatchReport(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	played, _, err := emergo(t, "", "match", "-p1", "greedy", "-p2", "random", "-games", "4", "-size", "both", "-quiet", "-seed", "3", "-out", a)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := emergo(t, "", "match", "-p1", "greedy", "-p2", "random", "-games", "6", "-size", "7", "-quiet", "-seed", "4", "-out", b); err != nil {
		t.Fatal(err)
	}
	reported, _, err := emergo(t, "", "match", "-report", a)
	if err != nil {
		t.Fatal(err)
	}
	if want, _, _ := strings.Cut(played, "Games written to"); reported != want {
		t.Errorf("-report printed\n%s\nwant the match's report\n%s", reported, want)
	}
	pooled, _, err := emergo(t, "", "match", "-report", a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pooled, "Games: 10 of 10") || !strings.Contains(pooled, "On 7x7:") {
		t.Errorf("the pooled report of 4 and 6 games:\n%s", pooled)
	}
	if _, _, err := emergo(t, "", "match", "-report"); err == nil || exitCode(err) != 2 {
		t.Errorf("-report without files: %v, want a usage error", err)
	}
	bad := filepath.Join(dir, "bad.pgn")
	data, _ := os.ReadFile(a)
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), `[Round "2"]`, `[Round "1"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := emergo(t, "", "match", "-report", a, bad); err == nil || !strings.Contains(err.Error(), "bad.pgn: game 2: a second game of round 1") {
		t.Errorf("a file with a round twice: %v, want an error naming it", err)
	}
}

func TestMatchBadSpecs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // the usage message
	}{
		{"level", []string{"-p1", "level:11", "-p2", "random"}, `player "level:11": the level is a number from 1 to 10`},
		{"playouts", []string{"-p1", "random", "-p2", "mcts:x"}, `player "mcts:x": the playouts per move are a positive number, as in mcts:10000`},
		{"kind", []string{"-p1", "nobody", "-p2", "random"}, `player "nobody": unknown kind "nobody"; want one of`},
		{"no p1", []string{"-p2", "random"}, "match needs both -p1 and -p2"},
		{"time control", []string{"-p1", "random", "-p2", "random", "-tc1", "5x"}, `-tc1: time control "5x": the time must be a positive duration`},
		{"SPRT form", []string{"-p1", "random", "-p2", "random", "-sprt", "1 2"}, `SPRT "1 2": want four numbers, elo0 elo1 alpha beta`},
		{"SPRT bounds", []string{"-p1", "random", "-p2", "random", "-sprt", "5 1 0.05 0.05"}, "SPRT: elo0 5 must be below elo1 1"},
	} {
		_, _, err := emergo(t, "", append([]string{"match"}, c.args...)...)
		if err == nil || exitCode(err) != 2 || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want a usage error starting %q", c.name, err, c.want)
		}
	}
}

// -openings empty starts every game at the empty board, and -times writes
// a line per move of the players, in order.
func TestMatchEmptyBoardAndTimes(t *testing.T) {
	dir := t.TempDir()
	out, times := filepath.Join(dir, "games.pgn"), filepath.Join(dir, "times.csv")
	_, _, err := emergo(t, "", "match", "-p1", "nodes:200/20", "-p2", "random", "-tc", "none", "-games", "2", "-size", "7",
		"-openings", "empty", "-quiet", "-out", out, "-times", times)
	if err != nil {
		t.Fatal(err)
	}
	pgn, _ := os.ReadFile(out)
	if strings.Contains(string(pgn), "end of opening") {
		t.Errorf("games from the empty board have an opening:\n%s", pgn)
	}
	data, _ := os.ReadFile(times)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "game,size,ply,colour,player,left_ms,took_ms" || len(lines) < 10 {
		t.Fatalf("times:\n%s", data)
	}
	for _, want := range []string{`1,7,1,white,"nodes:200/20",0,`, `1,7,2,black,"random",0,`, `2,7,1,white,"random",0,`} {
		if !strings.Contains(string(data), "\n"+want) {
			t.Errorf("times lack a line starting %q:\n%s", want, data)
		}
	}
	if _, _, err := emergo(t, "", "match", "-p1", "random", "-p2", "random", "-openings", "blank"); err == nil || exitCode(err) != 2 {
		t.Errorf("-openings blank: %v, want a usage error", err)
	}
}
