package game

import (
	"fmt"
	"strings"

	"emergo/rules"
)

// Termination says how a game ended: by a rule of the board (RULES
// 6.1-6.3) or off it (RULES 6.4). Its String is the value of the
// Termination tag of the records (docs/records.md), so the words that
// records, matches and the server's store hold are these.
type Termination uint8

const (
	Unterminated Termination = iota // the game goes on
	NoMen                           // the loser has no men in hand and no column (RULES 6.1)
	NoMove                          // the player to move has no legal move: a draw (RULES 6.2)
	Repetition                      // a position for the third time: a draw (RULES 6.3)
	Resignation                     // a player gave up
	Agreement                       // the players agreed a draw
	TimeForfeit                     // a player ran out of time
	Adjudication                    // a result decided from outside the game, such as a match's ply limit
	Aborted                         // called off before both players had moved: no result
	IllegalMove                     // a program in a match played an illegal move, and lost
	Crash                           // a program in a match failed, and lost
	Abandoned                       // a player left the game unplayed on his turn, and lost
)

// terminations are the words of the Termination values, by value. The
// board's own are rules.Reason's, so the two cannot drift apart.
var terminations = [...]string{
	Unterminated: "unterminated",
	NoMen:        rules.NoMen.String(),
	NoMove:       rules.NoMove.String(),
	Repetition:   rules.Repetition.String(),
	Resignation:  "resignation",
	Agreement:    "agreement",
	TimeForfeit:  "time forfeit",
	Adjudication: "adjudication",
	Aborted:      "aborted",
	IllegalMove:  "illegal move",
	Crash:        "crash",
	Abandoned:    "abandoned",
}

func (t Termination) String() string {
	if int(t) < len(terminations) {
		return terminations[t]
	}
	return fmt.Sprintf("Termination(%d)", uint8(t))
}

// ParseTermination reads the word of a Termination. A word with a detail
// after a colon, as in "adjudication: ply limit" (which older match
// records hold), is read by its word.
func ParseTermination(text string) (Termination, error) {
	word, _, _ := strings.Cut(text, ":")
	word = strings.TrimSpace(word)
	for t, w := range terminations {
		if w == word {
			return Termination(t), nil
		}
	}
	return 0, fmt.Errorf("game: unknown termination %q", text)
}

// OnBoard reports whether the board decides this ending (RULES 6.1-6.3):
// no player can choose it, and no record can contradict it.
func (t Termination) OnBoard() bool { return t == NoMen || t == NoMove || t == Repetition }

// decisive reports whether t always has a winner, and drawn whether it is
// always a draw; the others (Adjudication) may be either.
func (t Termination) decisive() bool {
	switch t {
	case NoMen, Resignation, TimeForfeit, IllegalMove, Crash, Abandoned:
		return true
	}
	return false
}

func (t Termination) drawn() bool { return t == NoMove || t == Repetition || t == Agreement }

// Ending is how a game ended: its result and why. The zero Ending is a
// game that goes on. An aborted game is over without a result.
type Ending struct {
	Result      rules.Result
	Termination Termination
}

// Over reports whether the game has ended.
func (e Ending) Over() bool { return e.Termination != Unterminated }

// Winner returns the colour that won, if one did.
func (e Ending) Winner() (rules.Color, bool) {
	switch e.Result {
	case rules.WhiteWins:
		return rules.White, true
	case rules.BlackWins:
		return rules.Black, true
	}
	return 0, false
}

// String returns the ending as "1-0 (resignation)", or "*" for a game
// that goes on.
func (e Ending) String() string {
	if !e.Over() {
		return "*"
	}
	return fmt.Sprintf("%s (%s)", e.Result, e.Termination)
}

// check reports whether the result fits the termination: a win for the
// endings that have a winner, a draw for the drawn ones, no result for a
// game that goes on or was aborted.
func (e Ending) check() error {
	none := !e.Over() || e.Termination == Aborted
	_, won := e.Winner()
	switch {
	case int(e.Termination) >= len(terminations):
		return fmt.Errorf("game: unknown termination %d", e.Termination)
	case none && e.Result != rules.Ongoing:
		return fmt.Errorf("game: %s with the result %s", e.Termination, e.Result)
	case !none && e.Result == rules.Ongoing:
		return fmt.Errorf("game: %s without a result", e.Termination)
	case e.Termination.decisive() && !won:
		return fmt.Errorf("game: %s is a win, not %s", e.Termination, e.Result)
	case e.Termination.drawn() && e.Result != rules.Draw:
		return fmt.Errorf("game: %s is a draw, not %s", e.Termination, e.Result)
	}
	return nil
}

// Loss returns the ending in which loser loses by t, such as a
// resignation or a time forfeit.
func Loss(loser rules.Color, t Termination) Ending {
	if loser == rules.White {
		return Ending{rules.BlackWins, t}
	}
	return Ending{rules.WhiteWins, t}
}

// Outside returns the ending of a result decided from outside the game
// for a reason not known: an adjudication (RULES 6.4), or a game that
// goes on for the result "*".
func Outside(r rules.Result) Ending {
	if r == rules.Ongoing {
		return Ending{}
	}
	return Ending{r, Adjudication}
}

// EndingOf returns the ending the board gives by its outcome.
func EndingOf(o rules.Outcome) Ending {
	t := Unterminated
	switch o.Reason {
	case rules.NoMen:
		t = NoMen
	case rules.NoMove:
		t = NoMove
	case rules.Repetition:
		t = Repetition
	}
	return Ending{o.Result, t}
}

// ParseResult reads a result as records and stores write it (its
// String): "1-0", "0-1", "1/2-1/2", or "*" for none.
func ParseResult(text string) (rules.Result, error) {
	for r := rules.Ongoing; r <= rules.Draw; r++ {
		if r.String() == text {
			return r, nil
		}
	}
	return 0, fmt.Errorf("game: unknown result %q", text)
}

// ParseEnding reads an ending as records and stores keep it: a result and
// the word of its Termination. The empty word is a game that goes on
// (result "*"). It fails for an unknown word and for a result that does
// not fit the word.
func ParseEnding(r rules.Result, text string) (Ending, error) {
	if text == "" && r == rules.Ongoing {
		return Ending{}, nil
	}
	t, err := ParseTermination(text)
	if err != nil {
		return Ending{}, err
	}
	e := Ending{r, t}
	return e, e.check()
}

// Recorded returns the ending off the board that a recorded result and
// Termination word give: the word's ending when it is one of ours, fits
// the result and is not one the board decides (the board's own endings
// are the board's to give); else the result as decided from outside
// (Outside). Records from other programs say "normal", or nothing.
func Recorded(r rules.Result, text string) Ending {
	if e, err := ParseEnding(r, text); err == nil && !e.Termination.OnBoard() {
		return e
	}
	return Outside(r)
}
