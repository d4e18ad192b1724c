package webhook

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// Notifier implements corewebhook.Notifier by queueing deliveries.
type Notifier struct {
	store     corewebhook.Store
	publicURL string
	clock     ports.Clock
	wake      func()
}

var _ corewebhook.Notifier = (*Notifier)(nil)

// NewNotifier queues deliveries in store; docx_url is built on publicURL
// (e.g. https://dragoman.example.com). wake, if not nil, is called after
// queueing (Worker.Wake) so the first attempt goes out at once.
func NewNotifier(store corewebhook.Store, publicURL string, clock ports.Clock, wake func()) *Notifier {
	return &Notifier{store: store, publicURL: publicURL, clock: clock, wake: wake}
}

// Notify queues event for every active webhook of the job's account that
// subscribed to it. Calling it again for the same job and event queues
// nothing more.
func (n *Notifier) Notify(ctx context.Context, j *job.Job, event string) error {
	if event != corewebhook.EventJobCompleted && event != corewebhook.EventJobFailed {
		return fmt.Errorf("webhook: unknown event %q", event)
	}
	hooks, err := n.store.ListWebhooks(ctx, j.AccountID)
	if err != nil {
		return fmt.Errorf("webhook: notify %s of job %s: %w", event, j.ID, err)
	}
	body, err := corewebhook.JobPayload(j, event, n.publicURL)
	if err != nil {
		return err
	}
	eventID := corewebhook.JobEventID(j, event)
	added := 0
	for _, h := range hooks {
		if !h.Active || !slices.Contains(h.Events, event) {
			continue
		}
		ok, err := n.store.EnqueueDelivery(ctx, &corewebhook.Delivery{
			ID: uuid.NewString(), WebhookID: h.ID, AccountID: j.AccountID, EventID: eventID,
			Event: event, Payload: body, CreatedAt: n.clock.Now(),
		})
		if err != nil {
			return fmt.Errorf("webhook: notify %s of job %s: %w", event, j.ID, err)
		}
		if ok {
			added++
		}
	}
	if added > 0 && n.wake != nil {
		n.wake()
	}
	return nil
}
