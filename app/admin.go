package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// admin runs `dragoman admin <noun> <verb> [flags]` and prints JSON.
func admin(args []string, stdout io.Writer) error {
	if len(args) >= 1 && args[0] == "rotate-secret-key" {
		return rotateSecretKey(args[1:], stdout)
	}
	if len(args) >= 1 && args[0] == "user" {
		return adminUser(args[1:], stdout)
	}
	if len(args) < 2 {
		return usageError{"usage: dragoman admin account|key <verb> [flags]"}
	}
	noun, verb, rest := args[0], args[1], args[2:]
	f := newFlags("admin " + noun + " " + verb)
	dataDir := f.str("data-dir", defaultDataDir, "data directory of the service")
	dbURL := f.str("database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	plan := f.String("plan", "", "plan: free, starter, pro or enterprise")
	name := f.String("name", "", "account name")
	acct := f.String("account", "", "account id")
	keyID := f.String("key", "", "key id")
	limitWords := f.Int64("limit-words", -1, "override of the monthly word limit (0: nothing left)")
	rpm := f.Int("requests-per-minute", -1, "override of the per-minute request limit")
	if err := f.parse(rest); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })

	st, err := openAdminStore(*dataDir, *dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Now().UTC()
	out := json.NewEncoder(stdout)

	need := func(v *string, flag string) error {
		if *v == "" {
			return usageError{"--" + flag + " is required"}
		}
		return nil
	}
	switch noun + " " + verb {
	case "account create":
		if err := need(plan, "plan"); err != nil {
			return err
		}
		p, err := account.LookupPlan(*plan)
		if err != nil {
			return usageError{err.Error()}
		}
		a := &account.Account{ID: newID(), Name: *name, PlanName: p.Name, CreatedAt: now}
		if err := st.CreateAccount(ctx, a); err != nil {
			return err
		}
		return out.Encode(map[string]any{"account_id": a.ID, "name": a.Name, "plan": a.PlanName})
	case "account suspend", "account resume":
		if err := need(acct, "account"); err != nil {
			return err
		}
		a, err := st.UpdateAccount(ctx, *acct, func(a *account.Account) error { a.Suspended = verb == "suspend"; return nil })
		if err != nil {
			return notFound(err, "account", *acct)
		}
		return out.Encode(map[string]any{"account_id": a.ID, "suspended": a.Suspended})
	case "account set-plan":
		if err := need(acct, "account"); err != nil {
			return err
		}
		if err := need(plan, "plan"); err != nil {
			return err
		}
		p, err := account.LookupPlan(*plan)
		if err != nil {
			return usageError{err.Error()}
		}
		a, err := st.UpdateAccount(ctx, *acct, func(a *account.Account) error {
			a.PlanName = p.Name
			a.LimitWordsOverride, a.RPMOverride = nil, nil
			if set["limit-words"] {
				if *limitWords < 0 {
					return usageError{"--limit-words must be 0 or more"}
				}
				n := *limitWords
				a.LimitWordsOverride = &n
			}
			if set["requests-per-minute"] {
				if *rpm < 1 {
					return usageError{"--requests-per-minute must be 1 or more"}
				}
				n := *rpm
				a.RPMOverride = &n
			}
			return nil
		})
		if err != nil {
			return notFound(err, "account", *acct)
		}
		l := a.Limits()
		return out.Encode(map[string]any{"account_id": a.ID, "plan": a.PlanName, "limit_words": l.LimitWords, "requests_per_minute": l.RequestsPerMinute})
	case "key create":
		if err := need(acct, "account"); err != nil {
			return err
		}
		if _, err := st.GetAccount(ctx, *acct); err != nil {
			return notFound(err, "account", *acct)
		}
		plain, k, err := account.NewKey(newID(), *acct, now)
		if err != nil {
			return err
		}
		if err := st.CreateKey(ctx, k); err != nil {
			return err
		}
		return out.Encode(map[string]any{"api_key": plain, "key_id": k.ID, "account_id": k.AccountID})
	case "key revoke":
		if err := need(keyID, "key"); err != nil {
			return err
		}
		if err := st.RevokeKey(ctx, *keyID, now); err != nil {
			return notFound(err, "key", *keyID)
		}
		return out.Encode(map[string]any{"key_id": *keyID, "revoked": true})
	}
	return usageError{fmt.Sprintf("unknown admin command %q", noun+" "+verb)}
}

func notFound(err error, what, id string) error {
	if errors.Is(err, ports.ErrNotFound) {
		return fmt.Errorf("%s %s not found", what, id)
	}
	return err
}

func openAdminStore(dataDir, dbURL string) (*sqlstore.Store, error) {
	if dbURL != "" {
		return sqlstore.OpenPostgres(dbURL)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	return sqlstore.OpenSQLite(filepath.Join(dataDir, "dragoman.db"))
}

// rotateSecretKey re-encrypts every webhook secret, written under the old
// server key, with the key now configured (--secret-key or the data dir's
// secret.key). Run it with every process stopped.
func rotateSecretKey(args []string, stdout io.Writer) error {
	f := newFlags("admin rotate-secret-key")
	dataDir := f.str("data-dir", defaultDataDir, "data directory of the service")
	dbURL := f.str("database-url", "", "PostgreSQL URL; empty: SQLite in the data dir")
	newKey := f.str("secret-key", "", "the new key (64 hex); default: the data dir's secret.key")
	oldHex := f.String("old-key", "", "the key the secrets are encrypted with now (64 hex)")
	if err := f.parse(args); err != nil {
		return err
	}
	old, err := sqlstore.ParseSecretKey(*oldHex)
	if err != nil {
		return usageError{"--old-key: " + err.Error()}
	}
	st, err := openAdminStore(*dataDir, *dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	key, err := secretKey(&Config{DataDir: *dataDir, SecretKey: *newKey})
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
