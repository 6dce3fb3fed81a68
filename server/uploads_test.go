package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/record"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// longGame is the game of ../record/testdata/long.pgn, 10,000 plies,
// read once.
var longGame = sync.OnceValues(func() (record.Record, error) {
	data, err := os.ReadFile(filepath.Join("..", "record", "testdata", "long.pgn"))
	if err != nil {
		return record.Record{}, err
	}
	recs, err := record.ReadAll(data)
	if err != nil {
		return record.Record{}, err
	}
	return recs[0], nil
})

// longRecord returns longGame cut to its first plies, as the PGN-style
// text, with White playing under the name white: records of one length
// that are not one record.
func longRecord(t testing.TB, plies int, white string) string {
	t.Helper()
	rec, err := longGame()
	if err != nil {
		t.Fatal(err)
	}
	rec.Moves = rec.Moves[:plies]
	rec.Tags = slices.Clone(rec.Tags)
	if err := rec.SetTag("White", white); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := record.WritePGN(&b, rec); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestUploadPlyLimit: a record longer than any real game is refused with
// its length and the limit; one of the limit's length is taken.
func TestUploadPlyLimit(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	for _, tc := range []struct {
		name   string
		plies  int
		status int
	}{
		{"10,000 plies", 10000, http.StatusRequestEntityTooLarge},
		{"1,001 plies", 1001, http.StatusRequestEntityTooLarge},
		{"1,000 plies", 1000, http.StatusCreated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, st, body := a.do("POST", "/api/records", longRecord(t, tc.plies, "Ada"))
			if code != tc.status {
				t.Fatalf("upload: %d %.200s, want %d", code, body, tc.status)
			}
			if code == http.StatusCreated {
				if len(st.Moves) != tc.plies {
					t.Errorf("the game has %d moves, want %d", len(st.Moves), tc.plies)
				}
				return
			}
			got := decodeErr(t, body)
			if got.Code != "record.too_long" || got.Params["plies"] != float64(tc.plies) || got.Params["max"] != 1000.0 {
				t.Errorf("refusal %+v, want record.too_long with plies %d and max 1000", got, tc.plies)
			}
		})
	}
}

// TestUploadsPerHour: a client's uploads beyond its share are refused,
// with the wait, while another client's are taken; the share comes back
// as time passes, and a logged-in client's account has a share of its
// own wherever it connects from.
func TestUploadsPerHour(t *testing.T) {
	e := accountEnv(t, server.Config{BehindProxy: true, UploadLimit: throttle.Limit{Burst: 3, Every: 20 * time.Minute}})
	n := 0
	upload := func(c *client, addr string) (int, string) {
		t.Helper()
		n++
		code, _, body := c.do("POST", "/api/records", fmt.Sprintf("[White \"player %d\"]\n\n1. d6 c1 *", n), "X-Forwarded-For", addr)
		return code, body
	}
	a, b := e.client(), e.client()
	for i := range 3 {
		if code, body := upload(a, "203.0.113.1"); code != http.StatusCreated {
			t.Fatalf("upload %d: %d %s", i+1, code, body)
		}
	}
	code, body := upload(a, "203.0.113.1")
	got := decodeErr(t, body)
	if code != http.StatusTooManyRequests || got.Code != "record.too_many" || got.Params["n"] != 20.0 {
		t.Errorf("the fourth upload in an hour: %d %s, want 429 record.too_many in 20 minutes", code, body)
	}
	if code, body := upload(b, "203.0.113.2"); code != http.StatusCreated {
		t.Errorf("another client's upload: %d %s", code, body)
	}
	e.now.Add(int64(20 * time.Minute))
	if code, body := upload(a, "203.0.113.1"); code != http.StatusCreated {
		t.Errorf("an upload 20 minutes later: %d %s", code, body)
	}

	// An account uploads from two addresses: its share is spent on the
	// second as on the first.
	c := e.client()
	if code, msg, _ := c.account("signup", creds("carol", "a good password"), "X-Forwarded-For", "198.51.100.1"); code != http.StatusCreated {
		t.Fatalf("signup: %d %s", code, msg)
	}
	for i := range 3 {
		if code, body := upload(c, "198.51.100."+strconv.Itoa(1+i%2)); code != http.StatusCreated {
			t.Fatalf("upload %d of the account: %d %s", i+1, code, body)
		}
	}
	if code, body := upload(c, "198.51.100.3"); code != http.StatusTooManyRequests {
		t.Errorf("the account's fourth upload, from a third address: %d %s, want 429", code, body)
	}
	// The refusal of the account's upload did not spend the address's
	// share: a guest there uploads.
	if code, body := upload(e.client(), "198.51.100.3"); code != http.StatusCreated {
		t.Errorf("a guest's upload from that address: %d %s", code, body)
	}
}

