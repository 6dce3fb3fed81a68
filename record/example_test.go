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
	for _, text := range []string{"a1", "g7", "c1"} {
		p := gm.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			fmt.Println(err)
			return
		}
		gm.Play(m)
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
		fmt.Println(rec.Tag("White"), rec.Tag("Black"), len(rec.Moves), "moves", rec.Result)
	}
	// Output:
	// alice bob 5 moves 1-0
	// record: game 2 (carol-dave): move 2... "d6": d6 is occupied
	// EOF
}
