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
	1:  {Elo: 320, Low: 273, High: 375},
	2:  {Elo: 573, Low: 518, High: 632},
	3:  {Elo: 768, Low: 707, High: 837},
	4:  {Elo: 999, Low: 930, High: 1074},
	5:  {Elo: 1212, Low: 1135, High: 1299},
	6:  {Elo: 1368, Low: 1281, High: 1462},
	7:  {Elo: 1516, Low: 1427, High: 1610},
	8:  {Elo: 1702, Low: 1608, High: 1804},
	9:  {Elo: 1832, Low: 1740, High: 1936},
	10: {Elo: 2051, Low: 1956, High: 2161},
}
