// Package tune fits the evaluation weights to self-play games: it plays
// games between noisy low-level engines, keeps the quiet positions with
// the game's result, and fits eval's features to the results by logistic
// regression (the "Texel" method of Peter Österlund, 2014, in its linear
// form: the evaluation is linear in its weights, so the fit is a
// logistic regression solved by Newton's method).
package tune

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"emergo/egtb"
	"emergo/eval"
	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// Sample is a quiet position and the result of its game for the side to
// move: 1 win, 0.5 draw, 0 loss.
type Sample struct {
	Pos    rules.Position
	Result float64
	// Score is the engine's search's score of Pos for the side to move,
	// in hundredths of a man, when Scored (tune gen -scores): the
	// label that the fit may blend with the result (PatternConfig.ScoreWeight).
	Score  int32
	Scored bool
}

// GenConfig says which games to play.
type GenConfig struct {
	Games int   // games per board size
	Sizes []int // board sizes, default 9 and 7
	// Depth and Margin are the limits of both engines: a fixed depth,
	// default 4, and noise among the moves within Margin of the best,
	// default 35 (player.Level). They are fixed here, not taken from the
	// engine's levels, so that recalibrating the levels does not change
	// the games.
	Depth, Margin int
	Level         int    // names the engines and seeds their noise, default 4
	Seed          uint64 // the games are a function of the seed
	MaxPlies      int    // a longer game is scored a draw, default 300
	Workers       int    // default GOMAXPROCS
	// Weights the engines play with; nil for eval.Default.
	Weights *eval.Weights
	// Scores keeps with each position the score the search of the side
	// to move gave it (Sample.Score). The games are the same either way.
	Scores bool
	// Skip is the number of games already played, by an earlier run of
	// the same configuration: the games from Skip on are played, the same
	// as that run would have played them (a resumed run).
	Skip int
	// Game, if set, receives the samples of every game in game order, as
	// soon as the games before it are done, so that they can be stored as
	// they come; Generate then returns none. An error from it stops the
	// games.
	Game func(samples []Sample) error
}

// Generate plays the games and returns the samples in game order, so the
// output depends only on the configuration, not on the scheduling.
// progress, if set, is called after each game with the games done. When
// ctx ends it stops; cfg.Game has then had every game up to the first one
// not finished.
func Generate(ctx context.Context, cfg GenConfig, progress func(done, total int)) ([]Sample, error) {
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = []int{9, 7}
	}
	if cfg.Level == 0 {
		cfg.Level = 4
	}
	if cfg.Depth == 0 {
		cfg.Depth = 4
	}
	if cfg.Margin == 0 {
		cfg.Margin = 35
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 300
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	// The engines probe the endgame tables once they are read, in the
	// background: a game begun before would not be the one the
	// configuration fixes (nor the one a resumed run plays).
	for _, size := range cfg.Sizes {
		if _, err := egtb.ThreeFor(rules.GeometryOf(size)); err != nil {
			return nil, err
		}
	}
	total := cfg.Games * len(cfg.Sizes)
	results := make([][]Sample, total)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := cfg.Skip
	next := cfg.Skip // the first game not yet given to cfg.Game
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				size := cfg.Sizes[i%len(cfg.Sizes)]
				s, err := playGame(ctx, size, &cfg, cfg.Seed*1_000_003+uint64(i))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				results[i] = s
				if err == nil {
					done++
					if progress != nil {
						progress(done, total)
					}
				}
				for cfg.Game != nil && firstErr == nil && next < total && results[next] != nil {
					if err := cfg.Game(results[next]); err != nil {
						firstErr = err
					}
					results[next] = nil
					next++
				}
				mu.Unlock()
			}
		}()
	}
	for i := cfg.Skip; i < total && ctx.Err() == nil && !failed(&mu, &firstErr); i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cfg.Game != nil {
		return nil, nil
	}
	var out []Sample
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

// failed reports whether *err is set, under mu.
func failed(mu *sync.Mutex, err *error) bool {
	mu.Lock()
	defer mu.Unlock()
	return *err != nil
}

