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
	1:  {Elo: 297, Low: 256, High: 346},
	2:  {Elo: 542, Low: 487, High: 597},
	3:  {Elo: 731, Low: 673, High: 797},
	4:  {Elo: 998, Low: 931, High: 1072},
	5:  {Elo: 1157, Low: 1087, High: 1237},
	6:  {Elo: 1352, Low: 1273, High: 1439},
	7:  {Elo: 1530, Low: 1447, High: 1622},
	8:  {Elo: 1728, Low: 1642, High: 1832},
	9:  {Elo: 2019, Low: 1932, High: 2129},
	10: {Elo: 2318, Low: 2225, High: 2440},
}
