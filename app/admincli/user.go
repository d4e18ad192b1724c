package admincli

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/service"
)

// userCommand is `dragoman admin user create|list|disable`: the people who
// sign in to an account's dashboard, through service.Admin as the other
// admin commands.
func userCommand(s *store) *cobra.Command {
	cmd := cmdline.Group("user", "create, list or disable the people who sign in to an account's dashboard")
	var acct, email, pwFile, user string
	account := func(c *cobra.Command) {
		c.Flags().StringVar(&acct, "account", "", "account id")
	}
	create := leaf("create --account ID --email E [--password-file F]", "create a dashboard user (a one-time password is printed without --password-file)", func(c *cobra.Command) error {
		if err := required(acct, "account"); err != nil {
			return err
		}
		if err := required(email, "email"); err != nil {
			return err
		}
		pw := ""
		if pwFile != "" {
			b, err := os.ReadFile(pwFile)
			if err != nil {
				return err
			}
			if pw = strings.TrimRight(string(b), "\r\n"); pw == "" {
				return cmdline.UsageError{Msg: "--password-file is empty"}
			}
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			u, plain, err := adm.CreateUser(ctx, acct, email, pw)
			if err != nil {
				return err
			}
			res := map[string]any{"user_id": u.ID, "account_id": u.AccountID, "email": u.Email}
			if pwFile == "" {
				res["password"] = plain // shown once; only its hash is kept
			}
			return printJSON(c.OutOrStdout(), res)
		})
	})
	account(create)
	create.Flags().StringVar(&email, "email", "", "the user's e-mail address")
	create.Flags().StringVar(&pwFile, "password-file", "", "file holding the password; without it a one-time password is printed")
	cmdline.CompleteFiles(create, "password-file")

	list := leaf("list --account ID", "list an account's dashboard users", func(c *cobra.Command) error {
		if err := required(acct, "account"); err != nil {
			return err
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			users, err := adm.AccountUsers(ctx, acct)
			if err != nil {
				return err
			}
			out := []map[string]any{}
			for _, u := range users {
				out = append(out, map[string]any{"user_id": u.ID, "email": u.Email, "disabled": u.Disabled, "created_at": u.CreatedAt.Format(time.RFC3339)})
			}
			return printJSON(c.OutOrStdout(), map[string]any{"account_id": acct, "users": out})
		})
	})
	account(list)

	disable := leaf("disable --account ID --user ID|EMAIL", "disable a dashboard user (signs them out)", func(c *cobra.Command) error {
		if err := required(acct, "account"); err != nil {
			return err
		}
		who := user
		if who == "" {
			who = email
		}
		if who == "" {
			return cmdline.UsageError{Msg: "--user (id or e-mail) is required"}
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			u, err := adm.DisableUser(ctx, acct, who)
			if err != nil {
				return err
			}
			return printJSON(c.OutOrStdout(), map[string]any{"user_id": u.ID, "email": u.Email, "disabled": true})
		})
	})
	account(disable)
	disable.Flags().StringVar(&user, "user", "", "user id or e-mail address")
	disable.Flags().StringVar(&email, "email", "", "the user's e-mail address (instead of --user)")
	cmd.AddCommand(create, list, disable)
	return cmd
}
