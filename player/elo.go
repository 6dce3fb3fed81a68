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
	3:  {Elo: 810, Low: 748, High: 879},
	4:  {Elo: 1023, Low: 956, High: 1101},
	5:  {Elo: 1230, Low: 1155, High: 1320},
	6:  {Elo: 1371, Low: 1291, High: 1462},
	7:  {Elo: 1549, Low: 1465, High: 1639},
	8:  {Elo: 1740, Low: 1650, High: 1838},
	9:  {Elo: 2005, Low: 1911, High: 2116},
	10: {Elo: 2188, Low: 2091, High: 2303},
}
