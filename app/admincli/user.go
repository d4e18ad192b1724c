package admincli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/app/internal/datadir"
	"github.com/dragoman-translate/dragoman/core/service"
)

// adminUser runs `dragoman admin user create|list|disable`: the people who
// sign in to an account's dashboard, through service.Admin as the other
// admin commands.
func adminUser(args []string, stdout io.Writer) error {
	if len(args) < 1 {
		return cmdline.UsageError{Msg: "usage: dragoman admin user create|list|disable --account ID [flags]"}
	}
	verb, rest := args[0], args[1:]
	f := cmdline.NewFlags("admin user " + verb)
	dataDir := f.Str("data-dir", cmdline.DefaultDataDir, "data directory of the service")
	dbURL := f.Str("database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	acct := f.String("account", "", "account id")
	email := f.String("email", "", "the user's e-mail address (create)")
	pwFile := f.String("password-file", "", "file holding the password (create); without it a one-time password is printed")
	user := f.String("user", "", "user id or e-mail address (disable)")
	if err := f.Parse(rest); err != nil {
		return err
	}
	if *acct == "" {
		return cmdline.UsageError{Msg: "--account is required"}
	}
	st, err := datadir.OpenStore(*dataDir, *dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := &service.Admin{Accounts: st, Users: st, Clock: clock{}, NewID: uuid.NewString}
	ctx := context.Background()
	out := json.NewEncoder(stdout)
	switch verb {
	case "create":
		if *email == "" {
			return cmdline.UsageError{Msg: "--email is required"}
		}
		pw := ""
		if *pwFile != "" {
			b, err := os.ReadFile(*pwFile)
			if err != nil {
				return err
			}
			pw = strings.TrimRight(string(b), "\r\n")
			if pw == "" {
				return cmdline.UsageError{Msg: "--password-file is empty"}
			}
		}
		u, plain, err := svc.CreateUser(ctx, *acct, *email, pw)
		if err != nil {
			return err
		}
		res := map[string]any{"user_id": u.ID, "account_id": u.AccountID, "email": u.Email}
		if *pwFile == "" {
			res["password"] = plain // shown once; only its hash is kept
		}
		return out.Encode(res)
	case "list":
		users, err := svc.AccountUsers(ctx, *acct)
		if err != nil {
			return err
		}
		list := []map[string]any{}
		for _, u := range users {
			list = append(list, map[string]any{"user_id": u.ID, "email": u.Email, "disabled": u.Disabled, "created_at": u.CreatedAt.Format(time.RFC3339)})
		}
		return out.Encode(map[string]any{"account_id": *acct, "users": list})
	case "disable":
		if *user == "" && *email == "" {
			return cmdline.UsageError{Msg: "--user (id or e-mail) is required"}
		}
		who := *user
		if who == "" {
			who = *email
		}
		u, err := svc.DisableUser(ctx, *acct, who)
		if err != nil {
			return err
		}
		return out.Encode(map[string]any{"user_id": u.ID, "email": u.Email, "disabled": true})
	}
	return cmdline.UsageError{Msg: "unknown admin user command " + `"` + verb + `"`}
}
