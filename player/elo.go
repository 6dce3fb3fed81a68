package player

// Elo is a level's strength on the scale of docs/strength.md: Elo points
// above the random mover, who is 0, with its 95% interval.
type Elo struct {
	Elo, Low, High float64
}

// Margin returns half the width of the interval, the "±" of a display.
func (e Elo) Margin() float64 { return (e.High - e.Low) / 2 }

// LevelElo is every level's Elo (index 0 is unused): the one source of
// the levels' strength for the site and the terminal. It is measured,
// and copied here from the table of docs/strength.md, by
//
//	emergo strength -games 300 -games2 150 -out docs/strength.md
//
// which plays the ladder of the random mover and the levels (the top
// level at 100 ms a move) and fits one Elo to each player; the figures
// are rounded to the Elo. Measure it again, and update this table,
// whenever Levels, the search or the evaluation changes.
var LevelElo = [MaxLevel + 1]Elo{
	1:  {Elo: 271, Low: 232, High: 316},
	2:  {Elo: 532, Low: 480, High: 586},
	3:  {Elo: 809, Low: 747, High: 877},
	4:  {Elo: 1030, Low: 962, High: 1108},
	5:  {Elo: 1307, Low: 1231, High: 1394},
	6:  {Elo: 1396, Low: 1313, High: 1488},
	7:  {Elo: 1572, Low: 1487, High: 1662},
	8:  {Elo: 1764, Low: 1674, High: 1865},
	9:  {Elo: 2026, Low: 1933, High: 2134},
	10: {Elo: 2239, Low: 2142, High: 2358},
}
