package main

import (
	"context"
	"testing"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/view"
)

// D1 of the rule cases: White's only move is the five-man capture, which
// wins.
const d1 = "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1"

// TestAnalyseFindsTheNativeMove: a search to a depth finds the move, the
// score and the line of the native engine's search to that depth from a
// fresh table, whatever the analyser searched before, and reports every
// iteration's lines, then the result's as final.
func TestAnalyseFindsTheNativeMove(t *testing.T) {
	a := newAnalyser(nil, 0)
	tests := []struct {
		name string
		req  analyseRequest
	}{
		{"the start, three lines", analyseRequest{Request: view.Request{Size: 7}, Depth: 5, MultiPV: 3}},
		{"after some moves", analyseRequest{Request: view.Request{Size: 9, Moves: []string{"c3", "g7", "e7", "c9", "e3"}}, Depth: 6}},
		{"a forced win", analyseRequest{Request: view.Request{Position: d1}, Depth: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var infos []infoJSON
			got, err := a.analyse(t.Context(), tc.req, func(in infoJSON) { infos = append(infos, in) })
			if err != nil {
				t.Fatal(err)
			}
			g, err := tc.req.Play()
			if err != nil {
				t.Fatal(err)
			}
			s := player.NewSearcher(player.SearchOptions{HashMiB: hashMiB})
			want := s.Search(context.Background(), g, player.Limits{Depth: tc.req.Depth, MultiPV: max(tc.req.MultiPV, 1)}, nil)
			geo := g.Geometry()
			if got.Move != want.Move.Text(geo) || got.Score != want.Score || got.Depth != tc.req.Depth {
				t.Errorf("best %s %d at depth %d, want %s %d at depth %d", got.Move, got.Score, got.Depth, want.Move.Text(geo), want.Score, tc.req.Depth)
			}
			if len(got.Lines) != len(want.Lines) {
				t.Fatalf("%d lines, want %d", len(got.Lines), len(want.Lines))
			}
			for k, l := range want.Lines {
				if pv := texts(geo, l.PV); notation.FormatMove(geo, l.PV[0]) != got.Lines[k].PV[0] || len(pv) != len(got.Lines[k].PV) {
					t.Errorf("line %d: %v, want %v", k+1, got.Lines[k].PV, pv)
				}
			}
			final := 0
			for i, in := range infos {
				if in.Final {
					final++
				} else if final > 0 || in.Depth < infos[max(i-1, 0)].Depth {
					t.Errorf("report %d (%+v) after the final ones or going back", i, in)
				}
			}
			if final != len(got.Lines) || infos[0].Depth != 1 {
				t.Errorf("%d final reports of %d lines, first at depth %d", final, len(got.Lines), infos[0].Depth)
			}
		})
	}
}

// TestAnalyseStops: a search without a depth pauses after every slice,
// and one cancelled while paused ends with the best move of the
// iterations it completed.
func TestAnalyseStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	pauses := 0
	var deepest int
	a := newAnalyser(func() {
		pauses++
		if deepest >= 4 {
			cancel()
		}
	}, time.Millisecond)
	got, err := a.analyse(ctx, analyseRequest{Request: view.Request{Size: 9, Moves: []string{"c3", "g7"}}}, func(in infoJSON) {
		deepest = max(deepest, in.Depth)
	})
	if err != nil {
		t.Fatal(err)
	}
	if pauses == 0 || got.Move == "" || got.Depth < 4 || len(got.PV) == 0 {
		t.Errorf("%d pauses, best %+v: want pauses and a move of depth 4 or more", pauses, got)
	}
}

// TestAnalyseLevel: with a level, the answer is a legal move of the
// engine at that level; a finished game has nothing to analyse.
func TestAnalyseLevel(t *testing.T) {
	a := newAnalyser(nil, 0)
	got, err := a.analyse(t.Context(), analyseRequest{Request: view.Request{Position: d1}, Level: 3}, func(infoJSON) {})
	if err != nil || got.Move != "d4xb6xd8xf6xd4xb6" {
		t.Errorf("level 3 in D1: %+v, %v; want the only move", got, err)
	}
	_, err = a.analyse(t.Context(), analyseRequest{Request: view.Request{Position: "9x9 w 0/0 d4:B3"}}, func(infoJSON) {})
	if p, ok := err.(*view.Refusal); !ok || p.Code != view.CodeAnalysisOver {
		t.Errorf("a finished game: %v, want analysis.game_over", err)
	}
}
