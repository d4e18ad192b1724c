package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// migrationLockID serialises migrations of processes starting together on
// one PostgreSQL database (an arbitrary constant: "dragoman" in ASCII).
const migrationLockID = 0x647261676f6d616e

// migrate applies, in name order and in one transaction, every .sql file
// of fsys not yet listed in schema_migrations.
func (s *Store) migrate(ctx context.Context, fsys fs.FS) error {
	files, err := fs.Glob(fsys, "*/*.sql")
	if err != nil {
		return fmt.Errorf("sqlstore: list migrations: %w", err)
	}
	sort.Strings(files)
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		if s.dialect == postgresDialect {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLockID)); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
			return err
		}
		var done []string
		if err := tx.SelectContext(ctx, &done, `SELECT version FROM schema_migrations`); err != nil {
			return err
		}
		applied := make(map[string]bool, len(done))
		for _, v := range done {
			applied[v] = true
		}
		for _, f := range files {
			version := strings.TrimSuffix(path.Base(f), ".sql")
			if applied[version] {
				continue
			}
			ddl, err := fs.ReadFile(fsys, f)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(ddl)); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`),
				version, ts(time.Now())); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	return nil
}
