package rating_test

import (
	"testing"

	"emergo/rating"
)

func TestEngineLevel(t *testing.T) {
	for _, c := range []struct {
		name  string
		level int
		want  float64
		ok    bool
	}{
		{"level 1, the anchor", 1, 800, true},
		{"level 2: 1 to 2 is 636.4 (0-1-19)", 2, 1436.4, true},
		{"level 3: 2 to 3 is 381.7", 3, 1818.1, true},
		{"level 4: the 0-0-20 row counted as 636.4", 4, 2454.5, true},
		{"level 5", 5, 2792.5, true},
		{"level 6", 6, 3033.3, true},
		{"level 7", 7, 3160.3, true},
		{"level 8", 8, 3287.3, true},
		{"level 9", 9, 3414.3, true},
		{"level 10", 10, 3541.3, true},
		{"no level 0", 0, 0, false},
		{"no level 11", 11, 0, false},
		{"no negative level", -1, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := rating.EngineLevel(c.level)
			if ok != c.ok || !near(got, c.want, 1e-9) {
				t.Errorf("EngineLevel(%d) = %v, %v; want %v, %v", c.level, got, ok, c.want, c.ok)
			}
			if ok && (got < rating.MinRating || got > rating.MaxRating) {
				t.Errorf("EngineLevel(%d) = %v, outside the ratings %v to %v", c.level, got, rating.MinRating, rating.MaxRating)
			}
		})
	}
	if rating.EngineLevels != 10 {
		t.Errorf("EngineLevels = %d, want 10", rating.EngineLevels)
	}
}
