package lobby_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"emergo/game"
	"emergo/lobby"
	"emergo/rules"
)

var (
	t0    = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	alice = lobby.Party{User: 1, Token: "t-a", Name: "alice"}
	bob   = lobby.Party{User: 2, Token: "t-b", Name: "bob"}
	carol = lobby.Party{User: 3, Token: "t-c", Name: "carol"}
	guest = lobby.Party{Token: "t-g", Name: "Anonymous"}
	// alice in another browser, and bob's browser logged out.
	aliceElsewhere = lobby.Party{User: 1, Token: "t-z", Name: "alice"}
	bobsBrowser    = lobby.Party{Token: "t-b"}
	blitz          = lobby.Settings{Size: 9, Control: game.Control{Time: 5 * time.Minute, Increment: 3 * time.Second}, Rated: true}
)

func TestNew(t *testing.T) {
	for _, c := range []struct {
		name     string
		from, to lobby.Party
		s        lobby.Settings
		err      string // "" for none
		wait     time.Duration
	}{
		{"open, rated, live", alice, lobby.Party{}, blitz, "", lobby.LiveWait},
		{"direct, correspondence", alice, bob, lobby.Settings{Size: 7, Control: game.Control{Days: 3}}, "", lobby.CorrespondenceWait},
		{"from a guest", guest, lobby.Party{}, blitz, "log in", 0},
		{"to a guest", alice, guest, blitz, "for an account", 0},
		{"to oneself", alice, aliceElsewhere, blitz, "yourself", 0},
		{"no clock", alice, lobby.Party{}, lobby.Settings{Size: 9}, "a clock or days per move", 0},
		{"a time per move", alice, lobby.Party{}, lobby.Settings{Size: 9, Control: game.Control{MoveTime: time.Minute}}, "a clock or days per move", 0},
		{"a board of 8", alice, lobby.Party{}, lobby.Settings{Size: 8, Control: blitz.Control}, "size", 0},
		{"an unknown colour", alice, lobby.Party{}, lobby.Settings{Size: 9, Control: blitz.Control, Color: 7}, "colour", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch, err := lobby.New("c1", c.from, c.to, c.s, t0)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("New: %v, want an error saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ch.Status != lobby.Pending || !ch.Created.Equal(t0) || !ch.Expires.Equal(t0.Add(c.wait)) || ch.Open() != (c.to == lobby.Party{}) {
				t.Errorf("New = %+v", ch)
			}
		})
	}
}

func TestActions(t *testing.T) {
	open, _ := lobby.New("open", alice, lobby.Party{}, blitz, t0)
	direct, _ := lobby.New("direct", alice, bob, blitz, t0)
	soon := t0.Add(time.Minute)
	expired := t0.Add(lobby.LiveWait)
	type action func(c *lobby.Challenge, p lobby.Party, now time.Time) error
	accept, decline, cancel := (*lobby.Challenge).CanAccept, (*lobby.Challenge).CanDecline, (*lobby.Challenge).CanCancel
	for _, c := range []struct {
		name string
		act  action
		c    *lobby.Challenge
		p    lobby.Party
		now  time.Time
		want error
	}{
		{"bob accepts an open challenge", accept, open, bob, soon, nil},
		{"a guest cannot accept an open challenge", accept, open, guest, soon, lobby.ErrAccount},
		{"alice cannot accept her own", accept, open, aliceElsewhere, soon, lobby.ErrNotYours},
		{"too late", accept, open, bob, expired, lobby.ErrGone},
		{"bob accepts his", accept, direct, bob, soon, nil},
		{"carol cannot accept bob's", accept, direct, carol, soon, lobby.ErrNotYours},
		{"bob's browser logged out cannot", accept, direct, bobsBrowser, soon, lobby.ErrNotYours},
		{"bob declines his", decline, direct, bob, soon, nil},
		{"carol cannot decline bob's", decline, direct, carol, soon, lobby.ErrNotYours},
		{"nobody declines an open one", decline, open, bob, soon, lobby.ErrNotYours},
		{"alice withdraws hers", cancel, open, aliceElsewhere, soon, nil},
		{"bob cannot withdraw alice's", cancel, direct, bob, soon, lobby.ErrNotYours},
		{"withdrawn too late", cancel, direct, alice, expired, lobby.ErrGone},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.act(c.c, c.p, c.now); !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}
	taken := *open
	taken.Status = lobby.Accepted
	if err := taken.CanAccept(bob, soon); !errors.Is(err, lobby.ErrGone) {
		t.Errorf("accepting an accepted challenge: %v, want ErrGone", err)
	}
}

func TestSeats(t *testing.T) {
	for _, c := range []struct {
		name       string
		color      lobby.Color
		whiteFirst bool
		white      lobby.Party
	}{
		{"white", lobby.White, false, alice},
		{"black", lobby.Black, true, bob},
		{"random, heads", lobby.Random, true, alice},
		{"random, tails", lobby.Random, false, bob},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := blitz
			s.Color = c.color
			ch, _ := lobby.New("c", alice, lobby.Party{}, s, t0)
			seats := ch.Seats(bob, c.whiteFirst)
			if seats[0] != c.white || seats[1] == seats[0] {
				t.Errorf("Seats = %+v, want White %s", seats, c.white.Name)
			}
		})
	}
}

