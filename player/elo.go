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
	1:  {Elo: 312, Low: 271, High: 360},
	2:  {Elo: 580, Low: 525, High: 639},
	3:  {Elo: 870, Low: 806, High: 947},
	4:  {Elo: 1096, Low: 1025, High: 1176},
	5:  {Elo: 1249, Low: 1172, High: 1333},
	6:  {Elo: 1435, Low: 1353, High: 1523},
	7:  {Elo: 1544, Low: 1460, High: 1638},
	8:  {Elo: 1747, Low: 1657, High: 1848},
	9:  {Elo: 1990, Low: 1903, High: 2095},
	10: {Elo: 2284, Low: 2191, High: 2400},
}
