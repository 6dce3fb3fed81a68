package game_test

import (
	"errors"
	"testing"

	"emergo/game"
	"emergo/rules"
)

const (
	white = rules.White
	black = rules.Black
)

// Draw offers: made, accepted, declined, and withdrawn by the moves that
// answer them, under both rules of how long they stand.
func TestDrawOffers(t *testing.T) {
	tests := []struct {
		name string
		life game.OfferLife
		do   func(t *testing.T, g *game.Game) error
		want game.Offer  // the offer that stands after
		end  game.Ending // the ending after
	}{
		{"offered", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			return g.OfferDraw(black)
		}, game.Offer{Open: true, By: black}, game.Ending{}},
		{"accepted", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			return g.AcceptDraw(black)
		}, game.Offer{}, game.Ending{rules.Draw, game.Agreement}},
		{"offered back", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			return g.OfferDraw(black)
		}, game.Offer{}, game.Ending{rules.Draw, game.Agreement}},
		{"offered twice", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			return g.OfferDraw(white)
		}, game.Offer{Open: true, By: white}, game.Ending{}},
		{"declined", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			return g.DeclineDraw(black)
		}, game.Offer{}, game.Ending{}},
		{"withdrawn by the offerer's move", game.UntilNextMove, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			play(t, g, "a1")
			return nil
		}, game.Offer{}, game.Ending{}},
		{"standing for the opponent's turn", game.UntilReply, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			play(t, g, "a1")
			return nil
		}, game.Offer{Open: true, By: white}, game.Ending{}},
		{"accepted on the opponent's turn", game.UntilReply, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			play(t, g, "a1")
			return g.AcceptDraw(black)
		}, game.Offer{}, game.Ending{rules.Draw, game.Agreement}},
		{"expired by the reply", game.UntilReply, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(white)
			play(t, g, "a1", "g7")
			return nil
		}, game.Offer{}, game.Ending{}},
		{"made on the opponent's turn, expired by his move", game.UntilReply, func(t *testing.T, g *game.Game) error {
			g.OfferDraw(black)
			play(t, g, "a1")
			return nil
		}, game.Offer{}, game.Ending{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "", game.Options{DrawOffer: tc.life})
			if err := tc.do(t, g); err != nil {
				t.Fatal(err)
			}
			if g.DrawOffer() != tc.want || g.Ending() != tc.end {
				t.Errorf("offer %+v, ending %v; want %+v, %v", g.DrawOffer(), g.Ending(), tc.want, tc.end)
			}
		})
	}
}

// Answering an offer that was not made fails and says which.
func TestNoOffer(t *testing.T) {
	tests := []struct {
		name string
		do   func(g *game.Game) error
		want game.NoOfferError
	}{
		{"accept no draw", func(g *game.Game) error { return g.AcceptDraw(black) }, game.NoOfferError{Accept: true}},
		{"decline one's own draw", func(g *game.Game) error {
			g.OfferDraw(black)
			return g.DeclineDraw(black)
		}, game.NoOfferError{}},
		{"accept one's own take-back", func(g *game.Game) error {
			g.RequestTakeBack(white)
			return g.AcceptTakeBack(white)
		}, game.NoOfferError{TakeBack: true, Accept: true}},
		{"decline no take-back", func(g *game.Game) error { return g.DeclineTakeBack(black) }, game.NoOfferError{TakeBack: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "", game.Options{})
			play(t, g, "a1")
			var no *game.NoOfferError
			if err := tc.do(g); !errors.As(err, &no) || *no != tc.want {
				t.Errorf("%v, want %v", err, &tc.want)
			}
		})
	}
	if got := (&game.NoOfferError{TakeBack: true, Accept: true}).Error(); got != "game: there is no take-back request to accept" {
		t.Errorf("the error says %q", got)
	}
}

// Take-backs: the requester's last move goes, and the reply to it.
func TestTakeBacks(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		do    func(g *game.Game) error
		left  int // moves left after
		err   error
	}{
		{"accepted after the reply", []string{"a1", "g7"}, func(g *game.Game) error {
			g.RequestTakeBack(white)
			return g.AcceptTakeBack(black)
		}, 0, nil},
		{"accepted before the reply", []string{"a1", "g7", "c1"}, func(g *game.Game) error {
			g.RequestTakeBack(white)
			return g.AcceptTakeBack(black)
		}, 2, nil},
		{"declined", []string{"a1", "g7"}, func(g *game.Game) error {
			g.RequestTakeBack(black)
			return g.DeclineTakeBack(white)
		}, 2, nil},
		{"withdrawn by a move", []string{"a1"}, func(g *game.Game) error {
			g.RequestTakeBack(white)
			g.Play(black, rules.EntryMove(rules.Geometry7.At(6, 6)))
			return g.AcceptTakeBack(black)
		}, 2, &game.NoOfferError{TakeBack: true, Accept: true}},
		{"nothing to ask for", []string{"a1"}, func(g *game.Game) error { return g.RequestTakeBack(black) }, 1, game.ErrNothingToTakeBack},
		{"at once, after the reply", []string{"a1", "g7"}, func(g *game.Game) error { return g.TakeBack(white) }, 0, nil},
		{"at once, nothing", []string{}, func(g *game.Game) error { return g.TakeBack(black) }, 0, game.ErrNothingToTakeBack},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "", game.Options{})
			play(t, g, tc.moves...)
			g.OfferDraw(g.Side())
			err := tc.do(g)
			if tc.err == nil && err != nil || tc.err != nil && err.Error() != tc.err.Error() {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if g.Len() != tc.left || g.TakeBackRequest().Open {
				t.Errorf("%d moves left, request %+v; want %d", g.Len(), g.TakeBackRequest(), tc.left)
			}
			if g.Len() < len(tc.moves) && g.DrawOffer().Open {
				t.Error("a draw offer survived the take-back")
			}
		})
	}
	g := start(t, "", game.Options{})
	play(t, g, "a1")
	g.RequestTakeBack(white)
	if got := g.TakeBackRequest(); got != (game.Offer{Open: true, By: white}) {
		t.Errorf("the request: %+v", got)
	}
}
