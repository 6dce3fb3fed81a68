package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/account"
	"emergo/chat"
	"emergo/store/sqlstore"
)

// TestAdmin: the administrator makes an account a moderator and takes
// the role back, and lists the reports, the latest first.
func TestAdmin(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "site.db")
	st, err := sqlstore.OpenSQLite(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, name := range []string{"ann", "bob", "Mod"} {
		u := &account.User{Name: name, Key: account.Key(name), Password: "x", Created: time.UnixMilli(1000)}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		ids[name] = u.ID
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, r := range []chat.Report{
		{By: ids["ann"], About: ids["bob"], Reason: "rude in the chat", Time: at},
		{By: ids["bob"], About: ids["ann"], Reason: "spam", Time: at.Add(time.Minute)},
	} {
		if err := st.AddReport(ctx, &r, chat.MaxReports); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	standing := func() chat.Standing {
		t.Helper()
		st, err := sqlstore.OpenSQLite(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, err := st.Standing(ctx, ids["Mod"])
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if out, _, err := emergo(t, "", "admin", "grant", "-db", file, "mod"); err != nil || out != "mod is a moderator\n" {
		t.Fatalf("admin grant: %q %v", out, err)
	}
	if !standing().Moderator {
		t.Error("granted, the account is not a moderator")
	}
	if _, _, err := emergo(t, "", "admin", "revoke", "-db", file, "Mod"); err != nil {
		t.Fatal(err)
	}
	if standing().Moderator {
		t.Error("revoked, the account is a moderator still")
	}
	if _, _, err := emergo(t, "", "admin", "grant", "-db", file, "nobody"); err == nil || !strings.Contains(err.Error(), `no account "nobody"`) {
		t.Errorf("admin grant of no account: %v", err)
	}

	out, _, err := emergo(t, "", "admin", "reports", "-db", file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "id") ||
		!strings.Contains(lines[1], "bob") || !strings.HasSuffix(lines[1], "spam") ||
		!strings.Contains(lines[2], "2026-03-01T10:00:00Z") || !strings.HasSuffix(lines[2], "rude in the chat") {
		t.Errorf("admin reports:\n%s", out)
	}
	if out, _, _ := emergo(t, "", "admin", "reports", "-db", file, "-n", "1"); strings.Count(out, "\n") != 2 {
		t.Errorf("admin reports -n 1:\n%s", out)
	}
}
