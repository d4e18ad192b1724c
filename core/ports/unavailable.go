package ports

import (
	"errors"
	"time"
)

// ErrUnavailable marks a failure of something the service depends on (the
// database, the document store, the event bus) that is down, full or
// locked: not the request's fault, and worth trying again later. Adapters
// return an *Unavailable, which errors.Is matches with it.
var ErrUnavailable = errors.New("unavailable")

// Unavailable says which dependency failed and why, in words a client may
// read (no addresses, no driver messages), and when to try again.
type Unavailable struct {
	What       string        // "the database", "the document store", "the event bus"
	Reason     string        // "is not answering", "is full", "is locked by another program"
	RetryAfter time.Duration // a fair wait before trying again
	Err        error         // the cause, for the logs
}

func (e *Unavailable) Error() string {
	if e.Err == nil {
		return e.What + " " + e.Reason
	}
	return e.What + " " + e.Reason + ": " + e.Err.Error()
}

func (e *Unavailable) Unwrap() error        { return e.Err }
func (e *Unavailable) Is(target error) bool { return target == ErrUnavailable }

// Message is what a client is told.
func (e *Unavailable) Message() string { return e.What + " " + e.Reason }
