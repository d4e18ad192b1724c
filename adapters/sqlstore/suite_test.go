package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/migrations"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

func TestSQLite(t *testing.T) { runSuite(t, sqliteBackend) }

func TestPostgres(t *testing.T) { runSuite(t, postgresBackend(t)) }

// runSuite checks every store method against one backend.
func runSuite(t *testing.T, b backend) {
	tests := []struct {
		name string
		fn   func(t *testing.T, b backend)
	}{
		{"MigrationsIdempotent", testMigrationsIdempotent},
		{"LanguageNamesMigratedToCodes", testLanguageNamesMigratedToCodes},
		{"TimeRoundTrip", testTimeRoundTrip},
		{"JobRoundTrip", testJobRoundTrip},
		{"UpdateJob", testUpdateJob},
		{"UpdateJobConcurrent", testUpdateJobConcurrent},
		{"JobQueries", testJobQueries},
		{"JobCatalog", testJobCatalog},
		{"Accounts", testAccounts},
		{"Keys", testKeys},
		{"Usage", testUsage},
		{"ReserveConcurrent", testReserveConcurrent},
		{"ReserveAfterCancel", testReserveAfterCancel},
		{"Webhooks", testWebhooks},
		{"RateLimit", testRateLimit},
		{"RateLimitConcurrent", testRateLimitConcurrent},
		{"RateLimitMinuteBoundary", testRateLimitMinuteBoundary},
		{"RateLimitNewLimit", testRateLimitNewLimit},
		{"TranslationMemory", testTranslationMemory},
		{"TranslationMemoryMigratedToAccounts", testTranslationMemoryMigratedToAccounts},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, b) })
	}
}

var ctx = context.Background()

// t0 has nanoseconds and a non-UTC zone, which the store must normalise.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.FixedZone("IST", 2*3600))

