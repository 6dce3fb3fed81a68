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
	1:  {Elo: 317, Low: 274, High: 370},
	2:  {Elo: 579, Low: 525, High: 639},
	3:  {Elo: 794, Low: 733, High: 866},
	4:  {Elo: 944, Low: 878, High: 1018},
	5:  {Elo: 1081, Low: 1006, High: 1162},
	6:  {Elo: 1295, Low: 1218, High: 1381},
	7:  {Elo: 1511, Low: 1428, High: 1605},
	8:  {Elo: 1723, Low: 1640, High: 1832},
	9:  {Elo: 1850, Low: 1766, High: 1960},
	10: {Elo: 2066, Low: 1976, High: 2182},
}
