package pluginhost

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// A converter's non-retryable failure ends the job (ports.ErrBadDocument)
// with the plugin's message and keeps its gRPC code; anything else passes
// through, so a crash can still be told and retried.
func TestConverterErrorsMapToThePorts(t *testing.T) {
	bad := errorFromSDK(&sdk.Error{Retry: sdk.BadInput, Message: "the document is corrupt"})
	if !errors.Is(bad, ports.ErrBadDocument) || bad.Error() != "the document is corrupt" || status.Code(bad) != codes.InvalidArgument {
		t.Errorf("BadInput maps to %v (code %v)", bad, status.Code(bad))
	}
	for _, err := range []error{
		&sdk.Error{Retry: sdk.RetryMayHelp, Message: "crashed"},
		status.Error(codes.Unavailable, "connection lost"),
		errors.New("plain"),
	} {
		if got := errorFromSDK(err); got != err || errors.Is(got, ports.ErrBadDocument) {
			t.Errorf("%v maps to %v", err, got)
		}
	}
}
