package sqlstore

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

func TestDeliveriesSQLite(t *testing.T) { runDeliverySuite(t, sqliteBackend) }

func TestDeliveriesPostgres(t *testing.T) { runDeliverySuite(t, postgresBackend(t)) }

func runDeliverySuite(t *testing.T, b backend) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, b backend)
	}{
		{"ManageWebhooks", testManageWebhooks},
		{"EnqueueOncePerEvent", testEnqueueOncePerEvent},
		{"ClaimFinishRetry", testClaimFinishRetry},
		{"LeaseExpiry", testLeaseExpiry},
		{"InactiveCancelled", testInactiveCancelled},
		{"ConcurrentClaims", testConcurrentClaims},
		{"ReencryptSecrets", testReencryptSecrets},
		{"Prune", testPruneDeliveries},
		{"NextDue", testNextDeliveryDue},
		{"PileHidesNoOther", testPileHidesNoOther},
		{"ManyWebhooksHideNoOtherAccount", testManyWebhooksHideNoOtherAccount},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, b) })
	}
}

var testKey = []byte("0123456789abcdef0123456789abcdef")

func keyedStore(t *testing.T, b backend) *Store {
	s := newStore(t, b)
	if err := s.SetSecretKey(testKey); err != nil {
		t.Fatal(err)
	}
	return s
}

func addHook(t *testing.T, s *Store, id, acct string) *webhook.Webhook {
	t.Helper()
	w := &webhook.Webhook{ID: id, AccountID: acct, URL: "https://example.com/" + id, Events: []string{"job.completed"},
		Secret: "secret-of-" + id, Active: true, CreatedAt: t0}
	if err := s.CreateWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	return w
}

