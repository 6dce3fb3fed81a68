package account_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"emergo/account"
)

func TestCheckUsername(t *testing.T) {
	tests := []struct {
		name    string
		problem account.NameProblem // 0: allowed
	}{
		{"abc", 0},
		{"Alice_99", 0},
		{"a-b", 0},
		{"Zz" + strings.Repeat("9", 18), 0},
		{"", account.UsernameLength},
		{"ab", account.UsernameLength},
		{"a" + strings.Repeat("b", 20), account.UsernameLength},
		{"1abc", account.UsernameStart},
		{"_abc", account.UsernameStart},
		{"-abc", account.UsernameStart},
		{"al ice", account.UsernameChars},
		{"élise", account.UsernameStart},
		{"alice.b", account.UsernameChars},
		{"bob\u202e", account.UsernameChars},
		{"bob\x00", account.UsernameChars},
		{"admin", account.UsernameReserved},
		{"Emergo", account.UsernameReserved},
		{"ANONYMOUS", account.UsernameReserved},
		{"Emergo_level_5", account.UsernameReserved},
		{"emergobot", account.UsernameReserved},
		{"ad_min", account.UsernameReserved},
		{"Guest", account.UsernameReserved},
		{"emerald", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := account.CheckUsername(tt.name)
			if (err == nil) != (tt.problem == 0) {
				t.Fatalf("CheckUsername(%q) = %v, want problem %d", tt.name, err, tt.problem)
			}
			var ne *account.NameError
			if err != nil && (!errors.As(err, &ne) || ne.Problem != tt.problem) {
				t.Errorf("error %#v, want a *NameError of problem %d", err, tt.problem)
			}
		})
	}
}

func TestKeyIsCaseInsensitive(t *testing.T) {
	if account.Key("Alice_B") != account.Key("aLICE_b") {
		t.Errorf("Key(Alice_B) = %q, Key(aLICE_b) = %q", account.Key("Alice_B"), account.Key("aLICE_b"))
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct {
		name, in, want string
		bad            bool
	}{
		{"plain", "Ann", "Ann", false},
		{"spaces trimmed and joined", "  Ann \t Lee\n", "Ann Lee", false},
		{"right-to-left override", "\u202eevil\u202c", "evil", false},
		{"every bidi control", "a\u061cb\u200ec\u200fd\u202ae\u202bf\u202dg\u2066h\u2067i\u2068j\u2069k", "abcdefghijk", false},
		{"zero width", "A\u200bB\ufeffC", "ABC", false},
		{"controls", "a\x00b\x07c\x7fd\u0085e", "abcd e", false},
		{"invalid utf-8", "a\xffb", "ab", false},
		{"private use", "x\ue000y", "xy", false},
		{"line separator", "a\u2028b", "a b", false},
		{"accents and scripts kept", "Jürgen 王 Ольга", "Jürgen 王 Ольга", false},
		{"exactly the limit", strings.Repeat("é", account.MaxName), strings.Repeat("é", account.MaxName), false},
		{"too long", strings.Repeat("x", account.MaxName+1), "", true},
		{"empty", "", "", true},
		{"only invisible", " \u202e\u200b ", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := account.CleanName(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("CleanName(%q) error %v, want an error: %v", tt.in, err, tt.bad)
			}
			if got != tt.want {
				t.Errorf("CleanName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestShortenName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"short", " Ann\u202e ", "Ann"},
		{"a tag of 900 KB", strings.Repeat("W", 900<<10), strings.Repeat("W", account.MaxName-1) + "…"},
		{"cut before a space", strings.Repeat("a", account.MaxName-2) + " bcd", strings.Repeat("a", account.MaxName-2) + "…"},
		{"nothing left", "\x00\u202e", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := account.ShortenName(tt.in); got != tt.want {
				t.Errorf("ShortenName = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzCleanName: a cleaned name is valid UTF-8 of at most MaxName
// characters, with no control, format or private-use character, no space
// at its ends or twice in a row, and cleaning it again changes nothing.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Ann", " a  b ", "\u202eevil", "a\xffb", "王\u200d王", strings.Repeat("x", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []string{account.ShortenName(s), must(account.CleanName(s))} {
			if c == "" {
				continue
			}
			if !utf8.ValidString(c) || utf8.RuneCountInString(c) > account.MaxName {
				t.Fatalf("clean(%q) = %q: invalid or too long", s, c)
			}
			if strings.TrimSpace(c) != c || strings.Contains(c, "  ") {
				t.Fatalf("clean(%q) = %q: stray spaces", s, c)
			}
			for _, r := range c {
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || (unicode.IsSpace(r) && r != ' ') {
					t.Fatalf("clean(%q) = %q keeps %U", s, c, r)
				}
			}
			if again, err := account.CleanName(c); err != nil || again != c {
				t.Fatalf("cleaning %q again gives %q, %v", c, again, err)
			}
		}
	})
}

func must(s string, err error) string {
	if err != nil {
		return ""
	}
	return s
}

func TestReserved(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"Emergo", true},
		{"Emergo level 3", true},
		{"emergo LEVEL 12", true},
		{"  E-mergo_bot", true},
		{"Emergo.", true},
		{"Admin", true},
		{"Moder ator", true},
		{"Anonymous", false}, // the site's own name for a guest
		{"guest", false},
		{"Emerald", false},
		{"My Emergo", false},
		{"Ada Lovelace", false},
	} {
		if got := account.Reserved(tt.name); got != tt.want {
			t.Errorf("Reserved(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestGuestName(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		problem  account.NameProblem
	}{
		{"Ada  Lovelace ", "Ada Lovelace", 0},
		{"\u202e ", "Anonymous", 0},
		{"Anonymous", "Anonymous", 0},
		{"Emergo level 5", "", account.NameReserved},
		{"\u200bEmergo", "", account.NameReserved},
		{"root", "", account.NameReserved},
		{strings.Repeat("x", account.MaxName+1), "", account.NameTooLong},
	} {
		got, err := account.GuestName(tt.in)
		var ne *account.NameError
		switch {
		case tt.problem == 0 && (err != nil || got != tt.want):
			t.Errorf("GuestName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.problem != 0 && (!errors.As(err, &ne) || ne.Problem != tt.problem):
			t.Errorf("GuestName(%q) = %q, %v; want a *NameError of problem %d", tt.in, got, err, tt.problem)
		}
	}
}
