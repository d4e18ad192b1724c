package service

import (
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// Webhooks implements the use cases on an account's webhooks: registering,
// changing and deleting receivers of its job events, a test ping, and the
// delivery history. Deliveries themselves are the webhook worker's.
type Webhooks struct {
	Config   Config // AllowPrivateURLs
	Webhooks webhook.Store
	Clock    ports.Clock
	NewID    func() string
}
