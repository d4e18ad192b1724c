package sqlstore

import (
	"context"
	"path/filepath"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/adapters/internal/diskroom"
)

// Ping says whether the database can take work, for the readiness probe:
// it answers a query and, for SQLite, its file can be written: its disk
// has room and no other program holds its lock (a read alone passes on a
// locked or full database, which then fails every write).
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.r.GetContext(ctx, &n, "SELECT 1"); err != nil {
		return err
	}
	if s.dialect != sqliteDialect {
		return nil
	}
	if err := diskroom.Check("the database", filepath.Dir(s.path)); err != nil {
		return err
	}
	// BEGIN IMMEDIATE takes the write lock; nothing is written.
	return s.inTx(ctx, func(*sqlx.Tx) error { return nil })
}
