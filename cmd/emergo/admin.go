package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"emergo/chat"
	"emergo/store/sqlstore"
)

func init() {
	register("admin", "the site's moderation: moderators, reports", runAdmin)
}

const adminUsage = "Usage: emergo admin grant [flags] NAME    make the account NAME a moderator\n" +
	"       emergo admin revoke [flags] NAME   take the moderator's role back\n" +
	"       emergo admin reports [flags]       list the latest reports\n\n" +
	"A moderator mutes accounts on the site (POST /api/users/{name}/mute, docs/api.md).\n" +
	"Run 'emergo admin grant -h' (or revoke, reports) for the flags.\n"

func runAdmin(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("admin", adminUsage, []subcommand{
		{"grant", func(args []string, stdout, stderr io.Writer) error { return runModerator(args, true, stdout, stderr) }},
		{"revoke", func(args []string, stdout, stderr io.Writer) error { return runModerator(args, false, stdout, stderr) }},
		{"reports", runReports},
	}, args, stdout, stderr)
}

// storeFlags adds the flags that name the site's database to fs; the
// returned function opens it once fs is parsed.
func storeFlags(fs *flag.FlagSet) func(ctx context.Context) (*sqlstore.DB, error) {
	db := fs.String("db", "emergo.db", "SQLite database file of the site")
	pg := fs.String("postgres", "", "PostgreSQL connection URL of the site instead of -db (default $EMERGO_POSTGRES, unless -db is given)")
	return func(ctx context.Context) (*sqlstore.DB, error) {
		if wasSet(fs, "db") && wasSet(fs, "postgres") {
			return nil, usageError{"give -db or -postgres, not both"}
		}
		postgres := *pg
		if postgres == "" && !wasSet(fs, "db") {
			postgres = os.Getenv("EMERGO_POSTGRES")
		}
		st, _, err := openStore(ctx, *db, postgres)
		return st, err
	}
}

func runModerator(args []string, on bool, stdout, stderr io.Writer) error {
	name, what := "admin grant", "Makes the account NAME a moderator of the site: he may mute accounts."
	if !on {
		name, what = "admin revoke", "Takes back the moderator's role of the account NAME."
	}
	fs := newFlags(name, "NAME", what, stderr)
	open := storeFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{name + " takes one account's name"}
	}
	ctx := context.Background()
	st, err := open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := chat.SetModerator(ctx, st, st, fs.Arg(0), on); err != nil {
		return err
	}
	if on {
		fmt.Fprintf(stdout, "%s is a moderator\n", fs.Arg(0))
	} else {
		fmt.Fprintf(stdout, "%s is no longer a moderator\n", fs.Arg(0))
	}
	return nil
}

func runReports(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("admin reports", "",
		"Lists the latest reports that accounts made of others, the latest first:\n"+
			"when, by whom, about whom, in which game (- for none), and why.", stderr)
	open := storeFlags(fs)
	n := fs.Int("n", 50, "how many reports")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{fmt.Sprintf("-n %d: give a count of reports", *n)}
	}
	ctx := context.Background()
	st, err := open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.Reports(ctx, *n)
	if err != nil {
		return err
	}
	return chat.WriteReports(stdout, rs)
}
