package pluginhost

import (
	"errors"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
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

// Capabilities and requests cross with every field, and the SDK's values
// for a plugin built before the shared leaf packages still mean the same.
func TestCapabilitiesAndRequestsMapToThePorts(t *testing.T) {
	in := sdk.Capabilities{Name: "n", Pairs: []sdk.Pair{{Source: "en", Target: "ar"}}, AnyToAny: true, MaxSegments: 3, MaxChars: 4,
		Modes: []sdk.Mode{"literal", sdk.Full}, NativeGlossary: true, GlossaryPairs: []sdk.Pair{{Source: "en", Target: sdk.AnyLanguage}}}
	caps := capsFromSDK(in)
	if caps.Name != "n" || len(caps.Pairs) != 1 || caps.Pairs[0].Target != "ar" || !caps.AnyToAny || caps.MaxSegments != 3 || caps.MaxChars != 4 ||
		!slices.Equal(caps.Modes, []translation.Mode{translation.Literal, translation.Full}) {
		t.Errorf("capsFromSDK = %+v", caps)
	}
	if !caps.GlossaryNative("en", "ja") || caps.GlossaryNative("ja", "en") {
		t.Errorf("glossary pairs %+v", caps.GlossaryPairs)
	}
	in.Pairs[0].Target = "he"
	if caps.Pairs[0].Target != "ar" {
		t.Error("the ports' capabilities share the plugin's slice")
	}
	req := requestToSDK(ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Extreme, Segments: []string{"a"},
		Glossary: &ports.Glossary{Version: "v", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}}}})
	if req.Mode != "extreme" || req.Glossary == nil || req.Glossary.Version != "v" || len(req.Glossary.Entries) != 1 || req.Glossary.Entries[0].Target != "Rechnung" {
		t.Errorf("requestToSDK = %+v", req)
	}
}
