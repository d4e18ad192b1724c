package httpapi

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/webhook"
	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/service"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now().UTC() }

// webhookEnv is the API over a real SQLite store, served on loopback.
type webhookEnv struct {
	t      *testing.T
	srv    *httptest.Server
	store  *sqlstore.Store
	keys   map[string]string // account → API key
	client *http.Client
}

func newWebhookEnv(t *testing.T, allowPrivate bool) *webhookEnv {
	st, err := sqlstore.OpenSQLite(filepath.Join(t.TempDir(), "dragoman.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.SetSecretKey([]byte("0123456789abcdef0123456789abcdef")); err != nil {
		t.Fatal(err)
	}
	cfg := service.DefaultConfig
	cfg.AllowPrivateURLs = allowPrivate
	svc := testPorts{config: cfg, store: st}.useCases()
	e := &webhookEnv{t: t, store: st, keys: map[string]string{}, client: http.DefaultClient}
	for _, id := range []string{"alice", "bob"} {
		if err := st.CreateAccount(bg, &account.Account{ID: id, Name: id, PlanName: "pro", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		plain, k, err := account.NewKey(uuid.NewString(), id, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateKey(bg, k); err != nil {
			t.Fatal(err)
		}
		e.keys[id] = plain
	}
	e.srv = httptest.NewServer(New(svc, nil).Handler())
	t.Cleanup(e.srv.Close)
	return e
}

// do sends a request as acct and decodes a JSON answer into out.
func (e *webhookEnv) do(acct, method, path string, body any, out any) int {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, r)
	req.Header.Set("X-API-Key", e.keys[acct])
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return resp.StatusCode
}

var bg = httptest.NewRequest("GET", "/", nil).Context()

// The management endpoints work end to end under /v1 and /api, never show
// the secret again, hide other accounts' webhooks, and a test ping reaches
// a real HTTPS receiver signed and shows in the history.
func TestWebhookManagementEndToEnd(t *testing.T) {
	e := newWebhookEnv(t, true)
	pings := make(chan *http.Request, 4)
	bodies := make(chan []byte, 4)
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- b
		pings <- r
	}))
	defer recv.Close()

	var reg WebhookRegistration
	if code := e.do("alice", "POST", "/api/webhooks", map[string]any{"url": recv.URL + "/hook", "events": []string{"job.completed"}}, &reg); code != 201 {
		t.Fatalf("register: %d", code)
	}
	if len(reg.Secret) != 64 || strings.Trim(reg.Secret, "0123456789abcdef") != "" || !reg.IsActive || reg.ID == "" {
		t.Fatalf("registration %+v", reg)
	}
	for _, base := range []string{"/v1/webhooks", "/api/webhooks"} {
		var list WebhookList
		if code := e.do("alice", "GET", base, nil, &list); code != 200 || len(list.Webhooks) != 1 || list.Webhooks[0].ID != reg.ID {
			t.Fatalf("list %s: %d %+v", base, code, list)
		}
		var raw map[string]any
		if code := e.do("alice", "GET", base+"/"+reg.ID, nil, &raw); code != 200 || raw["url"] != recv.URL+"/hook" {
			t.Fatalf("get %s: %d %v", base, code, raw)
		}
		if _, ok := raw["secret"]; ok {
			t.Fatal("the secret was shown again")
		}
		for _, p := range []string{"", "/deliveries"} {
			if code := e.do("bob", "GET", base+"/"+reg.ID+p, nil, nil); code != 404 {
				t.Fatalf("bob reads alice's webhook%s: %d", p, code)
			}
		}
		for _, m := range []string{"PATCH", "DELETE"} {
			if code := e.do("bob", m, base+"/"+reg.ID, map[string]any{"is_active": false}, nil); code != 404 {
				t.Fatalf("bob %s alice's webhook: %d", m, code)
			}
		}
		if code := e.do("bob", "POST", base+"/"+reg.ID+"/test", nil, nil); code != 404 {
			t.Fatalf("bob pings alice's webhook: %d", code)
		}
	}

	var up Webhook
	if code := e.do("alice", "PATCH", "/v1/webhooks/"+reg.ID, map[string]any{"events": []string{"job.failed", "job.completed"}}, &up); code != 200 ||
		len(up.Events) != 2 || up.URL != reg.URL || !up.IsActive {
		t.Fatalf("update events: %d %+v", code, up)
	}
	if code := e.do("alice", "PATCH", "/v1/webhooks/"+reg.ID, map[string]any{"url": "ftp://x"}, nil); code != 422 {
		t.Fatalf("bad url: %d", code)
	}
	if code := e.do("alice", "PATCH", "/v1/webhooks/"+reg.ID, map[string]any{"is_active": false}, &up); code != 200 || up.IsActive {
		t.Fatalf("deactivate: %d %+v", code, up)
	}
	if code := e.do("alice", "POST", "/v1/webhooks/"+reg.ID+"/test", nil, nil); code != 422 {
		t.Fatalf("ping to an inactive webhook: %d", code)
	}
	e.do("alice", "PATCH", "/api/webhooks/"+reg.ID, map[string]any{"is_active": true}, &up)

	var ping WebhookTest
	if code := e.do("alice", "POST", "/api/webhooks/"+reg.ID+"/test", nil, &ping); code != 202 || ping.Event != "webhook.test" {
		t.Fatalf("ping: %d %+v", code, ping)
	}
	pool := x509.NewCertPool()
	pool.AddCert(recv.Certificate())
	w := webhook.NewWorker(e.store, webhook.Config{AllowPrivate: true, TLS: &tls.Config{RootCAs: pool}, PollInterval: 10 * time.Millisecond}, wallClock{}, nil)
	w.Start()
	defer w.Stop(bg)
	var r *http.Request
	var body []byte
	select {
	case r = <-pings:
		body = <-bodies
	case <-time.After(10 * time.Second):
		t.Fatal("the test ping never arrived")
	}
	if err := signature.Verify(reg.Secret, body, r.Header.Get("X-Webhook-Signature")); err != nil {
		t.Fatal(err)
	}
	var payload struct {
		ID, Event, Timestamp string
		Data                 corewebhook.TestEventData
	}
	if err := json.Unmarshal(body, &payload); err != nil || payload.ID != ping.EventID || payload.Event != "webhook.test" ||
		payload.Data.WebhookID != reg.ID || payload.Data.UserID != "alice" || len(payload.Timestamp) != len("2026-11-21T06:12:49.270Z") {
		t.Fatalf("ping payload %s (%v)", body, err)
	}
	var hist WebhookDeliveries
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.do("alice", "GET", "/v1/webhooks/"+reg.ID+"/deliveries", nil, &hist)
		if len(hist.Deliveries) == 1 && hist.Deliveries[0].State == "succeeded" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("history %+v", hist)
		}
		time.Sleep(10 * time.Millisecond)
	}
	d := hist.Deliveries[0]
	if d.EventID != ping.EventID || d.Attempt != 1 || d.ResponseStatus == nil || *d.ResponseStatus != 200 || d.Error != nil || d.Event != "webhook.test" {
		t.Fatalf("history line %+v", d)
	}

	if code := e.do("alice", "DELETE", "/v1/webhooks/"+reg.ID, nil, nil); code != 204 {
		t.Fatalf("delete: %d", code)
	}
	if code := e.do("alice", "GET", "/api/webhooks/"+reg.ID, nil, nil); code != 404 {
		t.Fatalf("after delete: %d", code)
	}
	if code := e.do("alice", "DELETE", "/api/webhooks/"+reg.ID, nil, nil); code != 404 {
		t.Fatalf("second delete: %d", code)
	}
}

// Without --allow-private-urls, plain http and addresses inside the
// network are refused at registration.
func TestWebhookRegistrationRefusesPrivateURLs(t *testing.T) {
	e := newWebhookEnv(t, false)
	for _, u := range []string{"http://example.com/h", "https://127.0.0.1/h", "https://localhost:8443/h", "https://[::1]/h",
		"https://10.1.2.3/h", "https://169.254.169.254/latest", "https://user:pw@example.com/h"} {
		if code := e.do("alice", "POST", "/v1/webhooks", map[string]any{"url": u, "events": []string{"job.failed"}}, nil); code != 422 {
			t.Errorf("%s: %d", u, code)
		}
	}
	if code := e.do("alice", "POST", "/v1/webhooks", map[string]any{"url": "https://example.com/h", "events": []string{"job.failed"}}, nil); code != 201 {
		t.Fatalf("public https: %d", code)
	}
}