func testMigrationsIdempotent(t *testing.T, b backend) {
	target := b.target(t)
	for i := 0; i < 2; i++ {
		s, err := b.open(target)
		if err != nil {
			t.Fatalf("open %d: %v", i+1, err)
		}
		if i == 0 {
			if err := s.CreateAccount(ctx, &account.Account{ID: "a1", Name: "n", PlanName: "free", CreatedAt: t0}); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := s.r.Get(&n, "SELECT COUNT(*) FROM schema_migrations"); err != nil {
			t.Fatal(err)
		}
		fsys := migrations.SQLite
		if b.name == "postgres" {
			fsys = migrations.Postgres
		}
		files, _ := fs.Glob(fsys, "*/*.sql")
		if n != len(files) || n == 0 {
			t.Fatalf("open %d: %d migrations recorded, want %d", i+1, n, len(files))
		}
		if _, err := s.GetAccount(ctx, "a1"); err != nil {
			t.Fatalf("open %d: data lost: %v", i+1, err)
		}
		s.Close()
	}
}

// Jobs stored English language names before 0006_language_codes; that
// migration turns every registry name into its code and leaves "auto",
// "" and codes alone.
func testLanguageNamesMigratedToCodes(t *testing.T, b backend) {
	target := b.target(t)
	s, err := b.open(target)
	if err != nil {
		t.Fatal(err)
	}
	// The languages of the registry when the migration was written (it
	// lists them): jobs of a language added since never stored its name.
	sql, err := fs.ReadFile(migrations.SQLite, "sqlite/0006_language_codes.sql")
	if err != nil {
		t.Fatal(err)
	}
	var all []language.Language
	for _, l := range language.All() {
		if strings.Contains(string(sql), "('"+l.Name+"', '"+l.Code+"')") {
			all = append(all, l)
		}
	}
	if len(all) < 60 {
		t.Fatalf("%d registry languages in the migration, want the 63 it lists", len(all))
	}
	for i, l := range all {
		// Rows as the code before the migration wrote them.
		src, det := "auto", l.Name
		if i%2 == 1 {
			src, det = l.Name, ""
		}
		if _, err := s.w.Exec(s.w.Rebind(`INSERT INTO jobs (id, account_id, status, stage, source_lang, detected_lang, target_lang, created_at, updated_at)
			VALUES (?, 'acc', 'completed', 'finished', ?, ?, ?, ?, ?)`), fmt.Sprintf("old%d", i), src, det, l.Name, ts(t0), ts(t0)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.w.Exec(`INSERT INTO jobs (id, account_id, status, stage, source_lang, detected_lang, target_lang, created_at, updated_at)
		VALUES ('new', 'acc', 'completed', 'finished', 'auto', 'en', 'ar', '` + ts(t0) + `', '` + ts(t0) + `')`); err != nil {
		t.Fatal(err)
	}
	// Forget the migration, as a database made before it would not have it.
	if _, err := s.w.Exec(`DELETE FROM schema_migrations WHERE version = '0006_language_codes'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = b.open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, l := range all {
		j, err := s.GetJob(ctx, fmt.Sprintf("old%d", i))
		if err != nil {
			t.Fatal(err)
		}
		src, det := "auto", l.Code
		if i%2 == 1 {
			src, det = l.Code, ""
		}
		if j.SourceLang != src || j.DetectedLang != det || j.TargetLang != l.Code {
			t.Errorf("%s: source %q detected %q target %q, want %q %q %q", l.Name, j.SourceLang, j.DetectedLang, j.TargetLang, src, det, l.Code)
		}
	}
	j, err := s.GetJob(ctx, "new")
	if err != nil {
		t.Fatal(err)
	}
	if j.SourceLang != "auto" || j.DetectedLang != "en" || j.TargetLang != "ar" {
		t.Errorf("a row with codes changed: %q %q %q", j.SourceLang, j.DetectedLang, j.TargetLang)
	}
}

func testTimeRoundTrip(t *testing.T, b backend) {
	s := newStore(t, b)
	times := []time.Time{
		t0,
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", -7*3600)),
		time.Now(), // has a monotonic reading
	}
	for i, in := range times {
		id := fmt.Sprintf("k%d", i)
		if i == 0 {
			if err := s.CreateAccount(ctx, &account.Account{ID: "acc", Name: "n", PlanName: "free", CreatedAt: in}); err != nil {
				t.Fatal(err)
			}
		}
		revoked := in.Add(time.Hour)
		if err := s.CreateKey(ctx, account.Key{ID: id, AccountID: "acc", Hash: "h" + id, Hint: "dgm_", CreatedAt: in, RevokedAt: &revoked}); err != nil {
			t.Fatal(err)
		}
		k, err := s.KeyByHash(ctx, "h"+id)
		if err != nil {
			t.Fatal(err)
		}
		want := in.UTC().Truncate(time.Microsecond)
		if k.CreatedAt != want || k.CreatedAt.Location() != time.UTC {
			t.Errorf("time %d: got %v, want %v (==, UTC)", i, k.CreatedAt, want)
		}
		if !k.RevokedAt.Equal(revoked) && !k.RevokedAt.Equal(revoked.Truncate(time.Microsecond)) {
			t.Errorf("time %d: revoked %v, want %v", i, k.RevokedAt, revoked)
		}
	}
}

func fullJob(id, acct string, created time.Time) *job.Job {
	j := job.New(id, acct, created)
	j.SourceLang, j.DetectedLang, j.TargetLang = "auto", "en", "he"
	j.Mode, j.OriginalName, j.Format = translation.Literal, "דוח שנתי.docx", "docx"
	j.Words, j.Engine, j.Structure, j.Attempts = 1234, "apertium", "3 tables, 2 images", 2
	j.Warnings = []string{"font Calibri has no Hebrew glyphs", "footnote kept in English"}
	j.RTL = &job.RTLReport{Status: "partial", Warnings: []string{"text box direction"}}
	j.Metrics = job.Metrics{EngineCalls: 3, CharsSent: 9000, CacheHits: 5, Segments: 77}
	j.PDF = job.PDFReady
	return j
}

func testJobRoundTrip(t *testing.T, b backend) {
	s := newStore(t, b)
	j := fullJob("j1", "acc", t0)
	done := t0.Add(90 * time.Second)
	j.CompletedAt, j.ExpiredAt, j.Error = &done, &done, "boom"
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, j) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, j)
	}
	if got.CreatedAt != t0.UTC().Truncate(time.Microsecond) {
		t.Fatalf("created %v", got.CreatedAt)
	}

	// A bare job: nil RTL, no warnings, nil times.
	bare := job.New("j2", "acc", t0)
	if err := s.CreateJob(ctx, bare); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetJob(ctx, "j2")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, bare) {
		t.Fatalf("bare round trip:\n got %+v\nwant %+v", got, bare)
	}

	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err == nil {
		t.Fatal("duplicate id accepted")
	}
	if _, err := s.GetJob(ctx, "nope"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing job: %v", err)
	}
}

func testUpdateJob(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Minute)
	got, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("w1")
		j.RTL = &job.RTLReport{Status: "full", Warnings: []string{}}
		return j.Start(now)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != job.Processing {
		t.Fatalf("status %s", got.Status)
	}
	// A refused transition writes nothing, even changes fn made first.
	_, err = s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("must not be stored")
		return j.Complete(now)
	})
	if err != nil {
		t.Fatal(err) // processing -> completed is allowed
	}
	_, err = s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("must not be stored either")
		j.ID = "hijack"
		return j.Fail("late", now) // completed -> failed is not
	})
	if !errors.Is(err, job.ErrTransition) {
		t.Fatalf("want ErrTransition, got %v", err)
	}
	stored, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != job.Completed || stored.Stage != job.StageFinished || !reflect.DeepEqual(stored.Warnings, []string{"w1", "must not be stored"}) {
		t.Fatalf("stored %+v", stored)
	}
	if stored.CompletedAt == nil || !stored.CompletedAt.Equal(now.Truncate(time.Microsecond)) {
		t.Fatalf("completed at %v", stored.CompletedAt)
	}
	if _, err := s.UpdateJob(ctx, "nope", func(*job.Job) error { return nil }); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing job: %v", err)
	}
}

// testUpdateJobConcurrent: read-modify-write under contention loses no update.
func testUpdateJobConcurrent(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err != nil {
		t.Fatal(err)
	}
	const workers, each = 10, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				_, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error {
					j.Attempts++
					j.Warn(fmt.Sprintf("w%d-%d", w, i))
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	j, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if j.Attempts != workers*each || len(j.Warnings) != workers*each {
		t.Fatalf("attempts %d, warnings %d, want %d", j.Attempts, len(j.Warnings), workers*each)
	}
}

func testJobQueries(t *testing.T, b backend) {
	s := newStore(t, b)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	mk := func(id string, created int, fn func(j *job.Job)) {
		j := job.New(id, "acc", at(created))
		fn(j)
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	complete := func(m int) func(j *job.Job) {
		return func(j *job.Job) { j.Start(at(m)); j.Complete(at(m)) }
	}
	mk("pending", 0, func(*job.Job) {})
	mk("processing", 1, func(j *job.Job) { j.Start(at(1)) })
	mk("done-old", 2, complete(3))
	mk("done-new", 4, complete(20))
	mk("done-expired", 5, func(j *job.Job) { complete(6)(j); e := at(17); j.ExpiredAt = &e })
	mk("failed", 6, func(j *job.Job) { j.Fail("x", at(7)) })

	ids := func(js []*job.Job) []string {
		var out []string
		for _, j := range js {
			out = append(out, j.ID)
		}
		return out
	}
	un, err := s.Unfinished(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(un); !reflect.DeepEqual(got, []string{"pending", "processing"}) {
		t.Fatalf("unfinished %v", got)
	}
	cb, err := s.CompletedBefore(ctx, at(10))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(cb); !reflect.DeepEqual(got, []string{"done-old"}) {
		t.Fatalf("completed before %v", got)
	}
	// Sub-second precision in comparisons: exactly at the time is not before.
	cb, _ = s.CompletedBefore(ctx, at(3))
	if len(cb) != 0 {
		t.Fatalf("completed before its own time: %v", ids(cb))
	}
	cb, _ = s.CompletedBefore(ctx, at(3).Add(time.Microsecond))
	if len(cb) != 1 {
		t.Fatalf("completed 1µs before: %v", ids(cb))
	}
	del, err := s.DeleteJobsBefore(ctx, at(4), func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	sortStrings(del)
	if !reflect.DeepEqual(del, []string{"done-old", "pending", "processing"}) {
		t.Fatalf("deleted %v", del)
	}
	if _, err := s.GetJob(ctx, "pending"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("deleted job still there: %v", err)
	}
	if _, err := s.GetJob(ctx, "done-new"); err != nil {
		t.Fatal(err)
	}
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func TestParseSecretKey(t *testing.T) {
	k, err := ParseSecretKey("  000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n")
	if err != nil || len(k) != 32 || k[31] != 0x1f {
		t.Fatalf("%x %v", k, err)
	}
	for _, bad := range []string{"", "00", "zz02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"} {
		if _, err := ParseSecretKey(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if _, err := OpenSQLite(":memory:"); err == nil {
		t.Error(":memory: accepted")
	}
}
