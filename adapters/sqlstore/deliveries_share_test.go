package sqlstore

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// issue 26, webhooks per destination: an account with many webhooks
// whose receivers hang piles up due deliveries, all older than another
// account's. A claim looks at a window of the due deliveries; the pile
// must not fill it, or the other account's delivery is never looked at
// while the pile's are held back (admit refuses them), and waits for
// every first attempt to the hanging receivers to time out.
func testManyWebhooksHideNoOtherAccount(t *testing.T, b backend) {
	s := keyedStore(t, b)
	for h := range 40 {
		hook := fmt.Sprintf("pile%02d", h)
		addHook(t, s, hook, "a1")
		for i := range 4 {
			at := t0.Add(time.Duration(h*4+i) * time.Millisecond)
			enqueueFor(t, s, "a1", fmt.Sprintf("p%02d-%d", h, i), hook, fmt.Sprintf("pe%02d-%d", h, i), at)
		}
	}
	addHook(t, s, "other", "a2")
	enqueueFor(t, s, "a2", "o1", "other", "oe1", t0.Add(time.Second))
	admit := func(account, _ string) bool { return account != "a1" } // a1's receivers all hang
	got, err := s.ClaimDeliveries(ctx, t0.Add(2*time.Second), time.Minute, 3, 3, admit)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.Delivery.ID)
	}
	if strings.Join(ids, ",") != "o1" {
		t.Fatalf("claimed %v, want o1: 160 held-back deliveries of another account hid it", ids)
	}
}

func enqueueFor(t *testing.T, s *Store, account, id, hook, event string, at time.Time) {
	t.Helper()
	if _, err := s.EnqueueDelivery(ctx, &webhook.Delivery{ID: id, WebhookID: hook, AccountID: account, EventID: event,
		Event: "job.completed", Payload: []byte(`{"id":"` + event + `"}`), CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
}
