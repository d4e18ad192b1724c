package sdk

import (
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Retry is what a failure tells the host about trying again.
type Retry int

const (
	// RetryMayHelp: the failure is passing (the engine crashed or is
	// overloaded); the host may send the same work again.
	RetryMayHelp Retry = iota
	// BadInput: the document or request itself is at fault (corrupt,
	// encrypted, empty, unsupported); the job fails with the message.
	BadInput
	// TooSlow: the work took too long and would again; the job fails.
	TooSlow
	// Unavailable: the plugin cannot work at all (a tool is missing); the
	// job fails.
	Unavailable
)

// Error is a plugin failure with a retry hint. Its message reaches the
// user in the job's error field, so it says what went wrong in their
// terms. Errors of any other type count as RetryMayHelp.
//
//	return &sdk.Error{Retry: sdk.BadInput, Message: "the document is password-protected"}
type Error struct {
	Retry   Retry
	Message string
}

func (e *Error) Error() string { return e.Message }

// Retryable reports whether sending the same work again may succeed.
func (e *Error) Retryable() bool { return e.Retry == RetryMayHelp }

// ErrBadDocument is matched (errors.Is) by every *Error that retrying
// cannot help, as the host's clients return them.
var ErrBadDocument = errors.New("bad document")

func (e *Error) Is(target error) bool { return target == ErrBadDocument && !e.Retryable() }

// The wire codes of each hint; they are protocol v1's and must not change.
var retryCodes = map[Retry]codes.Code{
	RetryMayHelp: codes.Aborted,
	BadInput:     codes.InvalidArgument,
	TooSlow:      codes.DeadlineExceeded,
	Unavailable:  codes.FailedPrecondition,
}

// GRPCStatus is how the error crosses the wire.
func (e *Error) GRPCStatus() *status.Status {
	return status.New(retryCodes[e.Retry], e.Message)
}

// fromStatus turns a plugin's gRPC failure back into an *Error where it
// carries a hint that ends the job; other errors (a crash, an unexpected
// code) are returned as they are, so the host can tell a lost process.
func fromStatus(err error) error {
	st, ok := status.FromError(err)
	if !ok || err == nil {
		return err
	}
	for r, c := range retryCodes {
		if r != RetryMayHelp && st.Code() == c {
			return &Error{Retry: r, Message: st.Message()}
		}
	}
	return err
}
