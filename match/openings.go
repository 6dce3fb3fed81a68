package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"emergo/player"
	"emergo/rules"
)

// Opening is where the games of a pair begin: a start position and the
// moves played from it before the players take over. The records keep the
// moves as the first moves of the game, and the start position in their
// Position tag when it is not the empty board.
type Opening struct {
	Start rules.Position
	Moves []rules.Move
}

// Text returns the opening's moves in the notation, separated by spaces.
func (o Opening) Text() string {
	var b []byte
	for i, m := range o.Moves {
		if i > 0 {
			b = append(b, ' ')
		}
		b = m.AppendText(b, o.Start.Geometry())
	}
	return string(b)
}

// Game returns a game from the opening's start with its moves played.
func (o Opening) Game() (*rules.Game, error) {
	gm := rules.NewGameFrom(o.Start)
	for i, m := range o.Moves {
		if err := gm.Play(m); err != nil {
			return nil, fmt.Errorf("match: opening move %d: %w", i+1, err)
		}
	}
	return gm, nil
}

// OpeningOptions say what GenerateOpenings looks for. The zero value
// takes the defaults.
type OpeningOptions struct {
	// MinPlies and MaxPlies bound the random moves; default 4 and 8.
	MinPlies, MaxPlies int
	// Depth is the depth of the search that judges the balance; default 4.
	Depth int
	// Margin is the largest score, in hundredths of a man, that an
	// opening may leave to either side; default 50.
	Margin int32
}

func (o OpeningOptions) withDefaults() OpeningOptions {
	if o.MinPlies <= 0 {
		o.MinPlies = 4
	}
	if o.MaxPlies < o.MinPlies {
		o.MaxPlies = max(o.MinPlies, 8)
	}
	if o.Depth <= 0 {
		o.Depth = 4
	}
	if o.Margin <= 0 {
		o.Margin = 50
	}
	return o
}

// GenerateOpenings returns n distinct balanced openings on board g: random
// legal moves from the empty board, a number between MinPlies and MaxPlies,
// kept when a shallow search scores the result within Margin of equality.
// The same seed gives the same openings.
func GenerateOpenings(g *rules.Geometry, n int, seed uint64, o OpeningOptions) ([]Opening, error) {
	o = o.withDefaults()
	rng := rand.New(rand.NewPCG(seed, uint64(g.N)))
	judge := player.NewSearcher(player.SearchOptions{HashMiB: 1})
	seen := map[rules.Position]bool{}
	var out []Opening
	for tries := 0; len(out) < n; tries++ {
		if tries >= 200*n+1000 {
			return out, fmt.Errorf("match: only %d of %d balanced %dx%d openings found in %d tries", len(out), n, g.N, g.N, tries)
		}
		plies := o.MinPlies + rng.IntN(o.MaxPlies-o.MinPlies+1)
		gm := rules.NewGame(g)
		for range plies {
			legal := gm.Legal()
			if len(legal) == 0 {
				break
			}
			gm.Play(legal[rng.IntN(len(legal))])
		}
		p := gm.Position()
		if gm.Len() < plies || gm.Outcome().Over() || seen[p] {
			continue
		}
		seen[p] = true
		// The opening alone is judged, without the moves before it.
		res := judge.Search(context.Background(), rules.NewGameFrom(p), player.Limits{Depth: o.Depth}, nil)
		if res.Score < -o.Margin || res.Score > o.Margin {
			continue
		}
		out = append(out, Opening{Start: gm.Start(), Moves: slices.Clone(gm.Moves())})
	}
	return out, nil
}
