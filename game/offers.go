package game

import "emergo/rules"

// Offer is a pending offer to the opponent, a draw or a take-back: who
// made it. The zero Offer is none.
type Offer struct {
	Open bool
	By   rules.Color
}

// OfferLife says how long a draw offer stands.
type OfferLife uint8

const (
	// UntilNextMove: the next move, by either player, withdraws it.
	UntilNextMove OfferLife = iota
	// UntilReply: it stands until the opponent has moved, so an offer
	// made with one's own move stands for the opponent's next turn.
	UntilReply
)

// NoOfferError is the error of answering an offer the opponent has not
// made.
type NoOfferError struct {
	TakeBack bool // a take-back request, else a draw offer
	Accept   bool // accepting it, else declining it
}

func (e *NoOfferError) Error() string {
	what, answer := "draw offer", "decline"
	if e.TakeBack {
		what = "take-back request"
	}
	if e.Accept {
		answer = "accept"
	}
	return "game: there is no " + what + " to " + answer
}

// DrawOffer returns the draw offer that stands, if any.
func (g *Game) DrawOffer() Offer { return g.drawOffer }

// TakeBackRequest returns the take-back request that stands, if any.
func (g *Game) TakeBackRequest() Offer { return g.request }

// withdraw drops the offers that the move of mover answers: a take-back
// request always, a draw offer as Options.DrawOffer says.
func (g *Game) withdraw(mover rules.Color) {
	g.request = Offer{}
	if g.opts.DrawOffer == UntilNextMove || g.drawOffer.By != mover {
		g.drawOffer = Offer{}
	}
}

// OfferDraw offers a draw for by. If the opponent's offer stands, the
// draw is agreed and the game ends.
func (g *Game) OfferDraw(by rules.Color) error {
	if err := g.overError(); err != nil {
		return err
	}
	if g.drawOffer.Open && g.drawOffer.By != by {
		g.end(Ending{rules.Draw, Agreement})
		return nil
	}
	g.drawOffer = Offer{Open: true, By: by}
	return nil
}

// AcceptDraw accepts the opponent's draw offer for by: the game ends in a
// draw by agreement.
func (g *Game) AcceptDraw(by rules.Color) error {
	if err := g.answer(g.drawOffer, by, &NoOfferError{Accept: true}); err != nil {
		return err
	}
	g.end(Ending{rules.Draw, Agreement})
	return nil
}

// DeclineDraw declines the opponent's draw offer for by.
func (g *Game) DeclineDraw(by rules.Color) error {
	if err := g.answer(g.drawOffer, by, &NoOfferError{}); err != nil {
		return err
	}
	g.drawOffer = Offer{}
	return nil
}

// answer checks that by may answer the offer o: the game goes on and the
// opponent made it. Otherwise it returns none.
func (g *Game) answer(o Offer, by rules.Color, none error) error {
	if err := g.overError(); err != nil {
		return err
	}
	if !o.Open || o.By == by {
		return none
	}
	return nil
}

// RequestTakeBack asks the opponent, for by, to take back by's last move
// and the reply to it. It fails with ErrNothingToTakeBack if by has not
// moved.
func (g *Game) RequestTakeBack(by rules.Color) error {
	if err := g.overError(); err != nil {
		return err
	}
	if g.plies(by) == 0 {
		return ErrNothingToTakeBack
	}
	g.request = Offer{Open: true, By: by}
	return nil
}

// AcceptTakeBack accepts the opponent's take-back request for by: his
// last move, and by's reply to it, are taken back.
func (g *Game) AcceptTakeBack(by rules.Color) error {
	if err := g.answer(g.request, by, &NoOfferError{TakeBack: true, Accept: true}); err != nil {
		return err
	}
	return g.TakeBack(by.Other())
}

// DeclineTakeBack declines the opponent's take-back request for by.
func (g *Game) DeclineTakeBack(by rules.Color) error {
	if err := g.answer(g.request, by, &NoOfferError{TakeBack: true}); err != nil {
		return err
	}
	g.request = Offer{}
	return nil
}

// TakeBack takes back who's last move and the reply to it at once, as
// when the opponent is a program that always agrees, so that it is who's
// turn again. Every clock keeps its time; the offers are withdrawn. It
// fails with ErrNothingToTakeBack if who has not moved.
func (g *Game) TakeBack(who rules.Color) error {
	if err := g.overError(); err != nil {
		return err
	}
	n := g.plies(who)
	if n == 0 {
		return ErrNothingToTakeBack
	}
	g.takeBack(n)
	return nil
}

// plies returns how many moves to take back so that it is who's turn
// again before his last move: 1 if he moved last, 2 if the opponent has
// replied, 0 if he has not moved.
func (g *Game) plies(who rules.Color) int {
	n := g.board.Len()
	for k := 1; k <= 2 && k <= n; k++ {
		if p := g.board.PositionAt(n - k); p.Side() == who {
			return k
		}
	}
	return 0
}
