// Package pgtest gives tests a throwaway PostgreSQL database.
//
// It uses the server at DRAGOMAN_TEST_POSTGRES_DSN if set. Otherwise it
// starts one with initdb/pg_ctl found in DRAGOMAN_PG_BINDIR, on PATH, via
// pg_config, or in Debian's /usr/lib/postgresql/<v>/bin, as the postgres
// user when run as root (initdb refuses root). A missing PostgreSQL fails
// the test: install the postgresql package.
package pgtest

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	_ "github.com/lib/pq" // the driver the scale-out store uses

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
)

var databases atomic.Int64

// Database returns the URL of a new, empty database for the test: on a
// server it starts for this test, or on DRAGOMAN_TEST_POSTGRES_DSN.
// Everything is removed when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	dsn, stop, err := Run()
	if err != nil {
		t.Fatalf("PostgreSQL needed (install the postgresql package or set DRAGOMAN_TEST_POSTGRES_DSN): %v", err)
	}
	if stop != nil {
		t.Cleanup(stop)
	}
	return createDatabase(t, dsn)
}

// createDatabase makes a new database on the server at dsn, dropped when
// the test ends, and returns its URL.
func createDatabase(t testing.TB, dsn string) string {
	t.Helper()
	name := fmt.Sprintf("dragoman_test_%d_%d", os.Getpid(), databases.Add(1))
	admin, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		if admin, err := sql.Open("postgres", dsn); err == nil {
			admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			admin.Close()
		}
	})
	return withDatabase(dsn, name)
}

// withDatabase points a lib/pq DSN, URL or key=value, at another database.
func withDatabase(dsn, name string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + name
		return u.String()
	}
	return dsn + " dbname=" + name
}

// Run returns DRAGOMAN_TEST_POSTGRES_DSN (stop nil) or starts a server with
// no durability and many connections (each service process opens a pool);
// stop shuts it down and removes its files.
func Run() (dsn string, stop func(), err error) {
	if dsn := os.Getenv("DRAGOMAN_TEST_POSTGRES_DSN"); dsn != "" {
		return dsn, nil, nil
	}
	s, err := Start()
	if err != nil {
		return "", nil, err
	}
	return s.DSN, s.Remove, nil
}

// Server is a PostgreSQL server the test started itself, which it may
// stop and start again on the same port and files (an outage).
type Server struct {
	DSN  string // the postgres database as superuser, sslmode=disable
	dir  string
	data string
	opts string
	run  func(name string, args ...string) *exec.Cmd
}

// Start initialises and starts a server of its own, whatever
// DRAGOMAN_TEST_POSTGRES_DSN says: tests that stop it need it private. It
// skips durability (no fsync, asynchronous commits), as tests may.
func Start() (*Server, error) { return start(false) }

// StartDurable is Start with PostgreSQL's default durability (fsync,
// synchronous commits, full-page writes): what production pays, for
// benchmarks.
func StartDurable() (*Server, error) { return start(true) }

func start(durable bool) (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "dragoman-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, data: filepath.Join(dir, "data")}
	s.run = func(name string, args ...string) *exec.Cmd {
		return exec.Command(filepath.Join(bin, name), args...)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.run = func(name string, args ...string) *exec.Cmd {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, name)}, args...)...)
		}
	}
	if out, err := s.run("initdb", "-D", s.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// A stable port: Restart takes it again after an outage.
	port, err := s3test.StablePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.opts = fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=300", port, dir)
	if !durable {
		s.opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	s.DSN = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	if err := s.Restart(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Stop stops the server at once, as a crash would (pg_ctl -m immediate):
// connections break and new ones are refused until Restart.
func (s *Server) Stop() error {
	if out, err := s.run("pg_ctl", "-D", s.data, "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Restart starts the stopped server again on its port and files.
func (s *Server) Restart() error {
	if out, err := s.run("pg_ctl", "-D", s.data, "-w", "-t", "60", "-l", filepath.Join(s.dir, "log"), "-o", s.opts, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Remove stops the server and deletes its files.
func (s *Server) Remove() {
	s.run("pg_ctl", "-D", s.data, "-m", "immediate", "-w", "stop").Run()
	os.RemoveAll(s.dir)
}

// Database creates a database on s for the test and returns its URL.
func (s *Server) Database(t testing.TB) string {
	t.Helper()
	return createDatabase(t, s.DSN)
}

func binDir() (string, error) {
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
	version := func(p string) int {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
		return v
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) > version(found[j]) })
	return filepath.Dir(found[0]), nil
}
