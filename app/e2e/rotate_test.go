package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// TestRotateSecretKey re-encrypts webhook secrets under a new server key:
// after the rotation the server runs with the new key only and deliveries
// are still signed with the secret the receiver was given.
func TestRotateSecretKey(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"})
	_, key, _ := s.account("pro")
	reg := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/h","events":["job.completed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("%d %s", reg.status, reg.body)
	}
	w := reg.json(t)
	s.stop()

	old, err := os.ReadFile(filepath.Join(s.dataDir, "secret.key"))
	if err != nil {
		t.Fatal(err)
	}
	newKey := strings.Repeat("ab", 32)
	out := s.admin("rotate-secret-key", "--old-key", strings.TrimSpace(string(old)), "--secret-key", newKey)
	if out["reencrypted"].(float64) != 1 {
		t.Fatalf("rotate: %v", out)
	}
	if err := os.Remove(filepath.Join(s.dataDir, "secret.key")); err != nil {
		t.Fatal(err)
	}
	s.args = append(s.args, "--secret-key", newKey)
	s.start()
	if r := s.do("POST", "/v1/webhooks/"+w["id"].(string)+"/test", key, nil, ""); r.status != 202 {
		t.Fatalf("test ping: %d %s", r.status, r.body)
	}
	got := rcv.wait(t, 1, 20*time.Second)
	if err := signature.Verify(w["secret"].(string), got[0].body, got[0].sig); err != nil {
		t.Errorf("after rotation the delivery is not signed with the original secret: %v", err)
	}
}
