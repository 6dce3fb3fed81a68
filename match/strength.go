package match

import (
	"context"
	"fmt"
	"io"
	"slices"
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

// LadderPlayers returns the players of the standard ladder, weakest
// first: the random mover, the zero of the scale, and the levels 1 to
// MaxLevel.
func LadderPlayers() []string {
	out := []string{"random"}
	for n := 1; n <= player.MaxLevel; n++ {
		out = append(out, fmt.Sprintf("level:%d", n))
	}
	return out
}

// LadderPairings returns the rows of a ladder over players, weakest
// first: each player against the next one up, in adjacent games, and
// against the one two above, in skip games, the weaker player first and
// the rows in the order of the weaker. Each player is then in two rows
// (the ends of the ladder) to four, tied to the scale by more than one
// match.
func LadderPairings(players []string, adjacent, skip int) []Pairing {
	var out []Pairing
	for i := range players {
		if i+1 < len(players) {
			out = append(out, Pairing{P1: players[i], P2: players[i+1], Games: adjacent})
		}
		if i+2 < len(players) {
			out = append(out, Pairing{P1: players[i], P2: players[i+2], Games: skip})
		}
	}
	return out
}

// StrengthConfig is a run of strength measurements.
type StrengthConfig struct {
	// Pairings are the rows; default the ladder of LadderPlayers.
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
	PGN io.Writer
	// Ladder, if set, are the players of a ladder (LadderPairings),
	// weakest first: the page fits one Elo to each, Ladder[0] at 0
	// (FitStrength).
	Ladder      []string
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

// timed reports whether a spec is a player that gets the clock: the top
// level and external engines. The levels below the top play by their
// depth and node limits, the same on every machine, and a busy machine
// cannot make them lose on time.
func timed(spec string) bool {
	return spec == fmt.Sprintf("level:%d", player.MaxLevel) || strings.HasPrefix(spec, "cmd:")
}

// RunStrength plays the rows one after another. On error it returns the
// rows finished before it.
func RunStrength(ctx context.Context, cfg StrengthConfig) ([]StrengthRow, error) {
	if cfg.Pairings == nil {
		cfg.Pairings = LadderPairings(LadderPlayers(), cfg.Games, cfg.Games)
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
//
// With cfg.Ladder it begins with the ladder's scale, the Elo of every
// player fitted to the rows played so far (those of the players they
// join to the first), and ends with how the levels are weakened. elapsed,
// if positive, is the time the run took.
func WriteStrengthMarkdown(w io.Writer, rows []StrengthRow, cfg StrengthConfig, command string, elapsed time.Duration) error {
	var para strings.Builder
	para.WriteString("Each row is a match of game pairs: every opening (a few random moves that " +
		"a depth-4 search scores within half a man of equality) is played twice, the colours swapped. ")
	if len(cfg.Sizes) == 0 || len(cfg.Sizes) > 1 {
		para.WriteString("The pairs alternate between the 9x9 and the 7x7 board. ")
	} else {
		fmt.Fprintf(&para, "All games are on the %dx%d board. ", cfg.Sizes[0], cfg.Sizes[0])
	}
	if cfg.MoveTime > 0 {
		fmt.Fprintf(&para, "Level %d thinks at most %v per move; the other levels play by their depth and node limits, "+
			"without a clock, and ", player.MaxLevel, cfg.MoveTime)
	} else {
		para.WriteString("The engine levels play by their own limits, without a clock, and ")
	}
	para.WriteString("the baselines (random, greedy, mcts:PLAYOUTS) by their settings. ")
	if cfg.MaxPlies > 0 {
		fmt.Fprintf(&para, "A game that reaches %d plies is adjudicated a draw. ", cfg.MaxPlies)
	}
	para.WriteString("W-D-L, the score and the Elo difference are the first player's; " +
		"the Elo interval is 95% (pentanomial, over the game pairs) and LOS is the likelihood " +
		"that the first player is the stronger. docs/match.md gives the formulas.")

	var b strings.Builder
	b.WriteString("# Strength of the levels\n\n")
	if cfg.Ladder != nil {
		writeLadder(&b, rows, cfg)
		b.WriteString("## The matches\n\n")
	}
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
	if elapsed > 0 {
		pairs := "one game pair"
		if cfg.Concurrency > 1 {
			pairs = fmt.Sprintf("%d game pairs", cfg.Concurrency)
		}
		fmt.Fprintf(&b, "\nThe run took %s, %s at a time.\n", fmtDuration(elapsed), pairs)
	}
	if cfg.Ladder != nil {
		b.WriteString("\n## How the levels are weakened\n\n")
		b.WriteString(wrap(weakened, 76))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fmtDuration writes d to the second as "1 h 2 min 3 s".
func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, sec := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	switch {
	case h > 0:
		return fmt.Sprintf("%d h %d min %d s", h, m, sec)
	case m > 0:
		return fmt.Sprintf("%d min %d s", m, sec)
	}
	return fmt.Sprintf("%d s", sec)
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

// writeLadder writes the scale of a ladder: every player's Elo fitted to
// the rows, with its interval and its step from the player below.
func writeLadder(b *strings.Builder, rows []StrengthRow, cfg StrengthConfig) {
	// The rows so far join a first part of the ladder to its anchor.
	players := cfg.Ladder[:1]
	for _, p := range cfg.Ladder[1:] {
		if !slices.ContainsFunc(rows, func(r StrengthRow) bool { return r.P1 == p || r.P2 == p }) {
			break
		}
		players = cfg.Ladder[:len(players)+1]
	}
	fit, err := FitStrength(rows, players, cfg.Seed)
	if err != nil {
		fmt.Fprintf(b, "No scale: %v.\n\n", err)
		return
	}
	b.WriteString(wrap(fmt.Sprintf("Every player on one Elo scale, %s at 0: the Elo of each is fitted to all the "+
		"matches below at once by maximum likelihood (the logistic model of docs/match.md, draws as half points, "+
		"each match counted with one drawn game more, so that a match won entirely stays finite). The 95%% "+
		"intervals are the 2.5%% and 97.5%% percentiles of %d fits to the matches' game pairs drawn again with "+
		"replacement (a bootstrap, seeded: the same games give the same page). Each player is in a match with "+
		"the next one up and with the one two above.", players[0], FitSamples)+clockNote(cfg), 76))
	b.WriteString("\n\n| player | how it plays | Elo | 95% interval | step from the one below | 95% interval of the step |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: |\n")
	for i, r := range fit {
		iv, step, stepIv := "(the zero)", "", ""
		if i > 0 {
			iv = fmt.Sprintf("[%.0f, %.0f]", r.Low, r.High)
			step = fmt.Sprintf("%+.0f", r.Step)
			stepIv = fmt.Sprintf("[%+.0f, %+.0f]", r.StepLow, r.StepHigh)
		}
		fmt.Fprintf(b, "| %s | %s | %.0f | %s | %s | %s |\n", r.Name, howItPlays(r.Name), r.Elo, iv, step, stepIv)
	}
	b.WriteString("\n")
}

// clockNote says, for a ladder with a clocked player, that its place
// depends on the machine.
func clockNote(cfg StrengthConfig) string {
	if cfg.MoveTime <= 0 || !slices.ContainsFunc(cfg.Ladder, timed) {
		return ""
	}
	return fmt.Sprintf(" The players with a clock (%v a move) reach deeper on a faster or quieter machine, "+
		"and their place with it; the others play the same moves on every machine.", cfg.MoveTime)
}

// howItPlays says how a player of a ladder chooses its moves.
func howItPlays(spec string) string {
	var n int
	if _, err := fmt.Sscanf(spec, "level:%d", &n); err == nil && n >= 1 && n <= player.MaxLevel {
		return player.Levels[n].String()
	}
	switch spec {
	case "random":
		return "a uniformly random legal move"
	case "greedy":
		return "the most free men one ply ahead"
	}
	return ""
}

// weakened is the page's account of the weak levels.
const weakened = "The levels below the top are weakened as a player who is learning the game is weak, " +
	"not by noise alone, and every limit is a count (of plies, nodes or jumps), so that a level plays alike " +
	"on every machine and, given its seed, the same moves. Sight: the weakest levels search one to three " +
	"plies deep, the middle ones a number of nodes, the top one as far as its clock allows. Long captures: " +
	"a level with a horizon of k jumps does not see, inside its search, a capture of more than k jumps; " +
	"a position whose compulsory capture is longer (the majority rule makes every capture of a position as " +
	"long, RULES 3.6) is scored as it stands, as if the capture were not there, so that such a level walks " +
	"into a long multi-jump of the opponent's and misses its own. Judgement: the weakest level counts " +
	"columns and men in hand (eval.Beginner), a column as one piece whatever it holds, and so misjudges the " +
	"prisoners under it; the next ones count free men only (eval.Novice), blind to hostages waiting to be " +
	"freed and to columns open to a jump. Noise: a level with a margin searches six lines and picks among " +
	"those within the margin of the best, the better ones more often, for variety. The top level is the " +
	"engine at full strength."
