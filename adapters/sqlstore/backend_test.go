package sqlstore

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// backend makes fresh, empty databases for the shared suite.
type backend struct {
	name string
	// target makes a new empty database and returns what open takes.
	target func(t testing.TB) string
	open   func(target string) (*Store, error)
}

var sqliteBackend = backend{
	name:   "sqlite",
	target: func(t testing.TB) string { return filepath.Join(t.TempDir(), "dragoman.db") },
	open:   OpenSQLite,
}

// newStore opens a fresh database of b, closed when the test ends.
func newStore(t testing.TB, b backend) *Store {
	t.Helper()
	s, err := b.open(b.target(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
