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
//	emergo strength -games 40 -games2 20 -out docs/strength.md
//
// which plays the ladder of the random mover and the levels (the top
// level at 100 ms a move) and fits one Elo to each player; the figures
// are rounded to the Elo. Measure it again, and update this table,
// whenever Levels, the search or the evaluation changes.
var LevelElo = [MaxLevel + 1]Elo{
	1:  {Elo: 263, Low: 168, High: 400},
	2:  {Elo: 500, Low: 372, High: 684},
	3:  {Elo: 708, Low: 578, High: 893},
	4:  {Elo: 891, Low: 746, High: 1091},
	5:  {Elo: 1028, Low: 870, High: 1249},
	6:  {Elo: 1182, Low: 1015, High: 1414},
	7:  {Elo: 1395, Low: 1220, High: 1646},
	8:  {Elo: 1578, Low: 1389, High: 1857},
	9:  {Elo: 1853, Low: 1660, High: 2145},
	10: {Elo: 2077, Low: 1870, High: 2379},
}
