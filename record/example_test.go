package record_test

import (
	"fmt"
	"os"
	"strings"

	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

func ExampleWritePGN() {
	gm := rules.NewGame(rules.Geometry7)
	if err := notation.PlayMoves(gm, []string{"a1", "g7", "c1"}); err != nil {
		fmt.Println(err)
		return
	}
	rec := record.FromGame(gm)
	rec.SetTag("White", "alice")
	rec.SetTag("Black", "bob")
	rec.Comments = []string{"", "Black takes the far corner."}
	if err := record.WritePGN(os.Stdout, rec); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [Event "?"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "?"]
	// [White "alice"]
	// [Black "bob"]
	// [Result "*"]
	// [Size "7"]
	// [Termination "unterminated"]
	//
	// 1. a1 g7 {Black takes the far corner.} 2. c1 *
}

func ExampleDecoder() {
	const games = `[White "alice"]
[Black "bob"]

1. d6 c1 2. b4 b2 {Both sides enter.} 3. f4 1-0

[White "carol"]
[Black "dave"]

1. d6 c1 2. b4 d6 *
`
	d := record.NewDecoder(strings.NewReader(games))
	for {
		var rec record.Record
		err := d.Decode(&rec)
		if err != nil {
			fmt.Println(err)
			if _, ok := err.(*record.Error); ok {
				continue // the next game can still be read
			}
			break
		}
		fmt.Println(rec.Tag("White"), rec.Tag("Black"), len(rec.Moves), "plies", rec.Result)
	}
	// Output:
	// alice bob 5 plies 1-0
	// record: game 2 (carol-dave): move 2... "d6": d6 is occupied
	// EOF
}

func ExampleReadAll() {
	// An array of Abstract Play records, as the server publishes them; the
	// content decides the format, whatever the file's name.
	const published = `[
  {"header": {"game": {"name": "Emergo", "variants": []}, "site": {"name": "Abstract Play"},
     "date-start": "2026-02-01T09:00:00Z", "date-end": "2026-02-01T10:00:00Z", "date-generated": "2026-02-01T10:00:00Z",
     "players": [{"name": "alice", "result": 0}, {"name": "bob", "result": 1}]},
   "moves": [["d6", "c1"], ["b4", "b2"], ["resign"]]},
  {"header": {"game": {"name": "Emergo", "variants": []}, "site": {"name": "Abstract Play"},
     "date-start": "2026-02-02T09:00:00Z", "date-end": "2026-02-02T10:00:00Z", "date-generated": "2026-02-02T10:00:00Z",
     "players": [{"name": "bob", "result": 1}, {"name": "carol", "result": 1}]},
   "moves": [["d6", "c1"], ["b4", "draw"]]}
]`
	recs, err := record.ReadAll([]byte(published))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rec := range recs {
		fmt.Println(rec.Tag("White"), rec.Tag("Black"), rec.Result, rec.Tag("Termination"), len(rec.Moves), "plies")
	}
	// Output:
	// alice bob 0-1 resignation 4 plies
	// bob carol 1/2-1/2 agreement 3 plies
}

func ExampleAPJSONWarnings() {
	gm := rules.NewGame(rules.Geometry7)
	rec := record.FromGame(gm)
	for _, w := range record.APJSONWarnings(rec) {
		fmt.Println(w)
	}
	// Output:
	// record: Abstract Play has no 7x7 Emergo: it plays this game as 9x9 (the record marks it with the variant "7x7", our own convention)
	// record: the game is not over, and Abstract Play archives finished games only: the record is written unrated, with equal results and "unfinished": true
	// record: the game's start is unknown, and Abstract Play requires its dates: they are written as 1970-01-01T00:00:00Z
}
