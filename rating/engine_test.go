package rating_test

import (
	"testing"

	"emergo/rating"
)

func TestEngineRating(t *testing.T) {
	for _, c := range []struct {
		name string
		elo  float64
		want float64
	}{
		{"the random mover, the zero of the Elo scale, at the least rating", 0, rating.MinRating},
		{"a beginner's level", 350, 750},
		{"a new player's strength", 1100, rating.DefaultRating},
		{"a strong level", 2600, 3000},
		{"below the random mover, held at the least rating", -100, rating.MinRating},
		{"beyond the scale, held at the greatest", 5000, rating.MaxRating},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rating.EngineRating(c.elo); !near(got, c.want, 1e-9) {
				t.Errorf("EngineRating(%v) = %v, want %v", c.elo, got, c.want)
			}
		})
	}
	// The order of the levels is kept: a stronger level is rated higher.
	for elo := 0.0; elo < 3500; elo += 100 {
		if rating.EngineRating(elo+100) <= rating.EngineRating(elo) {
			t.Errorf("EngineRating(%v) = %v is not above EngineRating(%v) = %v", elo+100, rating.EngineRating(elo+100), elo, rating.EngineRating(elo))
		}
	}
}