// upload uploads as c a record of two moves, White's name name, and
// returns its game's ID.
func (c *client) upload(t *testing.T, name string) string {
	t.Helper()
	code, st, body := c.do("POST", "/api/records", "[White \""+name+"\"]\n\n1. d6 c1 *")
	if code != http.StatusCreated {
		t.Fatalf("upload of %s: %d %s", name, code, body)
	}
	return st.ID
}

// awaitDeleted waits until st no longer has the game id, for patience at
// most, and returns the deadline it kept.
func awaitDeleted(t *testing.T, st store.Store, id string) time.Time {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		_, err := st.Get(context.Background(), id)
		if errors.Is(err, store.ErrNotFound) {
			return deadline
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %s is still stored after %v", id, patience)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sqliteFile opens a SQLite store in the test's directory.
func sqliteFile(t *testing.T) *sqlstore.DB {
	t.Helper()
	sq, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// TestUploadStorageBound: the uploads take at most Config.UploadStorage
// bytes; at the bound the least recently opened make room for a new one,
// and a record larger than the bound alone is refused. The same record
// uploaded again is stored once.
func TestUploadStorageBound(t *testing.T) {
	// A record of two moves counts 1024 + 2*(64+2) bytes (store.UploadSize):
	// the bound holds three.
	e := newEnv(t, server.Config{UploadStorage: 3 * 1156})
	c := e.client()
	status := func(id string) int {
		t.Helper()
		code, _, _ := c.do("GET", "/api/games/"+id, nil)
		return code
	}
	a, b, cc := c.upload(t, "a"), c.upload(t, "b"), c.upload(t, "c")
	// Two days later a is opened again; b and c are not.
	e.now.Add(int64(48 * time.Hour))
	if status(a) != http.StatusOK {
		t.Fatal("a is gone")
	}
	d := c.upload(t, "d")
	for id, want := range map[string]int{a: 200, b: 404, cc: 200, d: 200} {
		if got := status(id); got != want {
			t.Errorf("game %s: %d, want %d (b, the least recently opened, makes room)", id, got, want)
		}
	}
	// The same record again: the game stored before, 200.
	code, st, body := c.do("POST", "/api/records", "[White \"d\"]\n\n{another comment} 1. d6 c1 *")
	if code != http.StatusOK || st.ID != d {
		t.Errorf("the same record again: %d %s, want 200 and game %s", code, body, d)
	}
	// A record larger than the bound itself.
	code, _, body = c.do("POST", "/api/records", longRecord(t, 100, "Ada"))
	if got := decodeErr(t, body); code != http.StatusInsufficientStorage || got.Code != "record.storage_full" {
		t.Errorf("a record larger than the bound: %d %s, want 507 record.storage_full", code, body)
	}
}

// TestUploadsExpire: an upload that nobody opens for Config.UploadIdle
// (30 days) is deleted, from the store and from the server's memory; one
// opened meanwhile is kept.
func TestUploadsExpire(t *testing.T) {
	sq := sqliteFile(t)
	e := newEnv(t, server.Config{Store: sq, UploadSweep: 10 * time.Millisecond})
	c := e.client()
	opened, idle := c.upload(t, "opened"), c.upload(t, "idle")
	e.now.Add(int64(20 * 24 * time.Hour))
	if code, _, _ := c.do("GET", "/api/games/"+opened, nil); code != http.StatusOK {
		t.Fatalf("opening an upload: %d", code)
	}
	e.now.Add(int64(15 * 24 * time.Hour))
	// The store is watched, not the API: asking the server for the idle
	// upload would open it.
	deadline := awaitDeleted(t, sq, idle)
	// The server forgets the upload once the store has deleted it: asking
	// now cannot keep it any more.
	for {
		code, _, _ := c.do("GET", "/api/games/"+idle, nil)
		if code == http.StatusNotFound {
			break
		}
		if code != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("the expired upload: %d, want 404", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, _, _ := c.do("GET", "/api/games/"+opened, nil); code != http.StatusOK {
		t.Errorf("the upload opened 15 days ago: %d, want 200", code)
	}
}

// TestUploadFloodMemory: 150 uploads of a record of 10,000 plies from one
// client, three at once, then 50 of 1,000 plies (the longest taken, each
// another record, all held in memory), leave the server's process under
// 300 MB resident. Three clients once took a server from 30 MB to 681 MB
// so. (Fewer of the second kind, which the server replays and stores
// whole, keep the test short under the race detector; what one costs held
// is TestHeldUploadMemory's.)
//
// The process is measured, as the operating system sees it (VmRSS of
// /proc/self/status): what the heap holds is not all that an attack
// costs (the runtime's free spans, SQLite's cache, stacks), and the
// resident memory is what a machine runs out of. So the server runs in a
// process of its own, this test's binary started again for this test
// alone, which no other test has grown. Where /proc is missing, the
// memory the Go runtime has mapped and not released stands for it
// (runtime/metrics).
func TestUploadFloodMemory(t *testing.T) {
	if os.Getenv("EMERGO_UPLOAD_FLOOD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestUploadFloodMemory$", "-test.v")
		cmd.Env = append(os.Environ(), "EMERGO_UPLOAD_FLOOD=1")
		out, err := cmd.CombinedOutput()
		t.Logf("the flooded process:\n%s", out)
		if err != nil {
			t.Errorf("the flooded process failed: %v", err)
		}
		return
	}
	e := newEnv(t, server.Config{UploadLimit: throttle.Limit{Every: -1}})
	flood := func(what string, n int, body func(i int) string, want int) {
		t.Helper()
		errs := make(chan error, n)
		next := make(chan int, n)
		for i := range n {
			next <- i
		}
		close(next)
		for range 3 {
			go func() {
				c := e.client()
				for i := range next {
					code, _, out := c.do("POST", "/api/records", body(i))
					if code != want {
						errs <- fmt.Errorf("%s %d: %d %.200s, want %d", what, i, code, out, want)
						continue
					}
					errs <- nil
				}
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	}
	before := resident(t)
	long := longRecord(t, 10000, "Ada")
	flood("an upload of 10,000 plies", 150, func(int) string { return long }, http.StatusRequestEntityTooLarge)
	afterLong := resident(t)
	records := make([]string, 50)
	for i := range records {
		records[i] = longRecord(t, 1000, fmt.Sprintf("Ada %d", i))
	}
	flood("an upload of 1,000 plies", len(records), func(i int) string { return records[i] }, http.StatusCreated)
	after := resident(t)
	t.Logf("resident: %d MB at the start, %d MB after the uploads of 10,000 plies, %d MB after those of 1,000 (%d games held)",
		before>>20, afterLong>>20, after>>20, e.srv.Cached())
	if after > 300<<20 {
		t.Errorf("%d MB resident after the uploads, want under 300", after>>20)
	}
}

// resident returns the resident memory of the process: VmRSS, or the
// memory the Go runtime holds where /proc is missing.
func resident(t *testing.T) uint64 {
	t.Helper()
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				if err != nil {
					t.Fatalf("VmRSS %q: %v", rest, err)
				}
				return kb << 10
			}
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}
