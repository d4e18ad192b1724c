package sqlstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

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
