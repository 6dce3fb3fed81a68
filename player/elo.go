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
	1:  {Elo: 304, Low: 264, High: 349},
	2:  {Elo: 574, Low: 519, High: 636},
	3:  {Elo: 876, Low: 810, High: 953},
	4:  {Elo: 1098, Low: 1029, High: 1180},
	5:  {Elo: 1260, Low: 1182, High: 1346},
	6:  {Elo: 1442, Low: 1362, High: 1531},
	7:  {Elo: 1593, Low: 1511, High: 1685},
	8:  {Elo: 1804, Low: 1715, High: 1908},
	9:  {Elo: 2041, Low: 1952, High: 2149},
	10: {Elo: 2223, Low: 2131, High: 2333},
}
