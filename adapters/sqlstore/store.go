// Package sqlstore keeps jobs, accounts, keys, usage, webhooks, rate-limit
// counters and the translation memory in SQL: embedded SQLite for a single
// machine, PostgreSQL for the scale-out deployment. Every query is written
// once with ? placeholders and rebound for the driver.
package sqlstore

import (
	"context"
	"crypto/cipher"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"  // driver "postgres"
	_ "modernc.org/sqlite" // driver "sqlite", no cgo

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/webhook"
	"github.com/dragoman-translate/dragoman/migrations"
)

func init() {
	// sqlx does not know modernc's driver name; without this Rebind would
	// leave ? alone by accident rather than by design.
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
}

type dialect int

const (
	sqliteDialect dialect = iota
	postgresDialect
)

// Store implements ports.JobStore, AccountStore, UsageStore, WebhookStore
// and RateLimiter, plus a translation memory (GetTM, PutTM).
type Store struct {
	w       *pool // writes; one connection on SQLite
	r       *pool // reads; the same pool as w on PostgreSQL
	dialect dialect
	path    string // SQLite's file
	now     atomic.Pointer[func() time.Time]
	aead    atomic.Pointer[cipher.AEAD]
	// lastPrune is the rate-limit window this process last pruned before.
	lastPrune atomic.Int64
}

var (
	_ ports.JobStore     = (*Store)(nil)
	_ ports.AccountStore = (*Store)(nil)
	_ quota.Store        = (*Store)(nil)
	_ webhook.Store      = (*Store)(nil)
	_ ports.RateLimiter  = (*Store)(nil)
)

// sqlitePragmas apply to every connection: WAL so readers never block the
// writer, NORMAL sync (durable at checkpoints, safe against corruption), and
// a busy timeout that is never 0: 2 s, ample for the admin CLI's short
// writes, and the most a request waits on a database another program
// keeps locked before it is answered 503 (writeGate).
const sqlitePragmas = "_pragma=busy_timeout(2000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"

// sqliteReaders is the read pool size; more readers starve the single
// writer on 2 cores (see the dependency notes).
const sqliteReaders = 3

// OpenSQLite opens (creating if needed) the database file at path and
// applies pending migrations.
func OpenSQLite(path string) (*Store, error) {
	// ":memory:" would give each pooled connection its own database.
	if path == "" || strings.ContainsAny(path, "?#") || strings.Contains(path, ":memory:") {
		return nil, fmt.Errorf("sqlstore: bad SQLite path %q", path)
	}
	if err := restrictSQLiteFiles(path); err != nil {
		return nil, err
	}
	// _txlock=immediate takes the write lock at BEGIN, so a read-modify-write
	// transaction never fails half-way on a lock upgrade.
	w, err := sqlx.Open("sqlite", "file:"+path+"?"+sqlitePragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlstore: open %s: %w", path, err)
	}
	// One writer connection: Go's pool queues writers fairly, SQLite's busy
	// backoff does not.
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	s := &Store{w: newPool(w, true), dialect: sqliteDialect, path: path}
	if err := s.init(); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sqlx.Open("sqlite", "file:"+path+"?"+sqlitePragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlstore: open %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(sqliteReaders)
	r.SetMaxIdleConns(sqliteReaders)
	s.r = newPool(r, false)
	return s, nil
}

// restrictSQLiteFiles creates the database file 0600 before SQLite does
// (SQLite gives the -wal and -shm files its mode) and takes group and
// other access away from existing ones: they hold the translation memory
// and key hashes.
func restrictSQLiteFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("sqlstore: create %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sqlstore: restrict %s: %w", p, err)
		}
	}
	return nil
}

// OpenPostgres connects with a lib/pq DSN (postgres://… or key=value) and
// applies pending migrations.
func OpenPostgres(dsn string) (*Store, error) {
	db, err := sqlx.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: open postgres: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	p := newPool(db, false)
	s := &Store{w: p, r: p, dialect: postgresDialect}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) init() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlstore: connect: %w", err)
	}
	fs := migrations.SQLite
	if s.dialect == postgresDialect {
		fs = migrations.Postgres
	}
	return s.migrate(ctx, fs)
}

// SetClock replaces time.Now (tests move the rate-limit window with it).
func (s *Store) SetClock(c ports.Clock) {
	f := c.Now
	s.now.Store(&f)
}

func (s *Store) clock() time.Time {
	if f := s.now.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// DB is the write pool, for sharing the connection with other adapters
// (on PostgreSQL, an SQL-backed event bus). On SQLite it has one
// connection: do not hold transactions on it for long.
func (s *Store) DB() *sql.DB { return s.w.DB.DB }

// Close closes both pools.
func (s *Store) Close() error {
	err := s.w.Close()
	if s.r != nil && s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// forUpdate locks the selected row on PostgreSQL; SQLite's immediate
// transaction already holds the database write lock.
func (s *Store) forUpdate() string {
	if s.dialect == postgresDialect {
		return " FOR UPDATE"
	}
	return ""
}

// inTx runs fn in a write transaction, committing if it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	return s.w.gated(ctx, func() error {
		tx, err := s.w.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
}

// notFound maps sql.ErrNoRows to ports.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ports.ErrNotFound
	}
	return err
}
