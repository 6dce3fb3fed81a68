package rating

// EngineOffset is the rating on the site's scale of the random mover, the
// zero of the engine's Elo scale (player.LevelElo, docs/strength.md): the
// least rating the site holds, MinRating, since no one plays worse than
// at random. A level's rating for display is EngineOffset plus its Elo.
const EngineOffset = MinRating

// EngineRating returns the rating on the site's scale of an engine level
// whose Elo above the random mover is elo: EngineOffset + elo, within
// MinRating and MaxRating.
//
// It is for display only: games against the engine are not rated. The
// Elo comes from games between the levels, and games between versions of
// one engine tend to spread them further apart than games against people
// would, so the top levels' figures are likely high.
func EngineRating(elo float64) float64 {
	return max(MinRating, min(MaxRating, EngineOffset+elo))
}
