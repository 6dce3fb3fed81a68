package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password lengths, in characters. The upper bound keeps the hashing of
// one attempt cheap to bound.
const (
	MinPassword = 8
	MaxPassword = 256
)

// Params are argon2id's costs. They are stored with every hash, so they
// can be raised without making the passwords already hashed unusable.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes over the memory
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultParams are OWASP's recommended minimum for argon2id (19 MiB, two
// passes, one thread): about 18 ms a hash on one core of a 2-core virtual
// machine.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Bounds on the parameters read back from a stored hash, so that a
// damaged row cannot make one check take the machine's memory.
const (
	maxMemory = 1 << 20 // 1 GiB
	maxTime   = 64
)

// CheckPassword returns nil if password may be chosen, else a
// *PasswordError.
func CheckPassword(password string) error {
	if !utf8.ValidString(password) {
		return &PasswordError{PasswordText, "a password must be valid text (UTF-8)"}
	}
	n := utf8.RuneCountInString(password)
	if n < MinPassword {
		return &PasswordError{PasswordShort, fmt.Sprintf("a password has at least %d characters", MinPassword)}
	}
	if n > MaxPassword {
		return &PasswordError{PasswordLong, fmt.Sprintf("a password has at most %d characters", MaxPassword)}
	}
	return nil
}

// PasswordProblem says what is wrong with a password, for a message in any
// language; the limits are this package's constants.
type PasswordProblem uint8

const (
	PasswordText  PasswordProblem = iota + 1 // not valid UTF-8
	PasswordShort                            // fewer than MinPassword characters
	PasswordLong                             // more than MaxPassword characters
)

// PasswordError says why a password is refused, to the person choosing it.
type PasswordError struct {
	Problem PasswordProblem
	Reason  string
}

func (e *PasswordError) Error() string { return "account: " + e.Reason }

// HashPassword hashes password with argon2id and a random salt, in the
// PHC string format that keeps the parameters and the salt with the hash:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>, both in unpadded base64.
func HashPassword(password string, p Params) string {
	salt := make([]byte, p.SaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64(salt), b64(key))
}

// VerifyPassword reports whether password is the one hashed in encoded,
// comparing in constant time. An error means encoded is not a hash this
// package can check.
func VerifyPassword(encoded, password string) (bool, error) {
	p, salt, key, err := ParseHash(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

var errHash = errors.New("account: not an argon2id hash in PHC format")

// ParseHash reads a hash written by HashPassword: its parameters, salt and
// key.
func ParseHash(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errHash
	}
	if parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return p, nil, nil, fmt.Errorf("account: argon2id version %q, want v=%d", parts[2], argon2.Version)
	}
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil || n != 3 ||
		fmt.Sprintf("m=%d,t=%d,p=%d", p.Memory, p.Time, p.Threads) != parts[3] {
		return p, nil, nil, fmt.Errorf("account: argon2id parameters %q are not m=N,t=N,p=N", parts[3])
	}
	if p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory || p.Time < 1 || p.Time > maxTime || p.Threads < 1 {
		return p, nil, nil, fmt.Errorf("account: argon2id parameters %q out of bounds", parts[3])
	}
	if salt, err = base64.RawStdEncoding.Strict().DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, fmt.Errorf("account: argon2id salt %q is not base64 of 8 bytes or more", parts[4])
	}
	if key, err = base64.RawStdEncoding.Strict().DecodeString(parts[5]); err != nil || len(key) < 16 || len(key) > 1024 {
		return p, nil, nil, fmt.Errorf("account: argon2id hash is not base64 of 16 to 1024 bytes")
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
