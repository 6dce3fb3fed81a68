package account

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Usernames are ASCII: letters, digits, '_' and '-', starting with a
// letter, so that no two of them look alike and every one is safe in a
// path, a record's tag and a log line. They are unique whatever the case:
// the store keys them by Key.
const (
	MinUsername = 3
	MaxUsername = 20
)

// MaxName is the longest display name, in characters: a guest's name, or
// a player's name read from a record.
const MaxName = 40

// reserved are the keys of names nobody may take, because the site speaks
// with them or they would pass for someone in charge.
var reserved = map[string]bool{
	"admin": true, "administrator": true, "anonymous": true, "emergo": true,
	"guest": true, "mod": true, "moderator": true, "root": true, "system": true,
}

// NameProblem says what is wrong with a username or a name, for a message
// in any language; the limits are this package's constants.
type NameProblem uint8

const (
	UsernameLength   NameProblem = iota + 1 // not MinUsername to MaxUsername characters
	UsernameStart                           // not starting with a letter
	UsernameReserved                        // one of the reserved names
	UsernameChars                           // a character other than a-z, A-Z, 0-9, _ and -
	NameEmpty                               // a display name with nothing left after cleaning
	NameTooLong                             // a display name of more than MaxName characters
)

// NameError says why a username or a name is refused; its text is for the
// person who typed it.
type NameError struct {
	Name    string
	Problem NameProblem
	Reason  string
}

func (e *NameError) Error() string { return "account: " + e.Reason }

// Key is the form of a username that is unique: lower case.
func Key(username string) string { return strings.ToLower(username) }

// CheckUsername returns nil if name is an allowed username, else a
// *NameError saying what is wrong with it.
func CheckUsername(name string) error {
	bad := func(p NameProblem, format string, args ...any) error {
		return &NameError{Name: name, Problem: p, Reason: fmt.Sprintf(format, args...)}
	}
	n := utf8.RuneCountInString(name)
	switch {
	case n < MinUsername || n > MaxUsername:
		return bad(UsernameLength, "a username has %d to %d characters; %q has %d", MinUsername, MaxUsername, name, n)
	case !isLetter(name[0]):
		return bad(UsernameStart, "a username starts with a letter (a-z, A-Z): %q", name)
	case reserved[Key(name)]:
		return bad(UsernameReserved, "the username %q is reserved", name)
	}
	for i, r := range name {
		if r >= utf8.RuneSelf || !(isLetter(byte(r)) || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return bad(UsernameChars, "a username has only letters a-z, digits, '_' and '-': %q has %q at %d", name, r, i+1)
		}
	}
	return nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// CleanName is a display name as the site shows it: invalid UTF-8,
// control characters, bidirectional controls (which would turn the text
// around them, as U+202E does) and other invisible format characters
// removed, every run of spaces one space, the ends trimmed. It refuses a
// name that is empty or longer than MaxName characters after cleaning.
func CleanName(s string) (string, error) {
	c := clean(s)
	if c == "" {
		return "", &NameError{Name: s, Problem: NameEmpty, Reason: "the name is empty"}
	}
	if n := utf8.RuneCountInString(c); n > MaxName {
		return "", &NameError{Name: s, Problem: NameTooLong, Reason: fmt.Sprintf("a name has at most %d characters, this one %d", MaxName, n)}
	}
	return c, nil
}

// ShortenName cleans s as CleanName does and cuts it to MaxName
// characters, for names the site takes as they come (the tags of an
// uploaded record); "" if nothing is left.
func ShortenName(s string) string {
	c := clean(s)
	if r := []rune(c); len(r) > MaxName {
		c = strings.TrimSpace(string(r[:MaxName-1])) + "…"
	}
	return c
}

func clean(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || (unicode.IsControl(r) && !unicode.IsSpace(r)):
			// Dropped: invalid bytes, format characters (the bidirectional
			// controls U+061C, U+200E-F, U+202A-E and U+2066-9 among them,
			// and zero-width ones), private use, other controls.
		case unicode.IsSpace(r):
			space = b.Len() > 0
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
