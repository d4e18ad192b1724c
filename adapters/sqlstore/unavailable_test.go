package sqlstore

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Another program holds SQLite's write lock (issue 26: a submit waited
// 24.4 s, then 500): every write is answered Unavailable, "locked", within
// the busy timeout, however many were queued; reads go on; once the lock
// is gone, writes pass again.
func TestLockedSQLiteAnswersQuickly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dragoman.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				_, _, errs[i] = s.Allow(ctx, "rpm:a", 10)
			} else {
				errs[i] = s.CreateJob(ctx, job.New("j"+string(rune('a'+i)), "a", time.Now()))
			}
		}()
	}
	wg.Wait()
	took := time.Since(began)
	for i, err := range errs {
		var u *ports.Unavailable
		if !errors.As(err, &u) || u.Reason != reasonLocked || u.RetryAfter <= 0 {
			t.Errorf("write %d on a locked database: %v", i, err)
		}
	}
	if took > 4*time.Second {
		t.Errorf("6 writes on a locked database took %s; the busy timeout is 2 s", took)
	}
	t.Logf("6 writes answered in %s", took)
	if _, err := s.GetAccount(ctx, "nobody"); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("a read while locked: %v", err)
	}
	conn.ExecContext(ctx, "ROLLBACK")
	conn.Close()
	time.Sleep(lockedFor)
	if ok, _, err := s.Allow(ctx, "rpm:a", 10); err != nil || !ok {
		t.Fatalf("after the lock is gone: %v %v", ok, err)
	}
}

// A full disk is SQLite's SQLITE_FULL, made here with max_page_count on
// the writer's connection: writes are answered Unavailable, "full".
func TestFullSQLiteIsUnavailable(t *testing.T) {
	s := newStore(t, sqliteBackend)
	var pages int
	if err := s.w.GetContext(ctx, &pages, "PRAGMA page_count"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, "PRAGMA max_page_count = "+itoa(pages)); err != nil {
		t.Fatal(err)
	}
	var err error
	for i := 0; i < 200 && err == nil; i++ {
		j := job.New("job-"+itoa(i), "a", time.Now())
		j.OriginalName = strings.Repeat("x", 2000)
		err = s.CreateJob(ctx, j)
	}
	var u *ports.Unavailable
	if !errors.As(err, &u) || !strings.Contains(u.Message(), "full") {
		t.Fatalf("writing to a full database: %v", err)
	}
}

// PostgreSQL stopped: calls fail at once as Unavailable, "not answering",
// with no address in what a client reads.
func TestStoppedPostgresIsUnavailable(t *testing.T) {
	dsn, stop, err := pgtest.Run()
	if err != nil {
		t.Fatalf("PostgreSQL needed: %v", err)
	}
	if stop == nil {
		t.Skip("DRAGOMAN_TEST_POSTGRES_DSN is a server this test must not stop")
	}
	s, err := OpenPostgres(dsn)
	if err != nil {
		stop()
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Allow(ctx, "rpm:a", 10); err != nil {
		t.Fatal(err)
	}
	stop()
	for i, call := range []func() error{
		func() error { _, _, err := s.Allow(ctx, "rpm:a", 10); return err },
		func() error { _, err := s.GetJob(ctx, "j"); return err },
		func() error { return s.CreateJob(ctx, job.New("j", "a", time.Now())) },
	} {
		began := time.Now()
		err := call()
		var u *ports.Unavailable
		if !errors.As(err, &u) || u.Message() != "the database is not answering" || time.Since(began) > 3*time.Second {
			t.Errorf("call %d with the server stopped: %v after %s", i, err, time.Since(began))
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
