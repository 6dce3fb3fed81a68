package engine

import (
	"errors"
	"fmt"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// position serves
//
//	position startpos [moves m1 m2 ...]
//	position [fen] <position text> [moves m1 m2 ...]
//
// It plays the moves by the rules, keeping the whole game so that the
// search knows the repetitions that reach into it. On any error the
// position stays what it was.
func (s *session) position(args []string) {
	g, err := s.parsePosition(args)
	if err != nil {
		s.errorf("position: %v", err)
		return
	}
	s.game = g
}

func (s *session) parsePosition(args []string) (*rules.Game, error) {
	mi := len(args)
	for i, a := range args {
		if a == "moves" {
			mi = i
			break
		}
	}
	head, moves := args[:mi], args[min(mi+1, len(args)):]
	var g *rules.Game
	switch {
	case len(head) == 0:
		return nil, fmt.Errorf("want startpos, or a position text such as %q", "9x9 w 12/12 -")
	case head[0] == "startpos":
		if len(head) > 1 {
			return nil, fmt.Errorf("unexpected %q after startpos", head[1])
		}
		g = rules.NewGame(rules.GeometryOf(s.opts.Size))
	default:
		if head[0] == "fen" {
			head = head[1:]
		}
		if len(head) == 0 {
			return nil, fmt.Errorf("missing the position text after fen")
		}
		p, err := notation.ParsePosition(strings.Join(head, " "))
		if err != nil {
			var pe *notation.PositionError
			if errors.As(err, &pe) {
				err = errors.New(pe.Detail())
			}
			return nil, err
		}
		g = rules.NewGameFrom(p)
	}
	if err := notation.PlayMoves(g, moves); err != nil {
		return nil, err
	}
	return g, nil
}
