package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"emergo/analysis"
	"emergo/game"
	"emergo/notation"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

func init() {
	register("play", "play a game in the terminal, against the engine or at one keyboard", runPlay)
}

// levelsHelp lists the engine's levels with their Elo (player.LevelElo),
// for play's help.
func levelsHelp() string {
	lines := []string{"The levels' Elo, the random mover at 0 (docs/strength.md):"}
	line := " "
	for level := 1; level <= player.MaxLevel; level++ {
		e := player.LevelElo[level]
		line += fmt.Sprintf(" %2d: %4.0f ± %-3.0f", level, e.Elo, e.Margin())
		if level%4 == 0 || level == player.MaxLevel {
			lines = append(lines, strings.TrimRight(line, " "))
			line = " "
		}
	}
	return strings.Join(lines, "\n")
}

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play", "",
		"Plays a game in the terminal. Type moves in notation (e5, c3-d4, c3xe5xg7)\n"+
			"and commands (moves, hint, undo, resign, save FILE, load FILE, help, quit).\n"+
			"The board is drawn after every move with each column's make-up. Reads lines\n"+
			"from standard input, so a game can also be piped in.\n\n"+
			levelsHelp(), stderr)
	bf := addBoardFlags(fs)
	level := fs.Int("level", 5, fmt.Sprintf("engine level, 1 (weakest) to %d", player.MaxLevel))
	color := fs.String("color", "white", "your colour: white, black, both (two people at one keyboard) or none (the engine plays itself)")
	moveTime := fs.Duration("movetime", 0, "engine thinking time per move, such as 2s (default: the level's own limit)")
	load := fs.String("load", "", "continue the first game of this record file (PGN-style or Abstract Play JSON)")
	seed := fs.Uint64("seed", 0, "seed of the engine's choice among near-equal moves (0: a new one each game)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{"play takes no arguments; moves are typed once the game runs"}
	}
	var human [2]bool
	switch strings.ToLower(*color) {
	case "white":
		human[rules.White] = true
	case "black":
		human[rules.Black] = true
	case "both":
		human = [2]bool{true, true}
	case "none":
	default:
		return usageError{fmt.Sprintf("-color %q: choose white, black, both or none", *color)}
	}
	if *moveTime < 0 {
		return usageError{"-movetime must not be negative"}
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	eng, err := player.NewEngine(*level, player.EngineOptions{Seed: *seed})
	if err != nil {
		return usageError{err.Error()}
	}
	s := &playSession{out: stdout, human: human, engine: eng, moveTime: *moveTime}
	if *load != "" {
		if bf.position != "" || wasSet(fs, "size") {
			return usageError{"-load takes the board from the record: give no -size or -position"}
		}
		if err := s.load(*load); err != nil {
			return err
		}
	} else {
		board, err := bf.game()
		if err != nil {
			return err
		}
		s.g = game.New(board, game.Options{})
	}
	return s.run(context.Background(), stdin)
}

// playSession is a game in the terminal: the game and who plays which
// side.
type playSession struct {
	out      io.Writer
	g        *game.Game
	human    [2]bool
	engine   *player.Engine
	moveTime time.Duration
	// tags are the loaded record's tags, which save keeps: its players,
	// its event and its date are the game's, not this session's.
	tags []record.Tag
}

// hintLimits bound the search of the hint command: deep enough to be
// worth asking, short enough not to keep a player waiting.
var hintLimits = player.Limits{Depth: 8, MoveTime: 2 * time.Second}

const playHelp = `Type a move in notation: e5 (an entry), c3-d4 (a step), c3xe5xg7 (a capture,
with every landing square). Commands:
  moves        list the legal moves
  hint         the engine's suggestion, with its score for the side to move
  undo         take back the last move (against the engine: your move and its reply)
  resign       give up the game
  save FILE    write the game to a record file: Abstract Play JSON if FILE
               ends in .json, else PGN-style; a loaded game keeps its
               record's players, event, date and other tags
  load FILE    continue the first game of a record file (either format)
  help         this text
  quit         leave
`

// run plays until quit or the end of the input. It reads lines only when a
// person is to move, so a game can be piped in line by line.
func (s *playSession) run(ctx context.Context, in io.Reader) error {
	sc := bufio.NewScanner(in)
	fmt.Fprint(s.out, "Type help for the commands.\n\n")
	s.show()
	for {
		if !s.over() && !s.human[s.side()] {
			if err := s.engineMove(ctx); err != nil {
				return err
			}
			continue
		}
		if s.over() {
			fmt.Fprint(s.out, "> ")
		} else {
			fmt.Fprintf(s.out, "%s> ", s.side())
		}
		if !sc.Scan() {
			fmt.Fprintln(s.out)
			return sc.Err()
		}
		if quit := s.command(ctx, strings.TrimSpace(sc.Text())); quit {
			return nil
		}
	}
}

