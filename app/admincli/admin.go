// Package admincli holds the operator's commands of the dragoman binary,
// `dragoman admin account|key|user|rotate-secret-key`: they open the data
// dir's store (or PostgreSQL) directly, on the server's machine, and print
// JSON. The client commands, which speak HTTP, are package cli.
package admincli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/app/internal/datadir"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// plans are the plans an account can be on (core/quota).
var plans = []string{"free", "starter", "pro", "enterprise"}

// store is the data dir every admin command opens: --data-dir or
// --database-url, flags of `dragoman admin` itself.
type store struct{ dataDir, databaseURL string }

func (s *store) open() (*sqlstore.Store, error) { return datadir.OpenStore(s.dataDir, s.databaseURL) }

// admin is the use cases on an open store.
func (s *store) admin(run func(ctx context.Context, adm *service.Admin, st *sqlstore.Store) error) error {
	st, err := s.open()
	if err != nil {
		return err
	}
	defer st.Close()
	return run(context.Background(), &service.Admin{Accounts: st, Users: st, Clock: clock{}, NewID: uuid.NewString}, st)
}

// Command is `dragoman admin`.
func Command() *cobra.Command {
	cmd := cmdline.Group("admin", "manage accounts, API keys, dashboard users and the secret key (prints JSON)")
	s := &store{}
	pf := cmd.PersistentFlags()
	pf.StringVar(&s.dataDir, "data-dir", cmdline.DefaultDataDir, "data directory of the service")
	pf.StringVar(&s.databaseURL, "database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	cmdline.Bind(pf, "data-dir")
	cmdline.Bind(pf, "database-url")
	cmdline.CompleteDirs(cmd, "data-dir")
	cmd.AddCommand(accountCommand(s), keyCommand(s), userCommand(s), rotateCommand(s))
	return cmd
}

// leaf is an admin command that takes only flags.
func leaf(use, short string, run func(cmd *cobra.Command) error) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: cmdline.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd) }}
}

func printJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

func required(v, flag string) error {
	if v == "" {
		return cmdline.UsageError{Msg: "--" + flag + " is required"}
	}
	return nil
}

func accountCommand(s *store) *cobra.Command {
	cmd := cmdline.Group("account", "create, suspend, resume an account or change its plan")
	var plan, name, acct string
	create := leaf("create --plan PLAN [--name NAME]", "create an account", func(c *cobra.Command) error {
		if err := required(plan, "plan"); err != nil {
			return err
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			a, err := adm.CreateAccount(ctx, name, plan)
			if err != nil {
				return adminError(err, "account", "")
			}
			return printJSON(c.OutOrStdout(), map[string]any{"account_id": a.ID, "name": a.Name, "plan": a.PlanName})
		})
	})
	create.Flags().StringVar(&plan, "plan", "", "plan: free, starter, pro or enterprise")
	create.Flags().StringVar(&name, "name", "", "account name")
	cmdline.Complete(create, "plan", plans...)
	cmd.AddCommand(create)
	for _, verb := range []string{"suspend", "resume"} {
		c := leaf(verb+" --account ID", verb+" an account", func(c *cobra.Command) error {
			if err := required(acct, "account"); err != nil {
				return err
			}
			return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
				a, err := adm.SuspendAccount(ctx, acct, verb == "suspend")
				if err != nil {
					return adminError(err, "account", acct)
				}
				return printJSON(c.OutOrStdout(), map[string]any{"account_id": a.ID, "suspended": a.Suspended})
			})
		})
		c.Flags().StringVar(&acct, "account", "", "account id")
		cmd.AddCommand(c)
	}
	cmd.AddCommand(setPlanCommand(s))
	return cmd
}

