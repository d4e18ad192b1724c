package service

import (
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/failure"
)

// Kind classifies a client-facing error.
type Kind int

const (
	KindUnauthenticated Kind = iota + 1 // missing or invalid key: 401
	KindForbidden                       // revoked key, suspended account: 403
	KindNotFound                        // 404
	KindGone                            // 410
	KindTooLarge                        // 413
	KindUnprocessable                   // unsupported type, missing or invalid field: 422
	KindBadURL                          // invalid URL or unsupported document behind it: 400
	KindQuota                           // word quota exhausted: 402
	KindRateLimited                     // 429
	KindUnavailable                     // 503
	KindStale                           // an edit made on a revision that is no longer the latest: 412
	KindConflict                        // the resource is not in a state that allows it: 409
)

// Error is a client-facing error with a human-readable message.
type Error struct {
	Kind       Kind
	Message    string
	RetryAfter time.Duration // for KindRateLimited
	Err        error
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Err }

func fail(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// enginesUnavailable refuses a request while no engine answers. What the
// engines said (a plugin that does not start, its stderr and path) is the
// cause, for the log; the client is told what it can do.
func enginesUnavailable(err error) *Error {
	return &Error{Kind: KindUnavailable, Message: failure.EnginesDown, Err: err}
}

func unprocessable(err error) *Error {
	return &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
}
