package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// pool is a connection pool whose errors say when the database, rather
// than the request, is at fault: down, full, locked or out of connections
// come back as *ports.Unavailable, which the API answers with 503 and
// Retry-After. Call sites use it like the *sqlx.DB it embeds.
type pool struct {
	*sqlx.DB
	gate *writeGate // SQLite's writer only
}

func newPool(db *sqlx.DB, gated bool) *pool {
	p := &pool{DB: db}
	if gated {
		p.gate = &writeGate{sem: make(chan struct{}, 1)}
	}
	return p
}

func (p *pool) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var r sql.Result
	err := p.gated(ctx, func() (err error) {
		r, err = p.DB.ExecContext(ctx, q, args...)
		return err
	})
	return r, err
}

func (p *pool) GetContext(ctx context.Context, dest any, q string, args ...any) error {
	return unavailable(p.DB.GetContext(ctx, dest, q, args...))
}

func (p *pool) SelectContext(ctx context.Context, dest any, q string, args ...any) error {
	return unavailable(p.DB.SelectContext(ctx, dest, q, args...))
}

func (p *pool) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	r, err := p.DB.QueryContext(ctx, q, args...)
	return r, unavailable(err)
}

func (p *pool) QueryxContext(ctx context.Context, q string, args ...any) (*sqlx.Rows, error) {
	r, err := p.DB.QueryxContext(ctx, q, args...)
	return r, unavailable(err)
}

// gated runs a write: on SQLite one at a time through the gate, failing
// at once while another program holds the database's lock.
func (p *pool) gated(ctx context.Context, write func() error) error {
	if p.gate == nil {
		return unavailable(write())
	}
	return p.gate.do(ctx, write)
}

// writeGate queues SQLite's writes ahead of its single connection and
// stops the queue from waiting out the busy timeout once per write while
// another program (a backup, a sqlite3 shell) holds the lock: a 24 s
// submit became a 503 within the busy timeout. After a write finds the
// database locked, the writes of the next lockedFor fail at once; then
// one tries again.
type writeGate struct {
	sem         chan struct{}
	lockedUntil atomic.Int64 // unix nanoseconds
}

const lockedFor = time.Second

func (g *writeGate) do(ctx context.Context, write func() error) error {
	select {
	case g.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.sem }()
	if time.Now().UnixNano() < g.lockedUntil.Load() {
		return lockedErr(nil)
	}
	err := unavailable(write())
	var u *ports.Unavailable
	if errors.As(err, &u) && u.Reason == reasonLocked {
		g.lockedUntil.Store(time.Now().Add(lockedFor).UnixNano())
	}
	return err
}

const reasonLocked = "is locked by another program"

func lockedErr(err error) *ports.Unavailable {
	return &ports.Unavailable{What: "the database", Reason: reasonLocked, RetryAfter: 2 * time.Second, Err: err}
}

// unavailable turns the errors of a database that cannot serve (as
// opposed to a bad query or a missing row) into *ports.Unavailable.
func unavailable(err error) error {
	if err == nil || errors.Is(err, ports.ErrUnavailable) {
		return err
	}
	down := func(reason string, wait time.Duration) error {
		return &ports.Unavailable{What: "the database", Reason: reason, RetryAfter: wait, Err: err}
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return lockedErr(err)
		case sqlite3.SQLITE_FULL:
			return down("is full (no space left on its disk)", time.Minute)
		case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN:
			return down("cannot be written", 30*time.Second)
		}
		return err
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53100":
			return down("is full (no space left on its disk)", time.Minute)
		case pe.Code.Class() == "53":
			return down("is out of resources (connections or memory)", 5*time.Second)
		case pe.Code.Class() == "08", pe.Code.Class() == "57": // connection exception, operator intervention (shutdown, restart)
			return down("is not answering", 5*time.Second)
		}
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return down("is not answering", 5*time.Second)
	}
	return err
}
