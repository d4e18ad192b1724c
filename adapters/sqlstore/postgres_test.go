package sqlstore

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
)

// The PostgreSQL suite runs against DRAGOMAN_TEST_POSTGRES_DSN if set.
// Otherwise it starts a throwaway server with initdb/pg_ctl found on PATH,
// in DRAGOMAN_PG_BINDIR, or in Debian's /usr/lib/postgresql/<v>/bin, as the
// postgres user when run as root. With none of these it fails with the
// install hint. Each test gets its own schema.

var (
	pgOnce    sync.Once
	pgDSN     string
	pgErr     error
	pgStop    func()
	pgSchemas atomic.Int64
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pgStop != nil {
		pgStop()
	}
	os.Exit(code)
}

// postgresBackend returns the PostgreSQL backend, starting the server the
// first time.
func postgresBackend(t testing.TB) backend {
	t.Helper()
	pgOnce.Do(func() { pgDSN, pgStop, pgErr = pgtest.Run() })
	if pgErr != nil { // tests never skip for a missing tool
		t.Fatalf("PostgreSQL needed: %v (install the postgresql package, e.g. `make deps`, or set DRAGOMAN_TEST_POSTGRES_DSN)", pgErr)
	}
	return backend{
		name: "postgres",
		target: func(t testing.TB) string {
			schema := fmt.Sprintf("dragoman_test_%d_%d", os.Getpid(), pgSchemas.Add(1))
			admin, err := sql.Open("postgres", pgDSN)
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close()
			if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				admin, err := sql.Open("postgres", pgDSN)
				if err == nil {
					admin.Exec("DROP SCHEMA " + schema + " CASCADE")
					admin.Close()
				}
			})
			return withSearchPath(pgDSN, schema)
		},
		open: OpenPostgres,
	}
}

// withSearchPath adds a search_path runtime parameter to a lib/pq DSN in
// either URL or key=value form.
func withSearchPath(dsn, schema string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
}
