// Package quota holds the monthly word quota: the plans and their limits,
// the billing period, the check a submission passes before it is accepted
// and the reservation the extract stage makes once the words are counted.
// Words are reserved for a job when its text is extracted and released if
// it fails, so a failed job charges nothing and concurrent jobs never
// overrun. The SQL store keeps the counters (Store).
package quota

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Plan is a named set of limits.
type Plan struct {
	Name              string // free, starter, pro, enterprise
	RequestsPerMinute int
	LimitWords        *int64 // nil: unlimited
	// Per-document caps: a job whose document has more words or segments
	// fails at extraction, charging nothing. They bound the work (and
	// memory) one upload can cause; 0 means no cap.
	MaxDocumentWords    int64
	MaxDocumentSegments int64
}

// Words makes a word limit.
func Words(n int64) *int64 { return &n }

// Plans are the published plans. Enterprise starts as Pro and is tuned per
// account with overrides (admin set-plan --limit-words/--requests-per-minute).
var Plans = map[string]Plan{
	"free":       {Name: "free", RequestsPerMinute: 10, LimitWords: Words(10_000), MaxDocumentWords: 10_000, MaxDocumentSegments: 10_000},
	"starter":    {Name: "starter", RequestsPerMinute: 30, LimitWords: Words(100_000), MaxDocumentWords: 100_000, MaxDocumentSegments: 100_000},
	"pro":        {Name: "pro", RequestsPerMinute: 60, LimitWords: nil, MaxDocumentWords: 1_000_000, MaxDocumentSegments: 1_000_000},
	"enterprise": {Name: "enterprise", RequestsPerMinute: 120, LimitWords: nil, MaxDocumentWords: 1_000_000, MaxDocumentSegments: 1_000_000},
}

// ErrUnknownPlan is returned for a plan name not in Plans.
var ErrUnknownPlan = errors.New("unknown plan: want free, starter, pro or enterprise")

// LookupPlan finds a plan by name, case-insensitively.
func LookupPlan(name string) (Plan, error) {
	p, ok := Plans[strings.ToLower(name)]
	if !ok {
		return Plan{}, ErrUnknownPlan
	}
	return p, nil
}

// Period is the billing period (calendar month, UTC) that holds t, as "2006-01".
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

// ErrExceeded is returned by Store.Reserve when the words do not fit.
var ErrExceeded = errors.New("monthly word quota exhausted")

// ErrJobEnded is returned by Store.Reserve for a job that has already
// ended (cancelled, failed or completed): what it reserved was given back
// when it ended, and a reservation after that would never be.
var ErrJobEnded = errors.New("the job has ended: nothing to reserve")

// Store keeps word usage per account and billing period.
type Store interface {
	// Reserve adds words for jobID to the period if used+words <= limit
	// (limit nil: unlimited); ErrExceeded otherwise. Reserving the same
	// job twice is a no-op. A job the store holds as ended gets nothing
	// (ErrJobEnded): the check and the reservation are one transaction
	// with the job's row locked, so a cancellation that releases the
	// job's words either comes first and is seen, or comes after and
	// releases this reservation too.
	Reserve(ctx context.Context, accountID, period, jobID string, words int64, limit *int64) error
	// Release gives a job's reserved words back; a no-op if none.
	Release(ctx context.Context, jobID string) error
	Used(ctx context.Context, accountID, period string) (int64, error)
}

// Exhausted refuses a submission: the period's words are used up.
type Exhausted struct{ Used, Limit int64 }

func (e *Exhausted) Error() string {
	return fmt.Sprintf("monthly word quota exhausted: %d of %d words used this month", e.Used, e.Limit)
}

// Check is the pre-check of a submission at now: an *Exhausted error when
// the account's period has no words left (limit nil: unlimited).
func Check(ctx context.Context, s Store, accountID string, limit *int64, now time.Time) error {
	if limit == nil {
		return nil
	}
	used, err := s.Used(ctx, accountID, Period(now))
	if err != nil {
		return err
	}
	if used >= *limit {
		return &Exhausted{Used: used, Limit: *limit}
	}
	return nil
}

// Short fails a job whose words do not fit in what is left.
type Short struct{ Words, Left, Limit int64 }

func (e *Short) Error() string {
	return fmt.Sprintf("word quota exceeded: the document has %d words but only %d of this month's %d remain; nothing was charged", e.Words, e.Left, e.Limit)
}

// Reserve charges a job's words to the period the job was created in:
// a *Short error when they do not fit. Reserving a job again is a no-op;
// Store.Release gives the words back when the job fails. A job that ended
// while its words were counted (its owner cancelled it) is charged
// nothing and this is not an error: the stage that asked finds the job
// ended when it records its work.
func Reserve(ctx context.Context, s Store, accountID, jobID string, created time.Time, words int64, limit *int64) error {
	period := Period(created)
	err := s.Reserve(ctx, accountID, period, jobID, words, limit)
	if errors.Is(err, ErrJobEnded) {
		return nil
	}
	if !errors.Is(err, ErrExceeded) {
		return err
	}
	used, _ := s.Used(ctx, accountID, period)
	left := *limit - used
	if left < 0 {
		left = 0
	}
	return &Short{Words: words, Left: left, Limit: *limit}
}
