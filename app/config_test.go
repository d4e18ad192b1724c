package main

import (
	"testing"

	"github.com/dragoman-translate/dragoman/app/cmdline"
)

// TestBatchFlagsRefuseNonsense: the new flags say what is wrong.
func TestBatchFlagsRefuseNonsense(t *testing.T) {
	for _, args := range [][]string{{"--batch-segments", "-1"}, {"--engine-concurrency", "0"}} {
		var ue cmdline.UsageError
		if _, err := parseServe(args); !cmdline.AsUsage(err, &ue) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	t.Setenv("DRAGOMAN_BATCH_SEGMENTS", "50")
	t.Setenv("DRAGOMAN_ENGINE_CONCURRENCY", "3")
	c, err := parseServe(nil)
	if err != nil || c.BatchSegments != 50 || c.EngineConcurrency != 3 {
		t.Errorf("from the environment: %+v %v", c, err)
	}
	if c, _ := parseServe([]string{"--engine-concurrency", "6"}); c.EngineConcurrency != 6 || c.BatchSegments != 50 {
		t.Errorf("the flag over the environment: %+v", c)
	}
}
