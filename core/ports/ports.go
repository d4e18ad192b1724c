// Package ports declares what the core needs from the outside world. The
// adapters implement these interfaces; the core never imports an adapter.
// The ports of a concern with its own package sit next to it instead:
// quota.Store in core/quota, webhook.Store, webhook.Queue and
// webhook.Notifier in core/webhook.
//
// The files group the ports: stores.go (jobs, accounts, clock), blob.go
// (documents), events.go (the bus that carries jobs between stages),
// engines.go (translation engines and converters, which plugins implement),
// document.go (reading, writing and laying out documents), outside.go
// (rate limits, URL fetches, language detection).
package ports
