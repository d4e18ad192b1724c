package sqlstore

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
)

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