func TestRematch(t *testing.T) {
	g := lobby.Finished{ID: "g1", Seats: [2]lobby.Party{alice, bob}, Size: 7, Control: game.Control{Days: 2}, Rated: true}
	for _, by := range []rules.Color{rules.White, rules.Black} {
		ch, err := lobby.Rematch("r", g, by, t0)
		if err != nil {
			t.Fatal(err)
		}
		if ch.From != g.Seats[by] || ch.To != g.Seats[by.Other()] || ch.Rematch != "g1" || ch.Size != 7 || ch.Control.Days != 2 || !ch.Rated {
			t.Errorf("Rematch by %v = %+v", by, ch)
		}
		// The colours swap: whoever accepts, each plays the other colour.
		seats := ch.Seats(ch.To, true)
		if seats[0] != g.Seats[1] || seats[1] != g.Seats[0] {
			t.Errorf("the rematch offered by %v seats %+v, want the colours swapped", by, seats)
		}
	}
	// Between guests, by their browsers.
	guests := lobby.Finished{ID: "g2", Seats: [2]lobby.Party{{Token: "t-x"}, {Token: "t-y"}}, Size: 9, Control: game.Control{Time: time.Minute}}
	ch, err := lobby.Rematch("r", guests, rules.White, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.CanAccept(lobby.Party{Token: "t-y"}, t0); err != nil {
		t.Errorf("the other guest cannot accept: %v", err)
	}
	if err := ch.CanAccept(lobby.Party{Token: "t-z"}, t0); !errors.Is(err, lobby.ErrNotYours) {
		t.Errorf("a third browser accepts: %v", err)
	}
}

func TestParseColor(t *testing.T) {
	for text, want := range map[string]lobby.Color{"": lobby.Random, "random": lobby.Random, "white": lobby.White, "black": lobby.Black} {
		if got, err := lobby.ParseColor(text); got != want || err != nil {
			t.Errorf("ParseColor(%q) = %v, %v", text, got, err)
		}
	}
	if _, err := lobby.ParseColor("red"); err == nil {
		t.Error("ParseColor(red) succeeded")
	}
}

func TestLimits(t *testing.T) {
	l := lobby.Limits{Account: 2, Guest: 1, Total: 5}
	for _, c := range []struct {
		name        string
		from        lobby.Party
		mine, total int
		want        error
	}{
		{"an account's second", alice, 1, 4, nil},
		{"an account's third", alice, 2, 2, &lobby.TooManyError{Limit: 2}},
		{"a guest's first", guest, 0, 0, nil},
		{"a guest's second", guest, 1, 1, &lobby.TooManyError{Limit: 1}},
		{"the lobby full", bob, 0, 5, lobby.ErrFull},
		// The challenger's own bound speaks first: his to free.
		{"both", alice, 2, 5, &lobby.TooManyError{Limit: 2}},
	} {
		err := l.Admit(c.from, c.mine, c.total)
		var te, wantTE *lobby.TooManyError
		switch {
		case errors.As(c.want, &wantTE):
			if !errors.As(err, &te) || *te != *wantTE {
				t.Errorf("%s: Admit = %v, want %v", c.name, err, c.want)
			}
		case !errors.Is(err, c.want):
			t.Errorf("%s: Admit = %v, want %v", c.name, err, c.want)
		}
	}
	if got := (lobby.Limits{Guest: 7}).OrDefault(); got != (lobby.Limits{Account: lobby.DefaultLimits.Account, Guest: 7, Total: lobby.DefaultLimits.Total}) {
		t.Errorf("OrDefault fills %+v", got)
	}
}

// A bot takes an open challenge only if it allows bots; a direct
// challenge to a bot is its to accept.
func TestBotsTakeOpenChallengesThatAllowThem(t *testing.T) {
	now := time.Unix(1000, 0)
	ann := lobby.Party{User: 1, Name: "ann"}
	robo := lobby.Party{User: 2, Name: "robo", Bot: true}
	settings := lobby.Settings{Size: 7, Control: game.Control{Time: time.Minute, Increment: time.Second}, Rated: true}
	for _, tt := range []struct {
		name      string
		to        lobby.Party
		allowBots bool
		want      error
	}{
		{"open, for people", lobby.Party{}, false, lobby.ErrForPeople},
		{"open, bots allowed", lobby.Party{}, true, nil},
		{"to the bot", robo, false, nil},
	} {
		s := settings
		s.AllowBots = tt.allowBots
		c, err := lobby.New("c", ann, tt.to, s, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.CanAccept(robo, now); !errors.Is(err, tt.want) {
			t.Errorf("%s: a bot accepts: %v, want %v", tt.name, err, tt.want)
		}
		if err := c.CanAccept(lobby.Party{User: 3, Name: "ben"}, now); tt.to == (lobby.Party{}) && err != nil {
			t.Errorf("%s: a person accepts: %v", tt.name, err)
		}
	}
}
