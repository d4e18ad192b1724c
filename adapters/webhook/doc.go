// Package webhook delivers signed job events to registered receivers.
//
// The Notifier implements the Notifier port of core/webhook: called from the job_completed and
// job_failed event handlers, it only queues one delivery per subscribed
// webhook in the database (idempotently: the event id is derived from the
// job id and event, and a webhook has at most one delivery per event), so
// job processing never waits for a receiver.
//
// The Worker sends queued deliveries: it claims due attempts from the
// database in short write transactions (several processes may share the
// queue; an attempt number is handed out once, so no attempt is sent
// twice), POSTs the stored body signed with the webhook's secret through a
// client that refuses private addresses unless allowed, records every
// attempt in the history and schedules the next one: three attempts,
// 0 s, 2 s and 4 s apart, 15 s timeout each. Because the queue lives in
// the database, a restart between attempts delivers the rest.
package webhook
