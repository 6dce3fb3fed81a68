package game_test

import (
	"fmt"
	"time"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// A game of one minute and two seconds a move, on a clock the example
// moves by hand.
func Example() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := game.Control{Time: time.Minute, Increment: 2 * time.Second}
	g := game.New(rules.NewGame(rules.Geometry7), game.Options{
		Now:     func() time.Time { return now },
		Control: [2]game.Control{clock, clock},
	})
	g.Start()
	for _, text := range []string{"a1", "g7"} {
		now = now.Add(10 * time.Second)
		p := g.Rules().Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := g.Play(g.Side(), m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("White", g.Left(rules.White), "Black", g.Left(rules.Black))
	now = now.Add(time.Minute)
	if g.Flag() {
		fmt.Println(g.Ending())
	}
	// Output:
	// White 52s Black 52s
	// 0-1 (time forfeit)
}
