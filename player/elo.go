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
	1:  {Elo: 353, Low: 305, High: 416},
	2:  {Elo: 622, Low: 562, High: 689},
	3:  {Elo: 949, Low: 878, High: 1033},
	4:  {Elo: 1126, Low: 1049, High: 1211},
	5:  {Elo: 1226, Low: 1147, High: 1319},
	6:  {Elo: 1383, Low: 1299, High: 1479},
	7:  {Elo: 1531, Low: 1439, High: 1633},
	8:  {Elo: 1750, Low: 1654, High: 1863},
	9:  {Elo: 2032, Low: 1936, High: 2151},
	10: {Elo: 2254, Low: 2150, High: 2379},
}
