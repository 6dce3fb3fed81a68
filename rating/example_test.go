package rating_test

import (
	"fmt"
	"time"

	"emergo/rating"
)

// Two new players meet; the first wins. Both ratings change at once, each
// computed from the other's rating before the game.
func ExampleUpdate() {
	end := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	alice, bob := rating.Update(rating.Default(), rating.Default(), 1, end)
	fmt.Printf("Alice %v (RD %.0f), Bob %v (RD %.0f)\n", alice, alice.Deviation, bob, bob.Deviation)
	fmt.Printf("Alice is expected to score %.2f in their next game\n", rating.Expected(alice, bob))
	// Output:
	// Alice 1662? (RD 290), Bob 1338? (RD 290)
	// Alice is expected to score 0.76 in their next game
}

// A settled player's rating becomes provisional again after 433 days
// without a rated game.
func ExampleRating_At() {
	last := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	r := rating.Rating{Rating: 1812, Deviation: 45, Volatility: 0.06, Games: 310, Last: last}
	for _, days := range []int{0, 100, 433} {
		now := r.At(last.AddDate(0, 0, days))
		fmt.Printf("after %d days: %v, RD %.0f\n", days, now, now.Deviation)
	}
	// Output:
	// after 0 days: 1812, RD 45
	// after 100 days: 1812, RD 66
	// after 433 days: 1812?, RD 110
}

func ExampleEngineRating() {
	// Elo above the random mover, as player.LevelElo holds them.
	for _, elo := range []float64{0, 350, 1100} {
		fmt.Printf("Elo %.0f: rating %.0f\n", elo, rating.EngineRating(elo))
	}
	// Output:
	// Elo 0: rating 400
	// Elo 350: rating 750
	// Elo 1100: rating 1500
}
