package sqlstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
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
