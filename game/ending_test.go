package game_test

import (
	"testing"

	"emergo/game"
	"emergo/rules"
)

// Every Termination reads back from its word, and the board's words are
// rules.Reason's, so records and stores keep one vocabulary.
func TestTerminationRoundTrip(t *testing.T) {
	words := map[string]bool{}
	for tm := game.Unterminated; tm <= game.Abandoned; tm++ {
		w := tm.String()
		if words[w] {
			t.Errorf("%d: the word %q twice", tm, w)
		}
		words[w] = true
		got, err := game.ParseTermination(w)
		if err != nil || got != tm {
			t.Errorf("ParseTermination(%q) = %v, %v; want %d", w, got, err, tm)
		}
	}
	board := map[game.Termination]rules.Reason{game.NoMen: rules.NoMen, game.NoMove: rules.NoMove, game.Repetition: rules.Repetition}
	for tm, r := range board {
		if tm.String() != r.String() || !tm.OnBoard() {
			t.Errorf("%v: the board says %q", tm, r)
		}
	}
	for _, tm := range []game.Termination{game.Unterminated, game.Resignation, game.Agreement, game.TimeForfeit, game.Adjudication, game.Aborted, game.IllegalMove, game.Crash, game.Abandoned} {
		if tm.OnBoard() {
			t.Errorf("%v is on the board", tm)
		}
	}
}

func TestParseTermination(t *testing.T) {
	tests := []struct {
		name, text string
		want       game.Termination
		ok         bool
	}{
		{"record", "resignation", game.Resignation, true},
		{"server", "time forfeit", game.TimeForfeit, true},
		{"board", "threefold repetition", game.Repetition, true},
		{"match", "illegal move", game.IllegalMove, true},
		{"abandoned", "abandoned", game.Abandoned, true},
		{"older match records", "adjudication: ply limit", game.Adjudication, true},
		{"another program's", "normal", 0, false},
		{"empty", "", 0, false},
		{"case matters", "Resignation", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := game.ParseTermination(tc.text)
			if (err == nil) != tc.ok || tc.ok && got != tc.want {
				t.Errorf("ParseTermination(%q) = %v, %v", tc.text, got, err)
			}
		})
	}
}

func TestParseEnding(t *testing.T) {
	tests := []struct {
		name   string
		result rules.Result
		text   string
		want   game.Ending
		ok     bool
	}{
		{"ongoing", rules.Ongoing, "", game.Ending{}, true},
		{"unterminated", rules.Ongoing, "unterminated", game.Ending{}, true},
		{"resignation", rules.BlackWins, "resignation", game.Ending{rules.BlackWins, game.Resignation}, true},
		{"agreement", rules.Draw, "agreement", game.Ending{rules.Draw, game.Agreement}, true},
		{"adjudicated win", rules.WhiteWins, "adjudication", game.Ending{rules.WhiteWins, game.Adjudication}, true},
		{"adjudicated draw", rules.Draw, "adjudication", game.Ending{rules.Draw, game.Adjudication}, true},
		{"aborted", rules.Ongoing, "aborted", game.Ending{Termination: game.Aborted}, true},
		{"no men", rules.WhiteWins, "all men taken prisoner", game.Ending{rules.WhiteWins, game.NoMen}, true},
		{"a drawn resignation", rules.Draw, "resignation", game.Ending{}, false},
		{"a won agreement", rules.WhiteWins, "agreement", game.Ending{}, false},
		{"a won blocked game", rules.WhiteWins, "no legal move", game.Ending{}, false},
		{"an aborted win", rules.WhiteWins, "aborted", game.Ending{}, false},
		{"a result without a word", rules.WhiteWins, "", game.Ending{}, false},
		{"a forfeit without a result", rules.Ongoing, "time forfeit", game.Ending{}, false},
		{"unknown", rules.Draw, "normal", game.Ending{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := game.ParseEnding(tc.result, tc.text)
			if (err == nil) != tc.ok || tc.ok && got != tc.want {
				t.Errorf("ParseEnding(%s, %q) = %v, %v", tc.result, tc.text, got, err)
			}
		})
	}
}

func TestRecorded(t *testing.T) {
	tests := []struct {
		name   string
		result rules.Result
		text   string
		want   game.Ending
	}{
		{"ours", rules.WhiteWins, "time forfeit", game.Ending{rules.WhiteWins, game.TimeForfeit}},
		{"another program's word", rules.WhiteWins, "normal", game.Ending{rules.WhiteWins, game.Adjudication}},
		{"no word", rules.Draw, "", game.Ending{rules.Draw, game.Adjudication}},
		{"no result", rules.Ongoing, "normal", game.Ending{}},
		{"the board's to give", rules.Draw, "threefold repetition", game.Ending{rules.Draw, game.Adjudication}},
		{"contradicted", rules.Draw, "resignation", game.Ending{rules.Draw, game.Adjudication}},
		{"aborted", rules.Ongoing, "aborted", game.Ending{Termination: game.Aborted}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := game.Recorded(tc.result, tc.text); got != tc.want {
				t.Errorf("Recorded(%s, %q) = %v, want %v", tc.result, tc.text, got, tc.want)
			}
		})
	}
}

func TestEndingWords(t *testing.T) {
	tests := []struct {
		name   string
		e      game.Ending
		text   string
		winner string
	}{
		{"ongoing", game.Ending{}, "*", "none"},
		{"White resigns", game.Loss(rules.White, game.Resignation), "0-1 (resignation)", "Black"},
		{"Black loses on time", game.Loss(rules.Black, game.TimeForfeit), "1-0 (time forfeit)", "White"},
		{"the board", game.EndingOf(rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}), "1/2-1/2 (no legal move)", "none"},
		{"adjudicated", game.Outside(rules.Draw), "1/2-1/2 (adjudication)", "none"},
		{"aborted", game.Ending{Termination: game.Aborted}, "* (aborted)", "none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			winner := "none"
			if c, ok := tc.e.Winner(); ok {
				winner = c.String()
			}
			if tc.e.String() != tc.text || winner != tc.winner {
				t.Errorf("%#v: %q won by %s, want %q won by %s", tc.e, tc.e, winner, tc.text, tc.winner)
			}
		})
	}
	if game.EndingOf(rules.Outcome{}).Over() || game.Outside(rules.Ongoing).Over() {
		t.Error("an ending of a game that goes on is over")
	}
}

func TestParseResult(t *testing.T) {
	for r := rules.Ongoing; r <= rules.Draw; r++ {
		if got, err := game.ParseResult(r.String()); err != nil || got != r {
			t.Errorf("ParseResult(%q) = %v, %v", r, got, err)
		}
	}
	for _, bad := range []string{"", "1-1", "½-½", "1/2"} {
		if _, err := game.ParseResult(bad); err == nil {
			t.Errorf("ParseResult(%q) succeeds", bad)
		}
	}
}