func enqueue(t *testing.T, s *Store, id, hook, event string, at time.Time) bool {
	t.Helper()
	ok, err := s.EnqueueDelivery(ctx, &webhook.Delivery{ID: id, WebhookID: hook, AccountID: "a1", EventID: event,
		Event: "job.completed", Payload: []byte(`{"id":"` + event + `"}`), CreatedAt: at})
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func claim(t *testing.T, s *Store, now time.Time, max int) []*webhook.Claim {
	t.Helper()
	c, err := s.ClaimDeliveries(ctx, now, time.Minute, max, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testManageWebhooks(t *testing.T, b backend) {
	s := keyedStore(t, b)
	w := addHook(t, s, "w1", "a1")
	got, err := s.GetWebhook(ctx, "w1")
	if err != nil || got.Secret != w.Secret || got.URL != w.URL || !got.CreatedAt.Equal(norm(t0)) {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := s.GetWebhook(ctx, "nope"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing webhook: %v", err)
	}
	up, err := s.UpdateWebhook(ctx, "w1", func(w *webhook.Webhook) error {
		w.URL, w.Events, w.Active = "https://example.org/new", []string{"job.failed"}, false
		w.Secret, w.AccountID = "stolen", "a2" // ignored
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetWebhook(ctx, "w1")
	if got.URL != "https://example.org/new" || got.Active || len(got.Events) != 1 || got.Events[0] != "job.failed" ||
		got.Secret != w.Secret || got.AccountID != "a1" || up.Secret != w.Secret {
		t.Fatalf("after update: %+v", got)
	}
	refuse := errors.New("no")
	if _, err := s.UpdateWebhook(ctx, "w1", func(*webhook.Webhook) error { return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("refused update: %v", err)
	}
	if _, err := s.UpdateWebhook(ctx, "nope", func(*webhook.Webhook) error { return nil }); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("update missing: %v", err)
	}
	enqueue(t, s, "d1", "w1", "e1", t0)
	if _, err := s.UpdateWebhook(ctx, "w1", func(w *webhook.Webhook) error { w.Active = true; return nil }); err != nil {
		t.Fatal(err)
	}
	c := claim(t, s, t0, 10)
	if len(c) != 1 {
		t.Fatalf("claimed %d", len(c))
	}
	if err := s.DeleteWebhook(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteWebhook(ctx, "w1"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	var n int
	if err := s.r.Get(&n, "SELECT (SELECT COUNT(*) FROM webhook_deliveries) + (SELECT COUNT(*) FROM webhook_attempts)"); err != nil || n != 0 {
		t.Fatalf("deliveries or history left after delete: %d %v", n, err)
	}
}

func testEnqueueOncePerEvent(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	addHook(t, s, "w2", "a1")
	if !enqueue(t, s, "d1", "w1", "e1", t0) {
		t.Fatal("first enqueue not added")
	}
	if enqueue(t, s, "d2", "w1", "e1", t0) {
		t.Fatal("the same event was queued twice for one webhook")
	}
	if !enqueue(t, s, "d3", "w2", "e1", t0) {
		t.Fatal("the event was not queued for a second webhook")
	}
	if _, err := s.EnqueueDelivery(ctx, &webhook.Delivery{ID: "d4", WebhookID: "gone", EventID: "e1", Payload: []byte("{}")}); err == nil {
		t.Fatal("queued for a webhook that does not exist")
	}
}

func testClaimFinishRetry(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	enqueue(t, s, "d1", "w1", "e1", t0)
	if c := claim(t, s, t0.Add(-time.Second), 10); len(c) != 0 {
		t.Fatal("claimed before it was due")
	}
	c := claim(t, s, t0, 10)
	if len(c) != 1 || c[0].Attempt != 1 || c[0].Secret != "secret-of-w1" || c[0].URL != "https://example.com/w1" ||
		string(c[0].Delivery.Payload) != `{"id":"e1"}` || c[0].Delivery.EventID != "e1" {
		t.Fatalf("claim %+v", c)
	}
	if again := claim(t, s, t0.Add(30*time.Second), 10); len(again) != 0 {
		t.Fatal("an attempt in flight was claimed again")
	}
	hist, _ := s.ListAttempts(ctx, "w1", 10)
	if len(hist) != 1 || hist[0].State != webhook.AttemptInProgress {
		t.Fatalf("history while in flight: %+v", hist)
	}
	next := norm(t0.Add(2 * time.Second))
	if err := s.FinishAttempt(ctx, c[0], webhook.AttemptResult{StatusCode: 500, Latency: 1500 * time.Microsecond, Error: "the receiver answered 500"}, &next); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishAttempt(ctx, c[0], webhook.AttemptResult{OK: true}, nil); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Fatalf("finishing twice: %v", err)
	}
	if c := claim(t, s, next.Add(-time.Millisecond), 10); len(c) != 0 {
		t.Fatal("retry claimed before its delay")
	}
	c2 := claim(t, s, next, 10)
	if len(c2) != 1 || c2[0].Attempt != 2 {
		t.Fatalf("retry claim %+v", c2)
	}
	if err := s.FinishAttempt(ctx, c2[0], webhook.AttemptResult{OK: true, StatusCode: 204, Latency: time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	if c := claim(t, s, next.Add(time.Hour), 10); len(c) != 0 {
		t.Fatal("a delivered event was claimed again")
	}
	hist, err := s.ListAttempts(ctx, "w1", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []webhook.Attempt{
		{DeliveryID: "d1", WebhookID: "w1", EventID: "e1", Event: "job.completed", Attempt: 2, At: next, State: webhook.AttemptSucceeded, StatusCode: 204, Latency: time.Millisecond},
		{DeliveryID: "d1", WebhookID: "w1", EventID: "e1", Event: "job.completed", Attempt: 1, At: norm(t0), State: webhook.AttemptFailed, StatusCode: 500, Latency: 1500 * time.Microsecond, Error: "the receiver answered 500"},
	}
	if len(hist) != 2 {
		t.Fatalf("history %+v", hist)
	}
	for i := range want {
		if !hist[i].At.Equal(want[i].At) {
			t.Errorf("attempt %d at %v, want %v", hist[i].Attempt, hist[i].At, want[i].At)
		}
		hist[i].At = want[i].At
		if hist[i] != want[i] {
			t.Errorf("history[%d] = %+v\nwant %+v", i, hist[i], want[i])
		}
	}
}

// A worker that dies mid-attempt never sends that attempt again: after the
// lease the next worker records it as interrupted and sends the next one.
func testLeaseExpiry(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	enqueue(t, s, "d1", "w1", "e1", t0)
	var last *webhook.Claim
	for i := 1; i <= 3; i++ {
		c := claim(t, s, t0.Add(time.Duration(i-1)*time.Minute), 10)
		if len(c) != 1 || c[0].Attempt != i {
			t.Fatalf("after %d abandoned claims: %+v", i-1, c)
		}
		last = c[0]
	}
	if c := claim(t, s, t0.Add(3*time.Minute), 10); len(c) != 0 {
		t.Fatalf("a fourth attempt was handed out: %+v", c[0])
	}
	if err := s.FinishAttempt(ctx, last, webhook.AttemptResult{OK: true}, nil); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Fatalf("finishing an expired claim: %v", err)
	}
	hist, _ := s.ListAttempts(ctx, "w1", 10)
	if len(hist) != 3 {
		t.Fatalf("history %+v", hist)
	}
	for _, h := range hist {
		if h.State != webhook.AttemptFailed || h.Error != errInterrupted {
			t.Errorf("attempt %d: %s %q", h.Attempt, h.State, h.Error)
		}
	}
	var state string
	if err := s.r.Get(&state, "SELECT state FROM webhook_deliveries WHERE id = 'd1'"); err != nil || state != deliveryFailed {
		t.Fatalf("state %q %v", state, err)
	}
}

func testInactiveCancelled(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	enqueue(t, s, "d1", "w1", "e1", t0)
	if _, err := s.UpdateWebhook(ctx, "w1", func(w *webhook.Webhook) error { w.Active = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if c := claim(t, s, t0, 10); len(c) != 0 {
		t.Fatal("a delivery to an inactive webhook was claimed")
	}
	var state string
	if err := s.r.Get(&state, "SELECT state FROM webhook_deliveries WHERE id = 'd1'"); err != nil || state != deliveryCancelled {
		t.Fatalf("state %q %v", state, err)
	}
}

// Two stores on one database (two processes) claiming at once hand out
// every attempt exactly once.
func testConcurrentClaims(t *testing.T, b backend) {
	target := b.target(t)
	var stores []*Store
	for i := 0; i < 2; i++ {
		s, err := b.open(target)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.SetSecretKey(testKey); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	addHook(t, stores[0], "w1", "a1")
	const n = 60
	for i := 0; i < n; i++ {
		enqueue(t, stores[0], fmt.Sprintf("d%02d", i), "w1", fmt.Sprintf("e%02d", i), t0)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(s *Store) {
			defer wg.Done()
			for {
				c, err := s.ClaimDeliveries(ctx, t0, time.Minute, 3, 3, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if len(c) == 0 {
					return
				}
				for _, cl := range c {
					mu.Lock()
					seen[fmt.Sprintf("%s/%d", cl.Delivery.ID, cl.Attempt)]++
					mu.Unlock()
					if err := s.FinishAttempt(ctx, cl, webhook.AttemptResult{OK: true, StatusCode: 200}, nil); err != nil {
						t.Error(err)
					}
				}
			}
		}(stores[w%2])
	}
	wg.Wait()
	if len(seen) != n {
		t.Fatalf("%d of %d deliveries claimed", len(seen), n)
	}
	for k, v := range seen {
		if v != 1 || k[len(k)-2:] != "/1" {
			t.Fatalf("%s claimed %d times", k, v)
		}
	}
}

func testReencryptSecrets(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	addHook(t, s, "w2", "a1")
	newKey := []byte("fedcba9876543210fedcba9876543210")
	if err := s.SetSecretKey(newKey); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetWebhook(ctx, "w1"); err == nil {
		t.Fatal("opened with the new key before rotation")
	}
	n, err := s.ReencryptSecrets(ctx, testKey)
	if err != nil || n != 2 {
		t.Fatalf("rotated %d: %v", n, err)
	}
	if n, err := s.ReencryptSecrets(ctx, testKey); err != nil || n != 0 {
		t.Fatalf("second rotation rotated %d: %v", n, err)
	}
	w, err := s.GetWebhook(ctx, "w2")
	if err != nil || w.Secret != "secret-of-w2" {
		t.Fatalf("after rotation: %+v %v", w, err)
	}
}

func testPruneDeliveries(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "w1", "a1")
	enqueue(t, s, "d1", "w1", "e1", t0)
	enqueue(t, s, "d2", "w1", "e2", t0.Add(time.Hour))
	enqueue(t, s, "d3", "w1", "e3", t0) // left in flight, so still pending: kept
	for _, c := range claim(t, s, t0.Add(time.Hour), 10) {
		if c.Delivery.ID == "d3" {
			continue
		}
		if err := s.FinishAttempt(ctx, c, webhook.AttemptResult{OK: true}, nil); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.PruneDeliveries(ctx, t0.Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d: %v", n, err)
	}
	hist, _ := s.ListAttempts(ctx, "w1", 10)
	if len(hist) != 2 || hist[0].EventID != "e2" || hist[1].EventID != "e3" {
		t.Fatalf("history after prune: %+v", hist)
	}
}

// The worker sleeps until the next pending attempt is due: nothing pending,
// the earliest of several, a retry's time once the first attempt failed.
func testNextDeliveryDue(t *testing.T, b backend) {
	s := keyedStore(t, b)
	due := func() (time.Time, bool) {
		t.Helper()
		at, ok, err := s.NextDeliveryDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return at, ok
	}
	if _, ok := due(); ok {
		t.Fatal("an empty queue has something due")
	}
	addHook(t, s, "w1", "a1")
	enqueue(t, s, "d2", "w1", "e2", t0.Add(time.Second))
	enqueue(t, s, "d1", "w1", "e1", t0)
	if at, ok := due(); !ok || !at.Equal(norm(t0)) {
		t.Fatalf("next due %v %v, want %v", at, ok, norm(t0))
	}
	c := claim(t, s, t0.Add(time.Second), 10)
	if len(c) != 2 {
		t.Fatalf("%d claimed", len(c))
	}
	retry := norm(t0.Add(3 * time.Second))
	if err := s.FinishAttempt(ctx, c[0], webhook.AttemptResult{StatusCode: 500}, &retry); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishAttempt(ctx, c[1], webhook.AttemptResult{OK: true, StatusCode: 200}, nil); err != nil {
		t.Fatal(err)
	}
	if at, ok := due(); !ok || !at.Equal(retry) {
		t.Fatalf("next due %v %v, want the retry at %v", at, ok, retry)
	}
}

// issue 26: a webhook with a pile of due deliveries (its receiver hangs)
// hides no other's: a claim looks at a few of each webhook's, and takes
// only what admit lets through, leaving the rest due.
func testPileHidesNoOther(t *testing.T, b backend) {
	s := keyedStore(t, b)
	addHook(t, s, "pile", "a1")
	addHook(t, s, "other", "a2")
	for i := range 30 {
		enqueue(t, s, fmt.Sprintf("p%02d", i), "pile", fmt.Sprintf("pe%02d", i), t0.Add(time.Duration(i)*time.Millisecond))
	}
	enqueue(t, s, "o1", "other", "oe1", t0.Add(time.Second))
	admitted := map[string]int{}
	admit := func(_, url string) bool {
		if strings.HasSuffix(url, "/pile") && admitted[url] == 1 {
			return false
		}
		admitted[url]++
		return true
	}
	got, err := s.ClaimDeliveries(ctx, t0.Add(2*time.Second), time.Minute, 3, 3, admit)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.Delivery.ID)
	}
	if len(ids) != 2 || ids[0] != "p00" || ids[1] != "o1" {
		t.Fatalf("claimed %v, want p00 (the pile's one admitted) and o1", ids)
	}
}