func setPlanCommand(s *store) *cobra.Command {
	var acct, plan string
	var limitWords, docWords, docSegments int64
	var rpm int
	cmd := leaf("set-plan --account ID --plan PLAN [--limit-words N] [--requests-per-minute N]", "change an account's plan and its overrides", nil)
	fs := cmd.Flags()
	fs.StringVar(&acct, "account", "", "account id")
	fs.StringVar(&plan, "plan", "", "plan: free, starter, pro or enterprise")
	fs.Int64Var(&limitWords, "limit-words", -1, "override of the monthly word limit (0: nothing left)")
	fs.IntVar(&rpm, "requests-per-minute", -1, "override of the per-minute request limit")
	fs.Int64Var(&docWords, "max-document-words", -1, "override of the plan's cap on the words of one document")
	fs.Int64Var(&docSegments, "max-document-segments", -1, "override of the plan's cap on the segments of one document")
	cmdline.Complete(cmd, "plan", plans...)
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		if err := required(acct, "account"); err != nil {
			return err
		}
		if err := required(plan, "plan"); err != nil {
			return err
		}
		change := service.PlanChange{Plan: plan}
		if fs.Changed("limit-words") {
			change.LimitWords = &limitWords
		}
		if fs.Changed("requests-per-minute") {
			change.RequestsPerMinute = &rpm
		}
		if fs.Changed("max-document-words") {
			change.MaxDocumentWords = &docWords
		}
		if fs.Changed("max-document-segments") {
			change.MaxDocumentSegments = &docSegments
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			a, err := adm.SetPlan(ctx, acct, change)
			if err != nil {
				return adminError(err, "account", acct)
			}
			l := a.Limits()
			return printJSON(c.OutOrStdout(), map[string]any{"account_id": a.ID, "plan": a.PlanName, "limit_words": l.LimitWords, "requests_per_minute": l.RequestsPerMinute,
				"max_document_words": l.MaxDocumentWords, "max_document_segments": l.MaxDocumentSegments})
		})
	}
	return cmd
}

func keyCommand(s *store) *cobra.Command {
	cmd := cmdline.Group("key", "create or revoke an API key")
	var acct, keyID string
	create := leaf("create --account ID", "create an API key for an account (printed once)", func(c *cobra.Command) error {
		if err := required(acct, "account"); err != nil {
			return err
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			plain, k, err := adm.CreateKey(ctx, acct)
			if err != nil {
				return adminError(err, "account", acct)
			}
			return printJSON(c.OutOrStdout(), map[string]any{"api_key": plain, "key_id": k.ID, "account_id": k.AccountID})
		})
	})
	create.Flags().StringVar(&acct, "account", "", "account id")
	revoke := leaf("revoke --key KEY_ID", "revoke an API key", func(c *cobra.Command) error {
		if err := required(keyID, "key"); err != nil {
			return err
		}
		return s.admin(func(ctx context.Context, adm *service.Admin, _ *sqlstore.Store) error {
			if err := adm.RevokeKey(ctx, keyID); err != nil {
				return adminError(err, "key", keyID)
			}
			return printJSON(c.OutOrStdout(), map[string]any{"key_id": keyID, "revoked": true})
		})
	})
	revoke.Flags().StringVar(&keyID, "key", "", "key id")
	cmd.AddCommand(create, revoke)
	return cmd
}

// adminError maps a use case's error to the command line: the operator's
// mistakes are usage errors, a missing record names what was missing.
func adminError(err error, what, id string) error {
	var e *service.Error
	if errors.As(err, &e) && e.Kind == service.KindUnprocessable {
		return cmdline.UsageError{Msg: e.Message}
	}
	if errors.Is(err, ports.ErrNotFound) {
		return fmt.Errorf("%s %s not found", what, id)
	}
	return err
}

// rotateCommand re-encrypts every webhook secret, written under the old
// server key, with the key now configured (--secret-key or the data dir's
// secret.key). Run it with every process stopped.
func rotateCommand(s *store) *cobra.Command {
	var newKey, oldHex string
	cmd := leaf("rotate-secret-key --old-key HEX [--secret-key HEX]", "re-encrypt the webhook secrets under a new key (every process stopped)", nil)
	cmd.Flags().StringVar(&newKey, "secret-key", "", "the new key (64 hex); default: the data dir's secret.key")
	cmd.Flags().StringVar(&oldHex, "old-key", "", "the key the secrets are encrypted with now (64 hex)")
	cmdline.Bind(cmd.Flags(), "secret-key")
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		old, err := sqlstore.ParseSecretKey(oldHex)
		if err != nil {
			return cmdline.UsageError{Msg: "--old-key: " + err.Error()}
		}
		st, err := s.open()
		if err != nil {
			return err
		}
		defer st.Close()
		key, err := datadir.SecretKey(s.dataDir, newKey)
		if err != nil {
			return err
		}
		if err := st.SetSecretKey(key); err != nil {
			return err
		}
		n, err := st.ReencryptSecrets(context.Background(), old)
		if err != nil {
			return err
		}
		return printJSON(c.OutOrStdout(), map[string]any{"reencrypted": n})
	}
	return cmd
}

// clock is the wall clock, in UTC.
type clock struct{}

func (clock) Now() time.Time { return time.Now().UTC() }
