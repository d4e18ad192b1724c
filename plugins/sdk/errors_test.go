package sdk

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A retry hint crosses the wire as protocol v1's status codes and comes
// back as the same hint and message; a passing failure stays a plain
// status, which the host may retry.
func TestErrorHintsCrossTheWire(t *testing.T) {
	for r, code := range map[Retry]codes.Code{BadInput: codes.InvalidArgument, TooSlow: codes.DeadlineExceeded, Unavailable: codes.FailedPrecondition} {
		sent := &Error{Retry: r, Message: "the document is password-protected"}
		wire := status.Convert(sent).Err() // what gRPC sends for it
		if status.Code(wire) != code {
			t.Errorf("hint %d crosses as %v, want %v", r, status.Code(wire), code)
		}
		var got *Error
		if !errors.As(fromStatus(wire), &got) || got.Retry != r || got.Message != sent.Message || got.Retryable() {
			t.Errorf("hint %d came back as %#v", r, fromStatus(wire))
		}
		if !errors.Is(got, ErrBadDocument) {
			t.Errorf("hint %d does not match ErrBadDocument", r)
		}
	}
	passing := status.Convert(&Error{Retry: RetryMayHelp, Message: "crashed"}).Err()
	if status.Code(passing) != codes.Aborted {
		t.Errorf("RetryMayHelp crosses as %v", status.Code(passing))
	}
	var e *Error
	if back := fromStatus(passing); errors.As(back, &e) || errors.Is(back, ErrBadDocument) {
		t.Errorf("a passing failure came back as %#v", back)
	}
	if lost := status.Error(codes.Unavailable, "connection lost"); fromStatus(lost) != lost {
		t.Error("a lost connection must reach the host unchanged")
	}
}
