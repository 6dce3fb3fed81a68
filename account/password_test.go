package account_test

import (
	"strings"
	"testing"

	"emergo/account"
)

// cheap are argon2id parameters that make the tests fast; the format and
// the code are those of DefaultParams.
var cheap = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestPasswordRoundTrip(t *testing.T) {
	h := account.HashPassword("correct horse", cheap)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("hash %q is not in PHC format with its parameters", h)
	}
	if h2 := account.HashPassword("correct horse", cheap); h2 == h {
		t.Errorf("two hashes of one password are equal: the salt is not random")
	}
	for _, tt := range []struct {
		name, password string
		want           bool
	}{
		{"right", "correct horse", true},
		{"wrong", "correct horsf", false},
		{"prefix", "correct hors", false},
		{"empty", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ok, err := account.VerifyPassword(h, tt.password)
			if err != nil || ok != tt.want {
				t.Errorf("VerifyPassword = %v, %v; want %v", ok, err, tt.want)
			}
		})
	}
	p, salt, key, err := account.ParseHash(h)
	if err != nil || p != cheap || len(salt) != 16 || len(key) != 32 {
		t.Errorf("ParseHash = %+v, %d-byte salt, %d-byte key, %v", p, len(salt), len(key), err)
	}
}

// TestPasswordOfReference checks hashes written by the reference
// implementation (libargon2's argon2id_hash_encoded, salt
// "emergo-salt-0001"), with other parameters than ours.
func TestPasswordOfReference(t *testing.T) {
	for _, h := range []string{
		"$argon2id$v=19$m=64,t=2,p=1$ZW1lcmdvLXNhbHQtMDAwMQ$wgdvpCn7DXD4EzCn1/q7bctzPCSnqo4j82CNyLatOhE",
		"$argon2id$v=19$m=256,t=3,p=2$ZW1lcmdvLXNhbHQtMDAwMQ$o7f5cK2bJwsjUcktBsELGoR8yoaniUGY",
	} {
		for pw, want := range map[string]bool{"correct horse battery staple": true, "correct horse battery stapler": false} {
			if ok, err := account.VerifyPassword(h, pw); err != nil || ok != want {
				t.Errorf("VerifyPassword(%s, %q) = %v, %v; want %v", h, pw, ok, err, want)
			}
		}
	}
}

func TestParseHashRefuses(t *testing.T) {
	const salt, key = "ZW1lcmdvLXNhbHQtMDAwMQ", "wgdvpCn7DXD4EzCn1/q7bctzPCSnqo4j82CNyLatOhE"
	for _, tt := range []struct{ name, hash string }{
		{"empty", ""},
		{"bcrypt", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"},
		{"argon2i", "$argon2i$v=19$m=64,t=2,p=1$" + salt + "$" + key},
		{"old version", "$argon2id$v=16$m=64,t=2,p=1$" + salt + "$" + key},
		{"version with junk", "$argon2id$v=19x$m=64,t=2,p=1$" + salt + "$" + key},
		{"parameters reordered", "$argon2id$v=19$t=2,m=64,p=1$" + salt + "$" + key},
		{"parameters with junk", "$argon2id$v=19$m=64,t=2,p=1,x=3$" + salt + "$" + key},
		{"leading zero", "$argon2id$v=19$m=064,t=2,p=1$" + salt + "$" + key},
		{"no threads", "$argon2id$v=19$m=64,t=2,p=0$" + salt + "$" + key},
		{"threads overflow", "$argon2id$v=19$m=64,t=2,p=300$" + salt + "$" + key},
		{"memory too small", "$argon2id$v=19$m=7,t=2,p=1$" + salt + "$" + key},
		{"memory too large", "$argon2id$v=19$m=4194304,t=2,p=1$" + salt + "$" + key},
		{"no passes", "$argon2id$v=19$m=64,t=0,p=1$" + salt + "$" + key},
		{"short salt", "$argon2id$v=19$m=64,t=2,p=1$YWJj$" + key},
		{"padded salt", "$argon2id$v=19$m=64,t=2,p=1$" + salt + "==$" + key},
		{"short key", "$argon2id$v=19$m=64,t=2,p=1$" + salt + "$YWJj"},
		{"extra field", "$argon2id$v=19$m=64,t=2,p=1$" + salt + "$" + key + "$"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, _, err := account.ParseHash(tt.hash); err == nil {
				t.Errorf("ParseHash(%q) accepted it", tt.hash)
			}
			if ok, err := account.VerifyPassword(tt.hash, "correct horse battery staple"); ok || err == nil {
				t.Errorf("VerifyPassword = %v, %v; want false and an error", ok, err)
			}
		})
	}
}

func FuzzParseHash(f *testing.F) {
	f.Add(account.HashPassword("x", cheap))
	f.Add("$argon2id$v=19$m=64,t=2,p=1$ZW1lcmdvLXNhbHQtMDAwMQ$o7f5cK2bJwsjUcktBsELGoR8yoaniUGY")
	f.Fuzz(func(t *testing.T, h string) {
		p, salt, key, err := account.ParseHash(h)
		if err != nil {
			return
		}
		if p.Memory > 1<<20 || p.Time > 64 || p.Threads == 0 || int(p.SaltLen) != len(salt) || int(p.KeyLen) != len(key) {
			t.Fatalf("ParseHash(%q) accepted %+v", h, p)
		}
	})
}

func TestCheckPassword(t *testing.T) {
	for _, tt := range []struct {
		name, password string
		ok             bool
	}{
		{"seven", "1234567", false},
		{"eight", "12345678", true},
		{"eight letters of two bytes", "éééééééé", true},
		{"at the limit", strings.Repeat("p", account.MaxPassword), true},
		{"over the limit", strings.Repeat("p", account.MaxPassword+1), false},
		{"invalid utf-8", "12345678\xff", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := account.CheckPassword(tt.password); (err == nil) != tt.ok {
				t.Errorf("CheckPassword = %v, want ok %v", err, tt.ok)
			}
		})
	}
}
