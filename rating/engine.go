package rating

// engineSteps are the Elo differences between the engine's neighbouring
// levels, measured by docs/strength.md ("level:N vs level:N+1", 20
// games each, 100 ms a move): engineSteps[i] is level i+2's lead over
// level i+1.
//
// Level 3 lost all 20 games to level 4, a difference the table gives as
// infinite (its 95% interval says at least 140). It is counted here as
// if level 3 had drawn one game, 19.5 to 0.5: 400 log10(39) = 636.4, the
// figure of the 1-2 row (one draw, 19 losses), which is the nearest
// result. The other rows are taken as measured. The sum from level 5 to
// 10, 748.8, agrees with what the Monte-Carlo tree search with 10,000
// playouts says of those two levels (+147.2 and +676.1 against it:
// 823.3) within the rows' intervals.
var engineSteps = [...]float64{
	636.4, // 1 to 2: 0-1-19
	381.7, // 2 to 3: 1-2-17
	636.4, // 3 to 4: 0-0-20, counted as 19.5 to 0.5
	338.0, // 4 to 5: 2-1-17
	240.8, // 5 to 6: 3-2-15
	127.0, // 6 to 7: 5-3-12
	127.0, // 7 to 8: 6-1-13
	127.0, // 8 to 9: 5-3-12
	127.0, // 9 to 10: 5-3-12
}

// EngineLevel1 is the rating given to the engine's level 1, which
// searches one move deep and beats only the random and the greedy movers:
// well below the 1500 at which a new player starts, at the low end of the
// ratings people hold.
const EngineLevel1 = 800.0

// EngineLevels is the number of the engine's levels, 1 to EngineLevels.
const EngineLevels = len(engineSteps) + 1

// EngineLevel returns the estimated rating of the engine at level (1 to
// EngineLevels): EngineLevel1 plus the measured differences of the levels
// up to it, from 800 for level 1 to 3541.3 for level 10. It reports false
// for a level the engine does not have.
//
// The estimates are for display only: games against the engine are not
// rated. They come from games between the levels, and games between
// versions of one engine tend to spread them further apart than games
// against people would, so the top levels' figures are likely high.
func EngineLevel(level int) (float64, bool) {
	if level < 1 || level > EngineLevels {
		return 0, false
	}
	r := EngineLevel1
	for _, d := range engineSteps[:level-1] {
		r += d
	}
	return r, true
}
