package player

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"

	"emergo/rules"
)

// MCTS is plain Monte-Carlo tree search: UCT (Kocsis and Szepesvári,
// "Bandit based Monte-Carlo Planning", 2006) over uniformly random
// playouts, with no knowledge of the game beyond its rules. It is a
// baseline that grows stronger with its playouts and owes nothing to the
// engine's evaluation, so a level that beats it has learned something.
//
// Each iteration descends the tree by the UCB1 rule, adds one new node,
// plays random moves from it to the end of the game or to a cap of
// PlayoutPlies plies, and backs the result up the path. A playout that
// reaches the cap counts as won by the side with more free men (men on
// top of columns and in hand), as a draw when they are equal. The move
// played is the root's most visited child.
//
// Repetition (RULES 6.3) is not seen inside the tree or the playouts, which
// only cuts games short at the cap; the game layer applies it.
type MCTS struct {
	playouts int
	rng      *rand.Rand
	nodes    []mctsNode
	buf      []rules.Move // move buffer of the tree descent
	pbuf     []rules.Move // move buffer of the playouts
	path     []int32
}

// PlayoutPlies caps a playout: random games can shuffle columns back and
// forth for a long time once the men are entered, and the material after
// this many plies predicts the end well enough for a baseline.
const PlayoutPlies = 200

// mctsExplore is the exploration constant of UCB1 for results in [0, 1].
const mctsExplore = 1.0

// mctsPoll is the iterations between two looks at the clock and the
// context: a playout takes some 5 to 20 microseconds (BenchmarkPlayout),
// so the search stops within about a millisecond of its time.
const mctsPoll = 64

type mctsNode struct {
	move    rules.Move
	child   int32 // first child, -1 if none yet
	sibling int32 // next child of the parent, -1 at the end
	visits  int32
	points  int32 // two per win and one per draw, for the player who moved into the node
	nLegal  int32 // legal moves of the node's position, -1 until generated
	tried   int32 // children made so far
	offset  int32 // children are made from the legal moves starting here
	mover   rules.Color
	// result is the end of the game at this node, if the game is over
	// there: the winner's colour, or draw.
	result int8
}

const (
	mctsOngoing int8 = iota - 1
	mctsWhite
	mctsBlack
	mctsDraw
)

// NewMCTS returns a tree search that runs playouts iterations per move,
// seeded with seed.
func NewMCTS(playouts int, seed uint64) *MCTS {
	if playouts < 1 {
		playouts = 1
	}
	return &MCTS{
		playouts: playouts,
		rng:      rand.New(rand.NewPCG(seed, mctsStream)),
		buf:      make([]rules.Move, 0, rules.MaxMoves), // never grown: no position has more moves
		pbuf:     make([]rules.Move, 0, rules.MaxMoves),
	}
}

func (t *MCTS) Name() string { return fmt.Sprintf("mcts%d", t.playouts) }

// Playouts returns the iterations per move.
func (t *MCTS) Playouts() int { return t.playouts }

// Move runs the search from the current position of g. It stops early when
// ctx is done or when the clock's share of time for this move is spent,
// and plays the best move found so far.
func (t *MCTS) Move(ctx context.Context, g *rules.Game, c Clock) (rules.Move, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return rules.Move{}, errNoMove
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	root := g.Position()
	deadline := mctsDeadline(root.Side(), c)
	t.nodes = t.nodes[:0]
	t.nodes = append(t.nodes, t.newNode(rules.Move{}, root.Side().Other()))
	for i := 0; i < t.playouts; i++ {
		if i%mctsPoll == mctsPoll-1 {
			if ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline) {
				break
			}
		}
		t.iterate(root)
	}
	best, bestVisits := legal[0], int32(-1)
	for c := t.nodes[0].child; c >= 0; c = t.nodes[c].sibling {
		if n := &t.nodes[c]; n.visits > bestVisits {
			best, bestVisits = n.move, n.visits
		}
	}
	return best, nil
}

