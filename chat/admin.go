package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"emergo/account"
)

// Users finds accounts by username (account.Store).
type Users interface {
	UserByKey(ctx context.Context, key string) (*account.User, error)
}

// SetModerator gives the account name the moderator's role (on), or
// takes it back, for the site's administrator (emergo admin).
func SetModerator(ctx context.Context, st Store, users Users, name string, on bool) error {
	u, err := users.UserByKey(ctx, account.Key(name))
	if errors.Is(err, account.ErrNotFound) {
		return fmt.Errorf("no account %q", name)
	}
	if err != nil {
		return err
	}
	return st.SetModerator(ctx, u.ID, on)
}

// WriteReports writes rs as a table, one report a line: when, by whom,
// about whom, in which game, why.
func WriteReports(w io.Writer, rs []Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "id\ttime\tby\tabout\tgame\treason")
	for _, r := range rs {
		game := r.Game
		if game == "" {
			game = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Time.UTC().Format(time.RFC3339), r.ByName, r.AboutName, game, r.Reason)
	}
	return tw.Flush()
}
