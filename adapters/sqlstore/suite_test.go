package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
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
