// Package eventbus carries job events between pipeline stages: the
// ports.EventBus on NATS JetStream, through watermill's Router and
// watermill-nats' message format.
//
// Two deployments, one code path:
//
//   - NewEmbedded(dataDir, …) runs a single-node NATS JetStream server in
//     the process (file storage under dataDir/events) — the default for a
//     single machine, with no server to install.
//   - NewNATS(url, …) connects to an external NATS server with JetStream
//     for the scale-out deployment; every process points at it.
//
// Each topic is a JetStream stream of the same name (hence no dots in
// topic names), kept for 7 days, so an event published
// before its consumer group first subscribes is still delivered.
//
// Consumer groups. Handle(name, topic, h) is one durable pull consumer
// named name on the topic's stream. All processes that register the same
// name share its events, each event handled once per group in the happy
// path; different names each see every event. Handlers are registered
// before Start.
//
// Delivery is at least once. A nil error acks (confirmed by the server);
// an error NAKs with a backoff (WithBackoff: 1 s, 2 s, 4 s … 1 min).
// WithRetries re-runs a failed handler in place first (default once,
// after 0.5 s). A panic is recovered and counts as an error. Retries are
// bounded by time, not count: once an event stored longer ago than
// WithGiveUpAfter (default 24 h) fails again, the bus gives up: it logs
// it at error level, calls WithOnGiveUp (the place to fail the job) and
// acks it if that succeeded. An outage that fails every delivery for
// minutes therefore loses nothing. Attempt(ctx) tells a handler which
// delivery it is in. An event interrupted by shutdown is handed back at
// once, never given up.
//
// Long handlers. JetStream redelivers an event not acked within AckWait
// (WithAckWait, default 30 s). While a handler runs, the subscriber sends
// an in-progress ack every AckWait/3, so a stage may run for minutes;
// only a dead process lets AckWait expire, and its events then go to
// another worker within AckWait. A handler run is capped at 1 h: the bus cancels
// a handler's context and stops the in-progress acks. Consumers pull one
// event per free slot (WithConcurrency, HandleConcurrent), so no event
// waits in a client buffer while its AckWait runs.
//
// Durability. Publish returns after the server stored the event. With
// the embedded server every write reaches the OS before that, so events
// survive kill -9 of the process; WithFsync(true) adds an fsync per write
// against power loss. Acks are not synced, so after a crash a few
// already handled events may come again: handlers must be idempotent.
// The EventID is the watermill message UUID and the JetStream message id,
// so publishing the same EventID again within 2 minutes stores it once.
//
// Logs: watermill and nats-server write to the given slog logger from
// Warn up.
package eventbus
