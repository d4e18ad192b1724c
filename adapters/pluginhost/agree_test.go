package pluginhost

import (
	"slices"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// The SDK's modes are the job's, in the same order, and map both ways.
func TestSDKModesAreTheJobModes(t *testing.T) {
	if len(sdk.Modes) != len(job.Modes) {
		t.Fatalf("sdk.Modes %v, job.Modes %v", sdk.Modes, job.Modes)
	}
	for i := range sdk.Modes {
		if string(sdk.Modes[i]) != string(job.Modes[i]) {
			t.Errorf("mode %d: sdk %q, job %q", i, sdk.Modes[i], job.Modes[i])
		}
		if m, err := job.ParseMode(string(sdk.Modes[i])); err != nil || m != job.Modes[i] {
			t.Errorf("job.ParseMode(%q) = %q, %v", sdk.Modes[i], m, err)
		}
	}
	caps := capsFromSDK(sdk.Capabilities{Name: "n", Pairs: []sdk.Pair{{Source: "en", Target: "ar"}}, AnyToAny: true, MaxSegments: 3, MaxChars: 4, Modes: sdk.Modes})
	if caps.Name != "n" || len(caps.Pairs) != 1 || caps.Pairs[0].Target != "ar" || !caps.AnyToAny || caps.MaxSegments != 3 || caps.MaxChars != 4 || !slices.Equal(caps.Modes, job.Modes) {
		t.Errorf("capsFromSDK = %+v", caps)
	}
}
