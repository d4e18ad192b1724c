// Package admincli holds the operator's commands of the dragoman binary,
// `dragoman admin account|key|user|rotate-secret-key`: they open the data
// dir's store (or PostgreSQL) directly, on the server's machine, and print
// JSON. The client commands, which speak HTTP, are package cli.
package admincli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/app/internal/datadir"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Run runs `dragoman admin <noun> <verb> [flags]` and prints JSON.
func Run(args []string, stdout io.Writer) error {
	if len(args) >= 1 && args[0] == "rotate-secret-key" {
		return rotateSecretKey(args[1:], stdout)
	}
	if len(args) >= 1 && args[0] == "user" {
		return adminUser(args[1:], stdout)
	}
	if len(args) < 2 {
		return cmdline.UsageError{Msg: "usage: dragoman admin account|key <verb> [flags]"}
	}
	noun, verb, rest := args[0], args[1], args[2:]
	f := cmdline.NewFlags("admin " + noun + " " + verb)
	dataDir := f.Str("data-dir", cmdline.DefaultDataDir, "data directory of the service")
	dbURL := f.Str("database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	plan := f.String("plan", "", "plan: free, starter, pro or enterprise")
	name := f.String("name", "", "account name")
	acct := f.String("account", "", "account id")
	keyID := f.String("key", "", "key id")
	limitWords := f.Int64("limit-words", -1, "override of the monthly word limit (0: nothing left)")
	rpm := f.Int("requests-per-minute", -1, "override of the per-minute request limit")
	docWords := f.Int64("max-document-words", -1, "override of the plan's cap on the words of one document")
	docSegments := f.Int64("max-document-segments", -1, "override of the plan's cap on the segments of one document")
	if err := f.Parse(rest); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })

	st, err := datadir.OpenStore(*dataDir, *dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	adm := &service.Admin{Accounts: st, Clock: clock{}, NewID: uuid.NewString}
	out := json.NewEncoder(stdout)

	need := func(v *string, flag string) error {
		if *v == "" {
			return cmdline.UsageError{Msg: "--" + flag + " is required"}
		}
		return nil
	}
	switch noun + " " + verb {
	case "account create":
		if err := need(plan, "plan"); err != nil {
			return err
		}
		a, err := adm.CreateAccount(ctx, *name, *plan)
		if err != nil {
			return adminError(err, "account", "")
		}
		return out.Encode(map[string]any{"account_id": a.ID, "name": a.Name, "plan": a.PlanName})
	case "account suspend", "account resume":
		if err := need(acct, "account"); err != nil {
			return err
		}
		a, err := adm.SuspendAccount(ctx, *acct, verb == "suspend")
		if err != nil {
			return adminError(err, "account", *acct)
		}
		return out.Encode(map[string]any{"account_id": a.ID, "suspended": a.Suspended})
	case "account set-plan":
		if err := need(acct, "account"); err != nil {
			return err
		}
		if err := need(plan, "plan"); err != nil {
			return err
		}
		change := service.PlanChange{Plan: *plan}
		if set["limit-words"] {
			change.LimitWords = limitWords
		}
		if set["requests-per-minute"] {
			change.RequestsPerMinute = rpm
		}
		if set["max-document-words"] {
			change.MaxDocumentWords = docWords
		}
		if set["max-document-segments"] {
			change.MaxDocumentSegments = docSegments
		}
		a, err := adm.SetPlan(ctx, *acct, change)
		if err != nil {
			return adminError(err, "account", *acct)
		}
		l := a.Limits()
		return out.Encode(map[string]any{"account_id": a.ID, "plan": a.PlanName, "limit_words": l.LimitWords, "requests_per_minute": l.RequestsPerMinute,
			"max_document_words": l.MaxDocumentWords, "max_document_segments": l.MaxDocumentSegments})
	case "key create":
		if err := need(acct, "account"); err != nil {
			return err
		}
		plain, k, err := adm.CreateKey(ctx, *acct)
		if err != nil {
			return adminError(err, "account", *acct)
		}
		return out.Encode(map[string]any{"api_key": plain, "key_id": k.ID, "account_id": k.AccountID})
	case "key revoke":
		if err := need(keyID, "key"); err != nil {
			return err
		}
		if err := adm.RevokeKey(ctx, *keyID); err != nil {
			return adminError(err, "key", *keyID)
		}
		return out.Encode(map[string]any{"key_id": *keyID, "revoked": true})
	}
	return cmdline.UsageError{Msg: fmt.Sprintf("unknown admin command %q", noun+" "+verb)}
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

// rotateSecretKey re-encrypts every webhook secret, written under the old
// server key, with the key now configured (--secret-key or the data dir's
// secret.key). Run it with every process stopped.
func rotateSecretKey(args []string, stdout io.Writer) error {
	f := cmdline.NewFlags("admin rotate-secret-key")
	dataDir := f.Str("data-dir", cmdline.DefaultDataDir, "data directory of the service")
	dbURL := f.Str("database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	newKey := f.Str("secret-key", "", "the new key (64 hex); default: the data dir's secret.key")
	oldHex := f.String("old-key", "", "the key the secrets are encrypted with now (64 hex)")
	if err := f.Parse(args); err != nil {
		return err
	}
	old, err := sqlstore.ParseSecretKey(*oldHex)
	if err != nil {
		return cmdline.UsageError{Msg: "--old-key: " + err.Error()}
	}
	st, err := datadir.OpenStore(*dataDir, *dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	key, err := datadir.SecretKey(*dataDir, *newKey)
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
	return json.NewEncoder(stdout).Encode(map[string]any{"reencrypted": n})
}

// clock is the wall clock, in UTC.
type clock struct{}

func (clock) Now() time.Time { return time.Now().UTC() }
