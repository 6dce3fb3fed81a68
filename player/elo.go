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
	1:  {Elo: 352, Low: 304, High: 415},
	2:  {Elo: 629, Low: 570, High: 696},
	3:  {Elo: 845, Low: 780, High: 924},
	4:  {Elo: 997, Low: 928, High: 1078},
	5:  {Elo: 1145, Low: 1069, High: 1232},
	6:  {Elo: 1376, Low: 1295, High: 1467},
	7:  {Elo: 1553, Low: 1465, High: 1653},
	8:  {Elo: 1786, Low: 1697, High: 1897},
	9:  {Elo: 1944, Low: 1849, High: 2056},
	10: {Elo: 2166, Low: 2069, High: 2285},
}