func playGame(ctx context.Context, size int, cfg *GenConfig, seed uint64) ([]Sample, error) {
	var eng [2]*player.Engine
	limits := player.Level{Depth: cfg.Depth, Margin: int32(cfg.Margin)}
	maxPlies := cfg.MaxPlies
	for c := range eng {
		e, err := player.NewEngine(cfg.Level, player.EngineOptions{HashMiB: 2, Seed: seed*2 + uint64(c), Weights: cfg.Weights, Limits: &limits})
		if err != nil {
			return nil, err
		}
		eng[c] = e
	}
	g := rules.NewGame(rules.GeometryOf(size))
	var quiet []Sample
	for g.Len() < maxPlies && !g.Outcome().Over() {
		p := g.Position()
		m, score, err := eng[p.Side()].Choose(ctx, g, player.Clock{})
		if err != nil {
			return nil, err
		}
		if !p.CanCapture() {
			smp := Sample{Pos: p}
			if cfg.Scores {
				smp.Score, smp.Scored = score, true
			}
			quiet = append(quiet, smp)
		}
		// A search stopped by ctx still gives a move, a worse one: the
		// game would no longer be the one the configuration fixes.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := g.Play(m); err != nil {
			return nil, err
		}
	}
	white := whitePoints(g.Outcome().Result)
	for i := range quiet {
		s := &quiet[i]
		s.Result = white
		if s.Pos.Side() == rules.Black {
			s.Result = 1 - white
		}
	}
	return quiet, nil
}

// whitePoints returns White's points for a finished game's result: 1,
// 1/2 (a draw, or a game cut at the ply limit) or 0.
func whitePoints(r rules.Result) float64 {
	switch r {
	case rules.WhiteWins:
		return 1
	case rules.BlackWins:
		return 0
	}
	return 0.5
}

// Write stores samples gzipped, one per line: the result for the side to
// move, a space, the score with its sign and a space if the sample has
// one, the position text.
func Write(w io.Writer, samples []Sample) error {
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	for _, s := range samples {
		if s.Scored {
			fmt.Fprintf(bw, "%g %+d %s\n", s.Result, s.Score, notation.FormatPosition(&s.Pos))
		} else {
			fmt.Fprintf(bw, "%g %s\n", s.Result, notation.FormatPosition(&s.Pos))
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Complete counts the games of a file of samples that an interrupted run
// may have cut short: the gzip streams, one a game, that are whole, and
// the bytes they take; what follows them is the unfinished game's. An
// error is one of reading, not of a game cut short.
func Complete(r io.Reader) (games int, size int64, err error) {
	cr := &countingReader{r: bufio.NewReader(r)}
	zr := new(gzip.Reader)
	for {
		err := zr.Reset(cr)
		if err == nil {
			zr.Multistream(false)
			_, err = io.Copy(io.Discard, zr)
		}
		if err != nil {
			return games, size, cutShort(err)
		}
		games++
		size = cr.n
	}
}

// cutShort is nil for the errors of a gzip stream that ends early or
// was never written whole (the end of the file, a header or data cut
// short), err for any other.
func cutShort(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		return nil
	}
	return err
}

// countingReader counts the bytes read through it. It is a flate.Reader
// (a ByteReader), so gzip reads no further than the stream it is in.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// ReadFile loads the samples of the file name, written by Write; its
// errors name the file.
func ReadFile(name string) ([]Sample, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// Read loads samples written by Write.
func Read(r io.Reader) ([]Sample, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	sc := bufio.NewScanner(zr)
	var out []Sample
	for n := 1; sc.Scan(); n++ {
		res, pos, ok := strings.Cut(sc.Text(), " ")
		var s Sample
		if !ok {
			return nil, fmt.Errorf("tune: line %d: want a result and a position", n)
		}
		switch res {
		case "1":
			s.Result = 1
		case "0.5":
			s.Result = 0.5
		case "0":
			s.Result = 0
		default:
			return nil, fmt.Errorf("tune: line %d: result %q is not 1, 0.5 or 0", n, res)
		}
		// A score has its sign; a position text starts with its size.
		if pos != "" && (pos[0] == '+' || pos[0] == '-') {
			score, rest, _ := strings.Cut(pos, " ")
			v, err := strconv.ParseInt(score, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("tune: line %d: score %q is not a number", n, score)
			}
			s.Score, s.Scored, pos = int32(v), true, rest
		}
		if s.Pos, err = notation.ParsePosition(pos); err != nil {
			return nil, fmt.Errorf("tune: line %d: %w", n, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
