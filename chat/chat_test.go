package chat

import (
	"errors"
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"plain", "good game", "good game", nil},
		{"spaces", "  well\tplayed \n ", "well played", nil},
		{"bidirectional overrides", "abc\u202edcba\u202c", "abcdcba", nil},
		{"isolates and marks", "\u2066x\u2069\u200ey\u200f", "xy", nil},
		{"controls", "a\x00b\x1bc\u0085", "abc", nil},
		{"zero width", "a\u200bb\ufeff", "ab", nil},
		{"a link stays text", "see https://example.com/x", "see https://example.com/x", nil},
		{"markup stays text", "<b>hi</b>", "<b>hi</b>", nil},
		{"empty", " \u202e ", "", ErrEmpty},
		{"140 characters", strings.Repeat("é", 140), strings.Repeat("é", 140), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Clean(tt.in)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("Clean(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
	var long *TooLongError
	if _, err := Clean(strings.Repeat("a", 141)); !errors.As(err, &long) || long.Max != 140 || long.Len != 141 {
		t.Errorf("Clean of 141 characters: %v, want a TooLongError", err)
	}
}

func TestCanWrite(t *testing.T) {
	tests := []struct {
		name string
		w    Writer
		room Room
		want error
	}{
		{"guest", Writer{Player: true}, Players, ErrGuest},
		{"player", Writer{User: 1, Player: true}, Players, nil},
		{"spectator in the players' room", Writer{User: 1}, Players, ErrNotPlayer},
		{"spectator", Writer{User: 1}, Spectators, nil},
		{"player among the spectators", Writer{User: 1, Player: true}, Spectators, ErrPlaying},
		{"player among the spectators after the game", Writer{User: 1, Player: true, Over: true}, Spectators, nil},
	}
	for _, tt := range tests {
		if got := tt.w.CanWrite(tt.room); !errors.Is(got, tt.want) {
			t.Errorf("%s: CanWrite = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSees(t *testing.T) {
	blocks2 := func(u int64) bool { return u == 2 }
	players := &Line{User: 1, Room: Players}
	watchers := &Line{User: 1, Room: Spectators}
	muted := &Line{User: 1, Room: Players, Muted: true}
	fromBlocked := &Line{User: 2, Room: Players}
	tests := []struct {
		name string
		r    Reader
		l    *Line
		want bool
	}{
		{"player, players' room", Reader{User: 3, Player: true}, players, true},
		{"spectator, players' room", Reader{User: 3}, players, false},
		{"guest, spectators' room", Reader{}, watchers, true},
		{"player, spectators' room", Reader{User: 3, Player: true}, watchers, false},
		{"player, spectators' room after the game", Reader{User: 3, Player: true, Over: true}, watchers, true},
		{"muted writer's line, to another", Reader{User: 3, Player: true}, muted, false},
		{"muted writer's line, to himself", Reader{User: 1, Player: true}, muted, true},
		{"blocked writer", Reader{User: 3, Player: true, Blocked: blocks2}, fromBlocked, false},
		{"not blocked", Reader{User: 3, Player: true, Blocked: blocks2}, players, true},
	}
	for _, tt := range tests {
		if got := tt.r.Sees(tt.l); got != tt.want {
			t.Errorf("%s: Sees = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseRoom(t *testing.T) {
	for in, want := range map[string]Room{"": Players, "players": Players, "spectators": Spectators} {
		if got, err := ParseRoom(in); got != want || err != nil {
			t.Errorf("ParseRoom(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseRoom("all"); err == nil {
		t.Error("ParseRoom(all) took it")
	}
}
