package sqlstore

import (
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The PostgreSQL suite runs against DRAGOMAN_TEST_POSTGRES_DSN if set.
// Otherwise it starts a throwaway server with initdb/pg_ctl found on PATH,
// in DRAGOMAN_PG_BINDIR, or in Debian's /usr/lib/postgresql/<v>/bin, as the
// postgres user when run as root. With none of these it skips, or fails
// when CI is set. Each test gets its own schema.

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
	pgOnce.Do(func() { pgDSN, pgStop, pgErr = startPostgres() })
	if pgErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL needed in CI: %v", pgErr)
		}
		t.Skipf("no PostgreSQL: %v (set DRAGOMAN_TEST_POSTGRES_DSN or install postgresql)", pgErr)
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

func startPostgres() (dsn string, stop func(), err error) {
	if dsn := os.Getenv("DRAGOMAN_TEST_POSTGRES_DSN"); dsn != "" {
		return dsn, nil, nil
	}
	bin, err := postgresBinDir()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "dragoman-pg-")
	if err != nil {
		return "", nil, err
	}
	run := func(name string, args ...string) *exec.Cmd {
		return exec.Command(filepath.Join(bin, name), args...)
	}
	if os.Geteuid() == 0 {
		// initdb refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
		run = func(name string, args ...string) *exec.Cmd {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, name)}, args...)...)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	// A throwaway server: no durability, many connections (the scale-out
	// tests open several pools).
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off", port, dir)
	if out, err := run("pg_ctl", "-D", data, "-w", "-t", "60", "-l", filepath.Join(dir, "log"), "-o", opts, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	stop = func() {
		run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop").Run()
		os.RemoveAll(dir)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), stop, nil
}

func postgresBinDir() (string, error) {
	if d := os.Getenv("DRAGOMAN_PG_BINDIR"); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		d := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(found) == 0 {
		return "", fmt.Errorf("pg_ctl not found")
	}
	sort.Slice(found, func(i, j int) bool { return pgVersion(found[i]) > pgVersion(found[j]) })
	return filepath.Dir(found[0]), nil
}

// pgVersion reads <v> from /usr/lib/postgresql/<v>/bin/pg_ctl.
func pgVersion(p string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
	return v
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
