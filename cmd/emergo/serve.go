package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"emergo/notify"
	"emergo/server"
	"emergo/store/sqlstore"
)

func init() {
	register("serve", "run the web site: play in the browser", runServe)
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "",
		"Serves the Emergo site: play against the engine or a friend in the browser.\n"+
			"Games are stored in an SQLite file (created and migrated on start), or in\n"+
			"PostgreSQL with -postgres, which several servers may share: each announces\n"+
			"its changes to the others (LISTEN/NOTIFY). The engine's work (its moves,\n"+
			"its answers to draw offers, the analysis board) is a queue that the\n"+
			"server's own workers serve; on PostgreSQL, servers and `emergo worker`\n"+
			"processes share it, and -workers 0 leaves it to the workers. The address\n"+
			"is bound before the database is opened. Ctrl-C (SIGINT) or SIGTERM stops\n"+
			"the server: it stops accepting, the open requests get a few seconds to\n"+
			"finish, then the background work stops and the database is closed.", stderr)
	addr := fs.String("addr", ":8080", "address to listen on")
	db := fs.String("db", "emergo.db", "SQLite database file")
	pg := fs.String("postgres", "", "PostgreSQL connection URL (postgres://user:pass@host/db) instead of -db (default $EMERGO_POSTGRES, unless -db is given)")
	conns := fs.Int("db-conns", sqlstore.DefaultConns, "connections to PostgreSQL this server opens at most and keeps open (and one more, to follow the other servers)")
	workers := fs.Int("workers", 0, "engine searches this server runs at once, one kept for engine moves (default: one per CPU); 0 runs none, with -postgres: worker processes (emergo worker) do the engine's work")
	rateLimit := fs.Float64("rate", 20, "requests per second allowed to one client address (negative: no limit)")
	var proxies prefixes
	fs.Var(&proxies, "trusted-proxies", "the reverse proxies in front of the server, addresses or networks separated by commas (10.0.0.5,192.0.2.0/24): from them, and only from them, X-Forwarded-For gives the client's address and X-Forwarded-Proto says whether it came over TLS (the session cookie is then Secure)")
	behindProxy := fs.Bool("behind-proxy", false, "the reverse proxy runs on this machine: -trusted-proxies 127.0.0.0/8,::1")
	maxConns := fs.Int("max-conns", 10000, "connections open at once, in all; one more is answered 503 and closed")
	clientConns := fs.Int("client-conns", 64, "connections open at once from one client address (IPv6: its /64), not counting trusted proxies; one more is answered 429 and closed")
	uploadStorage := byteSize(1 << 30)
	fs.Var(&uploadStorage, "upload-storage", "the most the uploaded records take in the database, in bytes or with a unit (512MiB, 2GiB, 1GB): at the bound the least recently opened are deleted to make room")
	vapidKey := fs.String("vapid-key", "", "file of the VAPID keys that sign the Web Push notifications, made (mode 0600) if it does not exist; without it the keys are kept in the database, made by the first server")
	pushContact := fs.String("push-contact", "", "whom the push services may write to about this site's pushes: an https URL or an e-mail address")
	verbose := fs.Bool("v", false, "log every request")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	postgres := *pg
	if postgres == "" && !wasSet(fs, "db") {
		postgres = os.Getenv("EMERGO_POSTGRES")
	}
	if wasSet(fs, "db") && wasSet(fs, "postgres") {
		return usageError{"give -db or -postgres, not both"}
	}
	engineWorkers := *workers
	switch {
	case engineWorkers < 0:
		return usageError{fmt.Sprintf("-workers %d: give a count of searches, or 0 for none", engineWorkers)}
	case engineWorkers == 0 && wasSet(fs, "workers"):
		if postgres == "" {
			return usageError{"-workers 0 needs -postgres: only `emergo worker` processes on a shared PostgreSQL database could do the engine's work"}
		}
		engineWorkers = -1 // none
	}
	log := serviceLog(stderr, *verbose)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The address first: a busy port must not leave a new database behind.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	// The keys before the database, which a wrong file must not create.
	var vapid notify.Keys
	if *vapidKey != "" {
		if vapid, err = notify.LoadKeys(*vapidKey); err != nil {
			return fmt.Errorf("-vapid-key: %w", err)
		}
	}
	st, where, err := openStore(ctx, *db, postgres)
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetConns(*conns)
	cfg := server.Config{Store: st, Logger: log, EngineWorkers: engineWorkers, RateLimit: *rateLimit,
		TrustedProxies: proxies, BehindProxy: *behindProxy, MaxConns: *maxConns, MaxClientConns: *clientConns,
		UploadStorage: int64(uploadStorage),
	}
	cfg.Push.Subscriber, cfg.VAPID = *pushContact, vapid
	if postgres != "" {
		// Other servers may share the database: follow their changes.
		feed, err := st.Feed(ctx)
		if err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		cfg.Feed = feed
		cfg.Jobs = st // the queue the servers and workers share
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	// Shutdown ends the event streams (Drain), which would otherwise
	// hold it to its timeout.
	hs.RegisterOnShutdown(srv.Drain)
	log.Info("serving", "url", "http://"+displayAddr(ln.Addr()), "store", where)
	fmt.Fprintf(stdout, "Emergo is ready: open http://%s\n", displayAddr(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(srv.Listener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop() // a second Ctrl-C ends the process at once
	log.Info("shutting down")
	// In order: stop accepting and let the requests in flight finish
	// (Shutdown), then stop the background work (Close), then close the
	// database (deferred): no request is served by a stopped server.
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(sctx)
	srv.Close()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// serviceLog is the log of a long-running service (serve, worker) on
// stderr: its events, and with verbose its details.
func serviceLog(stderr io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

func displayAddr(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", t.Port)
	}
	return a.String()
}

// openStore opens PostgreSQL if a connection URL is given, else the
// SQLite file, and says which for the log. Errors name the file; never
// the URL, which may hold a password.
func openStore(ctx context.Context, file, postgres string) (*sqlstore.DB, string, error) {
	if postgres != "" {
		st, err := sqlstore.OpenPostgres(ctx, postgres)
		if err != nil {
			return nil, "", fmt.Errorf("postgres: %w", err)
		}
		return st, "postgres", nil
	}
	if dir := filepath.Dir(file); dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, "", fmt.Errorf("database %s: no directory %s", file, dir)
		}
	}
	st, err := sqlstore.OpenSQLite(ctx, file)
	if err != nil {
		return nil, "", fmt.Errorf("database %s: %w", file, err)
	}
	return st, "sqlite:" + file, nil
}

// prefixes is a flag of networks separated by commas; an address alone is
// the network of that one address.
type prefixes []netip.Prefix

func (p *prefixes) String() string {
	var s []string
	for _, n := range *p {
		s = append(s, n.String())
	}
	return strings.Join(s, ",")
}

func (p *prefixes) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if n, err := netip.ParsePrefix(f); err == nil {
			*p = append(*p, n.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is not an address or a network", f)
		}
		*p = append(*p, netip.PrefixFrom(a, a.BitLen()))
	}
	return nil
}

// byteSize is a flag of a number of bytes: digits, with a unit or none
// (bytes). KiB, MiB, GiB and TiB are powers of 1024; kB, MB, GB and TB
// powers of 1000. It is written back with the largest binary unit that
// divides it.
type byteSize int64

var byteUnits = []struct {
	name string
	n    int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1},
}

func (b *byteSize) String() string {
	for _, u := range byteUnits[:4] {
		if *b != 0 && int64(*b)%u.n == 0 {
			return strconv.FormatInt(int64(*b)/u.n, 10) + u.name
		}
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Set(v string) error {
	digits, unit := v, int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(strings.TrimSpace(v), u.name); ok {
			digits, unit = rest, u.n
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(digits), 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return fmt.Errorf("%q is not a size: give bytes, or a number and a unit (512MiB, 2GiB, 1GB)", v)
	}
	*b = byteSize(n * unit)
	return nil
}