func (s *playSession) side() rules.Color { return s.g.Side() }

// over reports whether the game has ended on the board or off it.
func (s *playSession) over() bool { return s.g.Over() }

// command carries out one line of input and reports whether to quit.
func (s *playSession) command(ctx context.Context, line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	arg := strings.TrimSpace(strings.TrimPrefix(line, fields[0]))
	switch strings.ToLower(fields[0]) {
	case "quit", "exit", "q":
		return true
	case "help", "?":
		fmt.Fprint(s.out, playHelp)
	case "moves":
		s.listMoves()
	case "undo":
		s.undo()
	case "hint":
		s.hint(ctx)
	case "resign":
		s.resign()
	case "save":
		if arg == "" {
			fmt.Fprintln(s.out, "save needs a file name: save FILE")
			break
		}
		if err := s.save(arg); err != nil {
			fmt.Fprintln(s.out, "Not saved:", err)
			break
		}
		fmt.Fprintf(s.out, "Saved to %s.\n", arg)
	case "load":
		if arg == "" {
			fmt.Fprintln(s.out, "load needs a file name: load FILE")
			break
		}
		if err := s.load(arg); err != nil {
			fmt.Fprintln(s.out, "Not loaded:", err)
			break
		}
		fmt.Fprintf(s.out, "Loaded %s.\n", arg)
		s.show()
	default:
		s.humanMove(line)
	}
	return false
}

// humanMove plays a typed move, or says why it cannot be played.
func (s *playSession) humanMove(text string) {
	g := s.g.Rules().Geometry()
	if strings.IndexFunc(text, unicode.IsLetter) >= 0 && strings.IndexFunc(text, unicode.IsDigit) < 0 {
		fmt.Fprintf(s.out, "Unknown command %q. Type help for the commands.\n", text)
		return
	}
	if _, _, err := notation.ParseSquares(g, text); err != nil {
		fmt.Fprintf(s.out, "Not a move: %s.\n", err)
		return
	}
	if s.over() {
		fmt.Fprintln(s.out, "The game is over. Use undo, save FILE, load FILE or quit.")
		return
	}
	p := s.g.Rules().Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		fmt.Fprintf(s.out, "Illegal move: %s.\n", err)
		return
	}
	if err := s.g.Play(s.side(), m); err != nil {
		fmt.Fprintf(s.out, "Illegal move: %v.\n", err)
		return
	}
	s.afterMove()
}

// engineMove lets the engine play the side to move and announces it.
func (s *playSession) engineMove(ctx context.Context) error {
	m, err := s.engine.Move(ctx, s.g.Rules(), player.Clock{MoveTime: s.moveTime})
	if err != nil {
		return err
	}
	if err := s.g.Play(s.side(), m); err != nil {
		return fmt.Errorf("the engine chose an illegal move: %w", err)
	}
	who := "Emergo"
	if !s.human[rules.White] && !s.human[rules.Black] {
		who = fmt.Sprintf("Emergo (%s)", s.side().Other())
	}
	fmt.Fprintf(s.out, "%s plays %s\n", who, m.Text(s.g.Rules().Geometry()))
	s.afterMove()
	return nil
}

// afterMove draws the board and announces the end of the game.
func (s *playSession) afterMove() {
	fmt.Fprintln(s.out)
	s.show()
	if e := s.g.Ending(); e.Over() {
		fmt.Fprintf(s.out, "Game over: %s (%s).\n", resultWords(e.Result), e.Termination)
	}
}

// resultWords says who won in words.
func resultWords(r rules.Result) string {
	switch r {
	case rules.WhiteWins:
		return "White wins"
	case rules.BlackWins:
		return "Black wins"
	case rules.Draw:
		return "a draw"
	}
	return "no result"
}

// endingWords says how a game ended off the board: "White resigns", or
// the Termination.
func endingWords(e game.Ending) string {
	if w, ok := e.Winner(); ok && e.Termination == game.Resignation {
		return w.Other().String() + " resigns"
	}
	return e.Termination.String()
}

// show draws the board with the men in hand and the side to move, or the
// result.
func (s *playSession) show() {
	board := s.g.Rules()
	p := board.Position()
	var last rules.Move
	if n := board.Len(); n > 0 {
		last = board.Moves()[n-1]
	}
	if e := s.g.Ending(); !e.Over() || e.Termination.OnBoard() {
		fmt.Fprint(s.out, describe(board, &p, last))
		return
	}
	fmt.Fprint(s.out, notation.Diagram(&p, last))
	fmt.Fprintf(s.out, "In hand: White %d, Black %d\n", p.Hand(rules.White), p.Hand(rules.Black))
	if !last.IsZero() {
		fmt.Fprintf(s.out, "Last move: %s\n", last.Text(p.Geometry()))
	}
	fmt.Fprintf(s.out, "Result: %s (%s)\n", s.g.Ending().Result, endingWords(s.g.Ending()))
	fmt.Fprintf(s.out, "Position: %s\n", notation.FormatPosition(&p))
}

