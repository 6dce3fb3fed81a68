package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

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
			"PostgreSQL with -postgres.", stderr)
	addr := fs.String("addr", ":8080", "address to listen on")
	db := fs.String("db", "emergo.db", "SQLite database file")
	pg := fs.String("postgres", os.Getenv("EMERGO_POSTGRES"), "PostgreSQL connection URL (postgres://user:pass@host/db); replaces -db (default $EMERGO_POSTGRES)")
	engines := fs.Int("engines", 0, "searches running at once (default: one per CPU)")
	rateLimit := fs.Float64("rate", 20, "requests per second allowed to one client address (negative: no limit)")
	verbose := fs.Bool("v", false, "log every request")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := openStore(ctx, *db, *pg)
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := server.New(ctx, server.Config{Store: st, Logger: log, EngineWorkers: *engines, RateLimit: *rateLimit})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	where := "sqlite:" + *db
	if *pg != "" {
		where = "postgres"
	}
	log.Info("serving", "url", "http://"+displayAddr(ln.Addr()), "store", where)
	fmt.Fprintf(stdout, "Emergo is ready: open http://%s\n", displayAddr(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Close()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

func displayAddr(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", t.Port)
	}
	return a.String()
}

// openStore opens PostgreSQL if a connection URL is given, else the
// SQLite file.
func openStore(ctx context.Context, file, postgres string) (*sqlstore.DB, error) {
	if postgres != "" {
		return sqlstore.OpenPostgres(ctx, postgres)
	}
	return sqlstore.OpenSQLite(ctx, file)
}
