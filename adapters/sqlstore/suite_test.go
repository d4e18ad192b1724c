package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/webhook"
	"github.com/dragoman-translate/dragoman/migrations"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
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
		{"Webhooks", testWebhooks},
		{"RateLimit", testRateLimit},
		{"RateLimitConcurrent", testRateLimitConcurrent},
		{"RateLimitMinuteBoundary", testRateLimitMinuteBoundary},
		{"TranslationMemory", testTranslationMemory},
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
	all := language.All()
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
	j.Mode, j.OriginalName, j.Format = job.Literal, "דוח שנתי.docx", "docx"
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
	del, err := s.DeleteJobsBefore(ctx, at(4))
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

func testAccounts(t *testing.T, b backend) {
	s := newStore(t, b)
	a := &account.Account{ID: "a1", Name: "Acme", PlanName: "free", CreatedAt: t0}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAccount(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, a) {
		t.Fatalf("got %+v want %+v", got, a)
	}
	limit, rpm, docWords, docSegs := int64(5_000_000), 500, int64(2_000_000), int64(300_000)
	got, err = s.UpdateAccount(ctx, "a1", func(a *account.Account) error {
		a.PlanName, a.Suspended = "enterprise", true
		a.LimitWordsOverride, a.RPMOverride = &limit, &rpm
		a.MaxDocWordsOverride, a.MaxDocSegmentsOverride = &docWords, &docSegs
		a.DoNotTranslate = []string{"Dragoman", "ACME Cloud™"}
		a.CreatedAt = time.Time{} // cannot change
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.GetAccount(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stored, got) || !stored.CreatedAt.Equal(norm(t0)) || !stored.Suspended ||
		*stored.LimitWordsOverride != limit || *stored.RPMOverride != rpm || stored.Limits().RequestsPerMinute != rpm ||
		stored.Limits().MaxDocumentWords != docWords || stored.Limits().MaxDocumentSegments != docSegs {
		t.Fatalf("stored %+v, returned %+v", stored, got)
	}
	refuse := errors.New("no")
	if _, err := s.UpdateAccount(ctx, "a1", func(a *account.Account) error { a.Name = "x"; return refuse }); !errors.Is(err, refuse) {
		t.Fatal(err)
	}
	if stored, _ := s.GetAccount(ctx, "a1"); stored.Name != "Acme" {
		t.Fatal("refused update was written")
	}
	if _, err := s.GetAccount(ctx, "nope"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatal(err)
	}
	if _, err := s.UpdateAccount(ctx, "nope", func(*account.Account) error { return nil }); !errors.Is(err, ports.ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.CreateAccount(ctx, &account.Account{ID: "a1", Name: "dup", PlanName: "free", CreatedAt: t0}); err == nil {
		t.Fatal("duplicate account accepted")
	}
}

func testKeys(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateAccount(ctx, &account.Account{ID: "a1", Name: "Acme", PlanName: "pro", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	plain, k, err := account.NewKey("k1", "a1", t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	got, err := s.KeyByHash(ctx, account.HashKey(plain))
	if err != nil {
		t.Fatal(err)
	}
	k.CreatedAt = norm(k.CreatedAt)
	if !reflect.DeepEqual(*got, k) {
		t.Fatalf("got %+v want %+v", *got, k)
	}
	if _, err := s.KeyByHash(ctx, account.HashKey(plain+"x")); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("unknown key: %v", err)
	}
	// Same hash twice is refused; a key of an unknown account too.
	if err := s.CreateKey(ctx, account.Key{ID: "k2", AccountID: "a1", Hash: k.Hash, Hint: "x", CreatedAt: t0}); err == nil {
		t.Fatal("duplicate hash accepted")
	}
	if err := s.CreateKey(ctx, account.Key{ID: "k3", AccountID: "ghost", Hash: "hh", Hint: "x", CreatedAt: t0}); err == nil {
		t.Fatal("key of unknown account accepted")
	}
	revokedAt := t0.Add(time.Hour)
	if err := s.RevokeKey(ctx, "k1", revokedAt); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeKey(ctx, "k1", revokedAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err = s.KeyByHash(ctx, k.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt.Truncate(time.Microsecond)) {
		t.Fatalf("revoked at %v, want the first revocation %v", got.RevokedAt, revokedAt)
	}
	if err := s.RevokeKey(ctx, "nope", revokedAt); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("revoke unknown: %v", err)
	}
	_, k4, _ := account.NewKey("k4", "a1", t0.Add(time.Second))
	if err := s.CreateKey(ctx, k4); err != nil {
		t.Fatal(err)
	}
	keys, err := s.KeysOf(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != "k1" || keys[1].ID != "k4" || keys[0].RevokedAt == nil || keys[1].RevokedAt != nil {
		t.Fatalf("keys %+v", keys)
	}
}

func testUsage(t *testing.T, b backend) {
	s := newStore(t, b)
	used := func(acct, period string) int64 {
		t.Helper()
		n, err := s.Used(ctx, acct, period)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	limit := int64(1000)
	if n := used("a1", "2026-03"); n != 0 {
		t.Fatalf("fresh usage %d", n)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j1", 600, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j1", 600, &limit); err != nil {
		t.Fatalf("second reservation of the same job: %v", err)
	}
	if n := used("a1", "2026-03"); n != 600 {
		t.Fatalf("used %d after an idempotent reserve, want 600", n)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j2", 401, &limit); !errors.Is(err, quota.ErrExceeded) {
		t.Fatalf("over the limit: %v", err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j3", 400, &limit); err != nil {
		t.Fatalf("exactly the limit: %v", err)
	}
	if n := used("a1", "2026-03"); n != 1000 {
		t.Fatalf("used %d, want 1000", n)
	}
	// The refused reservation left nothing behind to release.
	if err := s.Release(ctx, "j2"); err != nil {
		t.Fatal(err)
	}
	if n := used("a1", "2026-03"); n != 1000 {
		t.Fatalf("used %d after releasing a refused job", n)
	}
	// Other periods and accounts are separate.
	if err := s.Reserve(ctx, "a1", "2026-04", "j4", 1000, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a2", "2026-03", "j5", 5_000_000, nil); err != nil {
		t.Fatalf("unlimited: %v", err)
	}
	if err := s.Release(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	if n := used("a1", "2026-03"); n != 400 {
		t.Fatalf("used %d after release (and a repeated one), want 400", n)
	}
	if n := used("a1", "2026-04"); n != 1000 {
		t.Fatalf("other period %d", n)
	}
	if n := used("a2", "2026-03"); n != 5_000_000 {
		t.Fatalf("other account %d", n)
	}
	// Released words can be reserved again, by a new job.
	if err := s.Reserve(ctx, "a1", "2026-03", "j6", 600, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j7", -1, &limit); err == nil {
		t.Fatal("negative words accepted")
	}
}

// testReserveConcurrent: racing reservations never overrun and the sum is exact.
func testReserveConcurrent(t *testing.T, b backend) {
	s := newStore(t, b)
	const workers = 20
	limit := int64(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var granted int64
	var ok, refused int
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			words := int64(37 + w*13) // 37..284: different sizes fill the limit unevenly
			err := s.Reserve(ctx, "a1", "2026-03", fmt.Sprintf("job-%d", w), words, &limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				granted += words
				ok++
			case errors.Is(err, quota.ErrExceeded):
				refused++
			default:
				errs <- err
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n, err := s.Used(ctx, "a1", "2026-03")
	if err != nil {
		t.Fatal(err)
	}
	if n != granted || n > limit || ok == 0 || refused == 0 {
		t.Fatalf("used %d, granted %d (limit %d), %d ok, %d refused", n, granted, limit, ok, refused)
	}
	var reserved int64
	if err := s.r.Get(&reserved, "SELECT COALESCE(SUM(words), 0) FROM usage_reservations"); err != nil {
		t.Fatal(err)
	}
	if reserved != granted {
		t.Fatalf("reservations sum %d, granted %d", reserved, granted)
	}
	// Concurrent releases refund exactly.
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if err := s.Release(ctx, fmt.Sprintf("job-%d", w)); err != nil {
				t.Error(err)
			}
		}(w)
	}
	wg.Wait()
	if n, _ := s.Used(ctx, "a1", "2026-03"); n != 0 {
		t.Fatalf("used %d after releasing everything", n)
	}
}

func testWebhooks(t *testing.T, b backend) {
	s := newStore(t, b)
	secret := "5f1d3c0a9e8b7a6f5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a291807f6e"
	w := &webhook.Webhook{AccountID: "a1", URL: "https://example.com/hook", Events: []string{"job.completed", "job.failed"}, Secret: secret, Active: true}
	if err := s.CreateWebhook(ctx, w); !errors.Is(err, ErrNoSecretKey) {
		t.Fatalf("without a server key: %v", err)
	}
	if err := s.SetSecretKey([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
	key := []byte("0123456789abcdef0123456789abcdef")
	if err := s.SetSecretKey(key); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	if w.ID == "" || w.CreatedAt.IsZero() {
		t.Fatalf("id/created not filled: %+v", w)
	}
	w2 := &webhook.Webhook{ID: "w2", AccountID: "a1", URL: "https://example.org/x", Events: []string{"job.failed"}, Secret: "other", CreatedAt: w.CreatedAt.Add(time.Second)}
	if err := s.CreateWebhook(ctx, w2); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWebhook(ctx, &webhook.Webhook{ID: "w3", AccountID: "a2", URL: "https://b", Secret: "s", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListWebhooks(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || !reflect.DeepEqual(list[0], w) || !reflect.DeepEqual(list[1], w2) {
		t.Fatalf("list %+v %+v", list[0], list[1])
	}
	// At rest the secret is neither visible nor movable between rows.
	var raw []byte
	if err := s.r.Get(&raw, s.r.Rebind("SELECT secret_enc FROM webhooks WHERE id = ?"), w.ID); err != nil {
		t.Fatal(err)
	}
	if len(raw) == 0 || bytesContains(raw, []byte(secret)) || bytesContains(raw, []byte(secret[:16])) {
		t.Fatal("secret stored in the clear")
	}
	if _, err := s.w.Exec(s.w.Rebind("UPDATE webhooks SET secret_enc = ? WHERE id = ?"), raw, "w2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListWebhooks(ctx, "a1"); err == nil {
		t.Fatal("a secret copied to another webhook decrypted")
	}
	if err := s.SetSecretKey([]byte("ffffffffffffffffffffffffffffffff")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListWebhooks(ctx, "a2"); err == nil {
		t.Fatal("decrypted with the wrong server key")
	}
	if list, err := s.ListWebhooks(ctx, "nobody"); err != nil || len(list) != 0 {
		t.Fatalf("empty list: %v %v", list, err)
	}
}

func bytesContains(b, sub []byte) bool {
	for i := 0; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == string(sub) {
			return true
		}
	}
	return false
}

func testRateLimit(t *testing.T, b backend) {
	s := newStore(t, b)
	clock := &fakeClock{}
	s.SetClock(clock)
	t1 := time.Date(2026, 3, 14, 15, 9, 20, 250_000_000, time.UTC)
	for i := 0; i < 3; i++ {
		clock.Set(t1.Add(time.Duration(i) * time.Second))
		ok, _, err := s.Allow(ctx, "acct:a1", 3)
		if err != nil || !ok {
			t.Fatalf("request %d: ok=%v err=%v", i+1, ok, err)
		}
	}
	clock.Set(t1.Add(10 * time.Second))
	ok, retry, err := s.Allow(ctx, "acct:a1", 3)
	if err != nil || ok {
		t.Fatalf("4th request passed: %v", err)
	}
	if retry != 50*time.Second {
		t.Fatalf("retryAfter %v, want 50s (until the first request leaves the window)", retry)
	}
	// Another key has its own count; unlimited counts nothing.
	if ok, _, _ := s.Allow(ctx, "acct:a2", 3); !ok {
		t.Fatal("other key limited")
	}
	if ok, _, _ := s.Allow(ctx, "acct:a1", 0); !ok {
		t.Fatal("limit 0 (unlimited) refused")
	}
	// The last instant the first request is in the window it still counts.
	clock.Set(t1.Add(time.Minute - time.Microsecond))
	if ok, retry, _ := s.Allow(ctx, "acct:a1", 3); ok || retry != time.Microsecond {
		t.Fatalf("end of window: ok=%v retry=%v", ok, retry)
	}
	clock.Set(t1.Add(time.Minute))
	if ok, _, _ := s.Allow(ctx, "acct:a1", 3); !ok {
		t.Fatal("first request left the window, still limited")
	}
	// The second and third still count: the window is full again, until
	// the second leaves it.
	if ok, retry, _ := s.Allow(ctx, "acct:a1", 3); ok || retry != time.Second {
		t.Fatalf("ok=%v retry=%v, want refused for 1s", ok, retry)
	}
	// Two windows later the old requests are pruned.
	clock.Set(t1.Add(3 * time.Minute))
	if ok, _, _ := s.Allow(ctx, "acct:a1", 3); !ok {
		t.Fatal("third window limited")
	}
	var old int
	if err := s.r.Get(&old, s.r.Rebind("SELECT COUNT(*) FROM rate_limit_hits WHERE at < ?"), t1.Add(2*time.Minute).UnixMicro()); err != nil {
		t.Fatal(err)
	}
	if old != 0 {
		t.Fatalf("%d rows of old requests kept", old)
	}
}

// testRateLimitMinuteBoundary: a free account (10 requests a minute) that
// sends 10 requests just before a minute boundary and 10 just after gets
// exactly 10 through (a window fixed to the clock let all 20 pass in 2 s),
// and any 60 s span lets at most 10 through.
func testRateLimitMinuteBoundary(t *testing.T, b backend) {
	s := newStore(t, b)
	clock := &fakeClock{}
	s.SetClock(clock)
	const limit = 10 // the free plan
	boundary := time.Date(2026, 3, 14, 15, 10, 0, 0, time.UTC)
	var passed []time.Time
	send := func(at time.Time) (bool, time.Duration) {
		clock.Set(at)
		ok, retry, err := s.Allow(ctx, "rpm:free", limit)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			passed = append(passed, at)
		}
		return ok, retry
	}
	for i := 0; i < 20; i++ { // 10 per second from 1 s before the boundary
		send(boundary.Add(-time.Second + time.Duration(i)*100*time.Millisecond))
	}
	if len(passed) != limit {
		t.Fatalf("%d of 20 requests in 2 s across a minute boundary passed, want exactly %d", len(passed), limit)
	}
	// Retry-After is exact: the first request leaves the window 60 s after
	// it was let through, and not a microsecond earlier.
	first := boundary.Add(-time.Second)
	ok, retry := send(boundary.Add(900 * time.Millisecond))
	if ok || retry != first.Add(time.Minute).Sub(boundary.Add(900*time.Millisecond)) {
		t.Fatalf("ok=%v retryAfter=%v, want refused for %v", ok, retry, first.Add(time.Minute).Sub(boundary.Add(900*time.Millisecond)))
	}
	if ok, _ := send(first.Add(time.Minute - time.Microsecond)); ok {
		t.Fatal("passed before the oldest request left the window")
	}
	if ok, _ := send(first.Add(time.Minute)); !ok {
		t.Fatal("refused once the oldest request left the window")
	}
	// A steady stream for three minutes, one request every 1.7 s: no 60 s
	// span holds more than limit passed requests.
	for at := first.Add(time.Minute + time.Second); at.Before(boundary.Add(4 * time.Minute)); at = at.Add(1700 * time.Millisecond) {
		send(at)
	}
	for i := range passed {
		n := 0
		for _, p := range passed[i:] {
			if p.Sub(passed[i]) < time.Minute {
				n++
			}
		}
		if n > limit {
			t.Fatalf("%d requests passed in the minute from %v", n, passed[i])
		}
	}
}

// testRateLimitConcurrent: exactly limit requests pass per window, across
// two Store instances (two processes' pools) on one database.
func testRateLimitConcurrent(t *testing.T, b backend) {
	target := b.target(t)
	var stores []*Store
	for i := 0; i < 2; i++ {
		s, err := b.open(target)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	const limit, requests = 10, 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	var maxRetry time.Duration
	for i := 0; i < requests; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ok, retry, err := stores[i%2].Allow(ctx, "key:shared", limit)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if ok {
				passed++
			} else if retry <= 0 || retry > time.Minute {
				t.Errorf("retryAfter %v", retry)
			}
			maxRetry = max(maxRetry, retry)
		}(i)
	}
	wg.Wait()
	// The window slides: exactly limit pass, even across a minute boundary.
	if passed != limit {
		t.Fatalf("%d passed, want exactly %d", passed, limit)
	}
}

func testTranslationMemory(t *testing.T, b backend) {
	s := newStore(t, b)
	entries := map[string]string{}
	var hashes []string
	for i := 0; i < 450; i++ { // more than one chunk
		h := fmt.Sprintf("h%04d", i)
		entries[h] = fmt.Sprintf("שלום %d", i)
		hashes = append(hashes, h)
	}
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", entries); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTM(ctx, "apertium", "full", "en", "he", append(hashes, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatalf("got %d entries, want %d", len(got), len(entries))
	}
	// Keys are scoped by engine, mode and direction; a put overwrites.
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", map[string]string{"h0001": "new"}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTM(ctx, "apertium", "full", "en", "he", []string{"h0001", "h0002"})
	if got["h0001"] != "new" || got["h0002"] != "שלום 2" {
		t.Fatalf("overwrite: %v", got)
	}
	for _, other := range [][4]string{{"deepl", "full", "en", "he"}, {"apertium", "literal", "en", "he"}, {"apertium", "full", "en", "ar"}} {
		got, err := s.GetTM(ctx, other[0], other[1], other[2], other[3], hashes[:5])
		if err != nil || len(got) != 0 {
			t.Fatalf("%v: %v %v", other, got, err)
		}
	}
	if got, err := s.GetTM(ctx, "apertium", "full", "en", "he", nil); err != nil || len(got) != 0 {
		t.Fatalf("no hashes: %v %v", got, err)
	}
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", nil); err != nil {
		t.Fatal(err)
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