// listMoves prints the legal moves in byte order, several to a line.
func (s *playSession) listMoves() {
	if s.over() {
		fmt.Fprintln(s.out, "The game is over: no moves.")
		return
	}
	moves := notation.SortedMoves(s.g.Rules().Geometry(), s.g.Rules().Legal())
	fmt.Fprintf(s.out, "%s:\n", plural(len(moves), "legal move"))
	line := ""
	for _, m := range moves {
		if line != "" && len(line)+1+len(m) > 72 {
			fmt.Fprintln(s.out, " ", line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += m
	}
	fmt.Fprintln(s.out, " ", line)
}

// undo takes back one move, and against the engine as many more as bring
// the turn back to the person: their move and the engine's reply.
func (s *playSession) undo() {
	board := s.g.Rules()
	if board.Len() == 0 {
		fmt.Fprintln(s.out, "There is no move to take back.")
		return
	}
	var taken []string
	for {
		taken = append(taken, board.Moves()[board.Len()-1].Text(board.Geometry()))
		s.g.Undo()
		if s.human[s.side()] || board.Len() == 0 || !(s.human[rules.White] || s.human[rules.Black]) {
			break
		}
	}
	fmt.Fprintf(s.out, "Took back %s.\n\n", strings.Join(taken, " and "))
	s.show()
}

// hint searches the position and shows the best move with its score.
func (s *playSession) hint(ctx context.Context) {
	if s.over() {
		fmt.Fprintln(s.out, "The game is over.")
		return
	}
	p := s.g.Rules().Position()
	r := s.engine.Search().Search(ctx, s.g.Rules(), hintLimits, nil)
	if r.Move.IsZero() {
		fmt.Fprintln(s.out, "No hint: the search found no move.")
		return
	}
	fmt.Fprintf(s.out, "Hint: %s (score %s for %s, depth %d)\n",
		r.Move.Text(p.Geometry()), analysis.FormatScore(r.Score), p.Side(), r.Depth)
}

// resign ends the game with a win for the side not to move.
func (s *playSession) resign() {
	if s.over() {
		fmt.Fprintln(s.out, "The game is over.")
		return
	}
	loser := s.side()
	if err := s.g.Resign(loser); err != nil {
		fmt.Fprintln(s.out, "Not resigned:", err)
		return
	}
	fmt.Fprintf(s.out, "%s resigns: %s.\n", loser, resultWords(s.g.Ending().Result))
}

// name is the player of c as a record names it.
func (s *playSession) name(c rules.Color) string {
	if s.human[c] {
		return "human"
	}
	return s.engine.Name()
}

// save writes the game as a record: Abstract Play JSON if the name ends in
// .json, the PGN-style text otherwise. A loaded game keeps the tags of its
// record, and gets this session's event, date and players only where the
// record leaves them unknown. The file is replaced whole, never left half
// written.
func (s *playSession) save(file string) error {
	rec := record.Of(s.g)
	for _, t := range s.tags {
		switch t.Key {
		case "Termination", record.RulesEnd:
			// The game's own ending, set by Of, and no verdict on moves it
			// may no longer have.
			continue
		}
		if err := rec.SetTag(t.Key, t.Value); err != nil {
			return err
		}
	}
	for _, t := range []record.Tag{
		{Key: "Event", Value: "emergo play"},
		{Key: "Date", Value: time.Now().Format("2006.01.02")},
		{Key: "White", Value: s.name(rules.White)},
		{Key: "Black", Value: s.name(rules.Black)},
	} {
		if v, ok := loadedTag(s.tags, t.Key); ok && v != "?" && v != "????.??.??" {
			continue
		}
		if err := rec.SetTag(t.Key, t.Value); err != nil {
			return err
		}
	}
	var data []byte
	if strings.EqualFold(filepath.Ext(file), ".json") {
		var err error
		if data, err = record.WriteAPJSON(rec); err != nil {
			return err
		}
	} else {
		var buf bytes.Buffer
		if err := record.WritePGN(&buf, rec); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	return writeFileAtomic(file, data)
}

// load replaces the game with the first game of a record file. A result
// the board does not give (a resignation, say) ends the game as recorded.
func (s *playSession) load(file string) error {
	recs, err := readRecordFile(file)
	if err != nil {
		return err
	}
	g, err := recs[0].Played(game.Options{})
	if err != nil {
		return err
	}
	s.g = g
	s.tags = recs[0].Tags
	if s.engine != nil {
		s.engine.NewGame()
	}
	return nil
}

// loadedTag returns the value of the tag key among tags, and whether it is
// there.
func loadedTag(tags []record.Tag, key string) (string, bool) {
	for _, t := range tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}
