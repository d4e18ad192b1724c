package service

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// An edit longer than MaxEditedTarget is refused before anything is read,
// whichever surface sent it (the API's schema checks it too; the
// dashboard's save reaches the use case directly).
func TestEditSegmentRefusesAnOversizedTarget(t *testing.T) {
	var d Documents // no ports: the refusal must come first
	_, _, err := d.EditSegment(context.Background(), &Caller{}, "j1", "1", strings.Repeat("x", MaxEditedTarget+1), nil)
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindUnprocessable {
		t.Fatalf("oversized edit: %v, want KindUnprocessable", err)
	}
}
