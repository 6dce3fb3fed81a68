package match

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"emergo/player"
)

// Pairing is one row of a strength table: P1 measured against P2.
type Pairing struct {
	P1, P2 string
	// Games overrides StrengthConfig.Games for this row when positive.
	Games int
}

// StrengthPairings returns the standard table: every level against the
// next one up, every level against the random and the greedy mover, and
// plain tree search with 10000 playouts against level 5 and the top level.
func StrengthPairings() []Pairing {
	var out []Pairing
	for n := 1; n < player.MaxLevel; n++ {
		out = append(out, Pairing{P1: fmt.Sprintf("level:%d", n), P2: fmt.Sprintf("level:%d", n+1)})
	}
	for _, base := range []string{"random", "greedy"} {
		for n := 1; n <= player.MaxLevel; n++ {
			out = append(out, Pairing{P1: fmt.Sprintf("level:%d", n), P2: base})
		}
	}
	top := fmt.Sprintf("level:%d", player.MaxLevel)
	out = append(out, Pairing{P1: "level:5", P2: "mcts:10000"}, Pairing{P1: top, P2: "mcts:10000", Games: TopGames})
	// The rows that check the top level's targets get enough games for a
	// narrow interval.
	for i := range out {
		if out[i].P1 == top && out[i].P2 == "greedy" {
			out[i].Games = TopGames
		}
	}
	return out
}

// TopGames is the number of games of the rows that measure the top level
// against MCTS with 10,000 playouts and against the greedy mover.
const TopGames = 200

// StrengthConfig is a run of strength measurements.
type StrengthConfig struct {
	// Pairings are the rows; default StrengthPairings().
	Pairings []Pairing
	// Games is the number of games of each row, rounded up to an even
	// number; default 20.
	Games int
	// MoveTime is the time per move of the engine levels and external
	// engines. The baselines (random, greedy, mcts) play by their own
	// settings and get no clock: mcts:N always runs its N playouts.
	MoveTime time.Duration
	// Sizes are the boards, alternating by pair; default 9 and 7.
	Sizes       []int
	Concurrency int
	MaxPlies    int
	Seed        uint64
	// PGN, if set, receives every game of every row.
	PGN         io.Writer
	SpecOptions SpecOptions
	// Progress, if set, is called after every game with the row's index.
	Progress func(row int, p Progress)
	// Row, if set, is called after every finished row with the rows so
	// far, so that they can be stored as they come; an error from it
	// stops the run.
	Row func(rows []StrengthRow) error
}

// StrengthRow is one measured row.
type StrengthRow struct {
	Pairing
	Summary Summary
}

// timed reports whether a spec is a player that gets the clock: the
// engine levels and external engines.
func timed(spec string) bool {
	return strings.HasPrefix(spec, "level:") || strings.HasPrefix(spec, "cmd:")
}

// RunStrength plays the rows one after another. On error it returns the
// rows finished before it.
func RunStrength(ctx context.Context, cfg StrengthConfig) ([]StrengthRow, error) {
	if cfg.Pairings == nil {
		cfg.Pairings = StrengthPairings()
	}
	if cfg.Games <= 0 {
		cfg.Games = 20
	}
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = []int{9, 7}
	}
	var rows []StrengthRow
	for i, pr := range cfg.Pairings {
		games := cfg.Games
		if pr.Games > 0 {
			games = pr.Games
		}
		mc := Config{
			Games:       games,
			Sizes:       cfg.Sizes,
			Concurrency: cfg.Concurrency,
			MaxPlies:    cfg.MaxPlies,
			Seed:        cfg.Seed,
			PGN:         cfg.PGN,
			Event:       fmt.Sprintf("emergo strength: %s vs %s", pr.P1, pr.P2),
		}
		var err error
		if mc.P1, err = ParseSpec(pr.P1, cfg.SpecOptions); err != nil {
			return rows, err
		}
		if mc.P2, err = ParseSpec(pr.P2, cfg.SpecOptions); err != nil {
			return rows, err
		}
		for j, spec := range []string{pr.P1, pr.P2} {
			if timed(spec) && cfg.MoveTime > 0 {
				mc.TC[j] = TimeControl{MoveTime: cfg.MoveTime}
			}
		}
		var progress func(Progress)
		if cfg.Progress != nil {
			progress = func(p Progress) { cfg.Progress(i, p) }
		}
		sum, err := Run(ctx, mc, progress)
		if err != nil {
			return rows, err
		}
		rows = append(rows, StrengthRow{pr, sum})
		if cfg.Row != nil {
			if err := cfg.Row(rows); err != nil {
				return rows, err
			}
		}
	}
	return rows, nil
}

// WriteStrengthMarkdown writes the rows as the markdown page of
// docs/strength.md: what was measured, the table and the command that
// measured it.
func WriteStrengthMarkdown(w io.Writer, rows []StrengthRow, cfg StrengthConfig, command string) error {
	var para strings.Builder
	para.WriteString("Each row is a match of game pairs: every opening (a few random moves that " +
		"a depth-4 search scores within half a man of equality) is played twice, the colours swapped. ")
	if len(cfg.Sizes) == 0 || len(cfg.Sizes) > 1 {
		para.WriteString("The pairs alternate between the 9x9 and the 7x7 board. ")
	} else {
		fmt.Fprintf(&para, "All games are on the %dx%d board. ", cfg.Sizes[0], cfg.Sizes[0])
	}
	if cfg.MoveTime > 0 {
		fmt.Fprintf(&para, "The engine levels think at most %v per move; ", cfg.MoveTime)
	} else {
		para.WriteString("The engine levels play by their own limits; ")
	}
	para.WriteString("the baselines (random, greedy, mcts:PLAYOUTS) play by their settings, without a clock. ")
	if cfg.MaxPlies > 0 {
		fmt.Fprintf(&para, "A game that reaches %d plies is adjudicated a draw. ", cfg.MaxPlies)
	}
	para.WriteString("W-D-L, the score and the Elo difference are the first player's; " +
		"the Elo interval is 95% (pentanomial, over the game pairs) and LOS is the likelihood " +
		"that the first player is the stronger. docs/match.md gives the formulas.")

	var b strings.Builder
	b.WriteString("# Strength of the levels\n\n")
	b.WriteString(wrap(para.String(), 76))
	b.WriteString("\n\n")
	b.WriteString("| first player | second player | games | W-D-L | score | Elo | 95% interval | LOS |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		c := &r.Summary.Counts
		if c.Games() == 0 {
			fmt.Fprintf(&b, "| %s | %s | 0 | | | | | |\n", r.P1, r.P2)
			continue
		}
		iv := c.Elo()
		fmt.Fprintf(&b, "| %s | %s | %d | %d-%d-%d | %.3f | %s | [%s, %s] | %.1f%% |\n",
			r.P1, r.P2, c.Games(), c.Wins, c.Draws, c.Losses, c.Score(),
			fmtElo(iv.Elo), fmtElo(iv.Low), fmtElo(iv.High), 100*c.LOS())
	}
	fmt.Fprintf(&b, "\nMeasured on %s with:\n\n```\n%s\n```\n", time.Now().Format("2006-01-02"), command)
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap breaks text into lines of at most width bytes between words.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		switch {
		case col == 0:
		case col+1+len(w) > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}
