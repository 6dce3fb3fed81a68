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
	2:  {Elo: 582, Low: 525, High: 643},
	3:  {Elo: 872, Low: 807, High: 950},
	4:  {Elo: 1094, Low: 1025, High: 1174},
	5:  {Elo: 1254, Low: 1178, High: 1340},
	6:  {Elo: 1462, Low: 1382, High: 1553},
	7:  {Elo: 1608, Low: 1525, High: 1702},
	8:  {Elo: 1793, Low: 1705, High: 1895},
	9:  {Elo: 2060, Low: 1966, High: 2172},
	10: {Elo: 2289, Low: 2195, High: 2409},
}
