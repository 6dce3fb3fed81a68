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
//	emergo strength -out docs/strength.md
//
// which plays the ladder of the random mover and the levels (the top
// level at 100 ms a move) and fits one Elo to each player. Measure it
// again, and update this table, whenever Levels, the search or the
// evaluation changes.
var LevelElo = [MaxLevel + 1]Elo{
	1:  {Elo: 350, Low: 300, High: 400},
	2:  {Elo: 600, Low: 550, High: 650},
	3:  {Elo: 850, Low: 800, High: 900},
	4:  {Elo: 1100, Low: 1050, High: 1150},
	5:  {Elo: 1350, Low: 1300, High: 1400},
	6:  {Elo: 1600, Low: 1550, High: 1650},
	7:  {Elo: 1850, Low: 1800, High: 1900},
	8:  {Elo: 2100, Low: 2050, High: 2150},
	9:  {Elo: 2350, Low: 2300, High: 2400},
	10: {Elo: 2600, Low: 2550, High: 2650},
}