// mctsDeadline returns when to stop thinking under c; the zero time for no
// limit. On a running clock it takes a thirtieth of the time left plus
// most of the increment, as the engine does.
func mctsDeadline(side rules.Color, c Clock) time.Time {
	switch {
	case c.MoveTime > 0:
		return time.Now().Add(c.MoveTime * 9 / 10)
	case c.Time[side] > 0:
		return time.Now().Add(c.Time[side]/30 + c.Inc[side]*3/4)
	}
	return time.Time{}
}

func (t *MCTS) newNode(m rules.Move, mover rules.Color) mctsNode {
	return mctsNode{move: m, child: -1, sibling: -1, nLegal: -1, mover: mover, result: mctsOngoing}
}

// iterate runs one selection, expansion, playout and backup.
func (t *MCTS) iterate(root rules.Position) {
	p := root
	cur := int32(0)
	t.path = append(t.path[:0], 0)
	for {
		n := &t.nodes[cur]
		if n.result != mctsOngoing {
			break
		}
		fresh := false
		if n.nLegal < 0 {
			t.buf = p.Legal(t.buf[:0])
			fresh = true
			n.nLegal = int32(len(t.buf))
			switch {
			case p.Lost():
				n.result = int8(p.Side().Other())
			case n.nLegal == 0:
				n.result = mctsDraw
			default:
				n.offset = int32(t.rng.IntN(len(t.buf)))
			}
			if n.result != mctsOngoing {
				break
			}
		}
		if n.tried < n.nLegal {
			// Expand: the next untried move becomes a child, and the
			// playout starts from it.
			if !fresh {
				t.buf = p.Legal(t.buf[:0])
			}
			m := t.buf[(n.offset+n.tried)%n.nLegal]
			n.tried++
			child := t.newNode(m, p.Side())
			child.sibling = n.child
			idx := int32(len(t.nodes))
			t.nodes = append(t.nodes, child)
			t.nodes[cur].child = idx
			p.Play(m)
			cur = idx
			t.path = append(t.path, cur)
			break
		}
		cur = t.selectChild(cur)
		p.Play(t.nodes[cur].move)
		t.path = append(t.path, cur)
	}
	res := t.nodes[cur].result
	if res == mctsOngoing {
		res = t.playout(p)
	}
	for _, i := range t.path {
		n := &t.nodes[i]
		n.visits++
		switch {
		case res == mctsDraw:
			n.points++
		case res == int8(n.mover):
			n.points += 2
		}
	}
}

// selectChild returns the child of parent with the highest UCB1 bound.
func (t *MCTS) selectChild(parent int32) int32 {
	lnN := math.Log(float64(t.nodes[parent].visits))
	best, bestV := int32(-1), math.Inf(-1)
	for c := t.nodes[parent].child; c >= 0; c = t.nodes[c].sibling {
		n := &t.nodes[c]
		v := float64(n.points)/float64(2*n.visits) + mctsExplore*math.Sqrt(lnN/float64(n.visits))
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// playout plays random moves from p, a position where the game goes on,
// and returns the result. It allocates nothing: moves go to a reused
// buffer and p is played on in place.
func (t *MCTS) playout(p rules.Position) int8 {
	for ply := 0; ply < PlayoutPlies; ply++ {
		if p.Lost() {
			return int8(p.Side().Other())
		}
		t.pbuf = p.Legal(t.pbuf[:0])
		if len(t.pbuf) == 0 {
			return mctsDraw
		}
		p.Play(t.pbuf[t.rng.IntN(len(t.pbuf))])
	}
	if p.Lost() {
		return int8(p.Side().Other())
	}
	switch d := mctsFreeMen(&p, rules.White) - mctsFreeMen(&p, rules.Black); {
	case d > 0:
		return mctsWhite
	case d < 0:
		return mctsBlack
	}
	return mctsDraw
}

// mctsFreeMen counts c's men on top of its columns and in hand.
func mctsFreeMen(p *rules.Position, c rules.Color) int {
	n := p.Hand(c)
	for b := p.Owned(c); b != 0; b &= b - 1 {
		n += p.At(rules.Square(bits.TrailingZeros64(uint64(b)))).Top
	}
	return n
}
