package ports

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/core/eventid"
	"github.com/dragoman-translate/dragoman/core/job"
)

// Topic names the job events that carry a job between stages. Names have
// no dots so that every transport accepts them.
type Topic string

const (
	TopicAccepted   Topic = "job_accepted"
	TopicConverted  Topic = "job_converted"
	TopicExtracted  Topic = "job_extracted"
	TopicTranslated Topic = "job_translated"
	TopicAssembled  Topic = "job_assembled"
	TopicLaidOut    Topic = "job_laid_out"
	TopicCompleted  Topic = "job_completed"
	TopicFailed     Topic = "job_failed"
)

// JobEvent is the payload of every topic.
type JobEvent struct {
	EventID   string     `json:"event_id"`
	JobID     string     `json:"job_id"`
	AccountID string     `json:"account_id"`
	Stage     job.Stage  `json:"stage"`
	Status    job.Status `json:"status"`
	At        time.Time  `json:"at"`
	Error     string     `json:"error,omitempty"`
}

// StageEventID is the id of a job's event on a topic: the same for every
// publication, so the transport drops the duplicates that recovery and
// redelivery make.
func StageEventID(jobID string, t Topic) string {
	return eventid.New(eventNamespace, jobID+"/"+string(t))
}

var eventNamespace = uuid.MustParse("5b0e3c1e-7d4a-4f0e-9d61-3a4c1f2b8e70")

// EventHandler handles one event; an error makes the transport redeliver.
type EventHandler func(ctx context.Context, e JobEvent) error

// EventBus carries job events. Handlers are registered before the bus
// starts; delivery is at least once, so handlers must be idempotent.
type EventBus interface {
	Publish(ctx context.Context, topic Topic, e JobEvent) error
	Handle(name string, topic Topic, h EventHandler)
	// HandleConcurrent is Handle with n events handled at once by this
	// process, whatever the bus's own concurrency.
	HandleConcurrent(name string, topic Topic, n int, h EventHandler)
}

// TerminalEvent is the event an ended job announces: job_completed (a
// revision's own id for a job completed again from a post-edited XLIFF)
// or job_failed with its reason.
func TerminalEvent(j *job.Job, at time.Time) (Topic, JobEvent) {
	t, id := TopicFailed, StageEventID(j.ID, TopicFailed)
	if j.Status == job.Completed {
		t, id = TopicCompleted, StageEventID(j.ID, TopicCompleted)
		if j.Revision > 0 {
			id = RevisionEventID(j.ID, j.Revision)
		}
	}
	return t, JobEvent{EventID: id, JobID: j.ID, AccountID: j.AccountID, Stage: j.Stage, Status: j.Status, At: at, Error: j.Error}
}

// RevisionEventID is the bus event id of a job's n-th revision completing.
func RevisionEventID(jobID string, n int) string {
	return StageEventID(fmt.Sprintf("%s#revision-%d", jobID, n), TopicCompleted)
}
