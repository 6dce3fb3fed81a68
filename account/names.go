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

// reserved are the names (as fold writes them) that no account may take,
// because the site speaks with them or they would pass for someone in
// charge; guestWords are those of them that a guest may still play under,
// since the site calls guests so itself.
var (
	reserved = map[string]bool{
		"admin": true, "administrator": true, "anonymous": true, "emergo": true,
		"guest": true, "mod": true, "moderator": true, "root": true, "system": true,
	}
	guestWords = map[string]bool{"anonymous": true, "guest": true}
)

// engineName is how the engine's names begin, as fold writes them: the
// engine plays as "Emergo level N", and no person may pass for it.
const engineName = "emergo"

// fold is a name as the reservations compare it: in lower case, without
// the spaces and the separators ('_', '-', '.') that would tell "Emergo
// level 3" from "emergo_level3".
func fold(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '_' || r == '-' || r == '.' {
			return -1
		}
		return unicode.ToLower(r)
	}, name)
}

// Reserved reports whether a display name would pass for the engine
// ("Emergo", "Emergo level 3", any name that begins with "Emergo",
// whatever its case and separators) or for someone in charge of the site
// ("Admin", "Moderator", ...): no guest plays under it, and no account
// takes it. A guest may be "Anonymous" or "Guest".
func Reserved(name string) bool {
	f := fold(name)
	return strings.HasPrefix(f, engineName) || reserved[f] && !guestWords[f]
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
	NameReserved                            // a guest's name that is the engine's, reserved, or an account's
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
// *NameError saying what is wrong with it: its shape (usernameShape), or a
// reserved name (Reserved, and every one of the reserved words).
func CheckUsername(name string) error {
	if err := usernameShape(name); err != nil {
		return err
	}
	if f := fold(name); Reserved(name) || reserved[f] {
		return &NameError{Name: name, Problem: UsernameReserved, Reason: fmt.Sprintf("the username %q is reserved", name)}
	}
	return nil
}

// usernameShape returns nil if name has the shape of a username, else a
// *NameError saying what is wrong with it. A name of that shape may be an
// account's, even a reserved one: an account made before its name was
// reserved keeps it.
func usernameShape(name string) error {
	bad := func(p NameProblem, format string, args ...any) error {
		return &NameError{Name: name, Problem: p, Reason: fmt.Sprintf(format, args...)}
	}
	n := utf8.RuneCountInString(name)
	switch {
	case n < MinUsername || n > MaxUsername:
		return bad(UsernameLength, "a username has %d to %d characters; %q has %d", MinUsername, MaxUsername, name, n)
	case !isLetter(name[0]):
		return bad(UsernameStart, "a username starts with a letter (a-z, A-Z): %q", name)
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

// GuestName is the name a guest plays under: name as CleanName cleans it,
// or "Anonymous" when nothing is left. It refuses a name too long, and,
// with a *NameError of problem NameReserved, a Reserved one: a name shown
// without a guest's mark is the engine's or an account's alone. A
// Service's GuestName refuses the accounts' usernames too.
func GuestName(name string) (string, error) {
	if clean(name) == "" {
		return "Anonymous", nil
	}
	c, err := CleanName(name)
	if err != nil {
		return "", err
	}
	if Reserved(c) {
		return "", reservedName(c)
	}
	return c, nil
}

func reservedName(name string) error {
	return &NameError{Name: name, Problem: NameReserved,
		Reason: fmt.Sprintf("the name %q is the engine's, an account's or reserved: choose another, or log in to play under your username", name)}
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

// CleanText is s as CleanName cleans it, without its bounds: the
// control, format (bidirectional among them) and private-use characters
// dropped, every run of white space one space, none at either end. The
// chat's lines are cleaned with it.
func CleanText(s string) string { return clean(s) }

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
