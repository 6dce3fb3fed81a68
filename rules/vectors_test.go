package rules_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"emergo/rules"
)

// vectorGame is one line of testdata/vectors/*.jsonl: a random game played
// by an independent implementation of the rules, with the legal moves
// before every ply.
type vectorGame struct {
	Size   int        `json:"size"`
	Game   int        `json:"game"`
	Moves  []string   `json:"moves"`
	Legal  [][]string `json:"legal"`
	Result string     `json:"result"`
	Final  string     `json:"final"`
}

func readVectors(t *testing.T) []vectorGame {
	t.Helper()
	files, err := filepath.Glob("testdata/vectors/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector files: %v", err)
	}
	var games []vectorGame
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var g vectorGame
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			games = append(games, g)
		}
		fh.Close()
	}
	return games
}

func legalTexts(gm *rules.Game) []string {
	var out []string
	for _, m := range gm.Legal() {
		out = append(out, m.Text(gm.Geometry()))
	}
	slices.Sort(out)
	return out
}

// TestVectors replays every vector game and compares the legal moves at
// every ply, the result and the final position.
func TestVectors(t *testing.T) {
	for _, v := range readVectors(t) {
		gm := rules.NewGame(rules.GeometryOf(v.Size))
		for i, mv := range v.Moves {
			got := legalTexts(gm)
			if !slices.Equal(got, v.Legal[i]) {
				t.Fatalf("%dx%d game %d ply %d: legal moves\n got %v\nwant %v", v.Size, v.Size, v.Game, i+1, got, v.Legal[i])
			}
			var played bool
			for _, m := range gm.Legal() {
				if m.Text(gm.Geometry()) == mv {
					if err := gm.Play(m); err != nil {
						t.Fatal(err)
					}
					played = true
					break
				}
			}
			if !played {
				t.Fatalf("%dx%d game %d ply %d: %s not legal", v.Size, v.Size, v.Game, i+1, mv)
			}
		}
		if got := gm.Outcome().Result.String(); got != v.Result {
			t.Errorf("%dx%d game %d: result %s, want %s", v.Size, v.Size, v.Game, got, v.Result)
		}
		if v.Result != "*" && len(gm.Legal()) != 0 {
			t.Errorf("%dx%d game %d: finished game still has legal moves", v.Size, v.Size, v.Game)
		}
		if got := vectorFinal(gm.Position()); got != v.Final {
			t.Errorf("%dx%d game %d: final position\n got %s\nwant %s", v.Size, v.Size, v.Game, got, v.Final)
		}
	}
}

// vectorFinal writes p in the vectors' own format: positionText without
// the board size (and with nothing for an empty board).
func vectorFinal(p rules.Position) string {
	_, text, _ := strings.Cut(positionText(&p), " ")
	return strings.TrimSuffix(text, "-")
}
