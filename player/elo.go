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
	1:  {Elo: 322, Low: 279, High: 375},
	2:  {Elo: 578, Low: 522, High: 638},
	3:  {Elo: 753, Low: 694, High: 824},
	4:  {Elo: 921, Low: 854, High: 999},
	5:  {Elo: 1089, Low: 1014, High: 1173},
	6:  {Elo: 1255, Low: 1176, High: 1342},
	7:  {Elo: 1390, Low: 1307, High: 1479},
	8:  {Elo: 1571, Low: 1483, High: 1667},
	9:  {Elo: 1713, Low: 1624, High: 1816},
	10: {Elo: 1911, Low: 1817, High: 2019},
}
