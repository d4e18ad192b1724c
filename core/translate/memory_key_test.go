package translate

import (
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// The memory is keyed by the engine's configuration too (issue 17):
// changing the model of an engine (its Capabilities.Config) must not
// serve the old model's translations; going back to it finds them again.
func TestMemoryIsKeyedByEngineConfiguration(t *testing.T) {
	tm := newMemoryTM()
	texts := []string{"One.", "Two."}
	run := func(config string) job.Metrics {
		t.Helper()
		tr := &Translator{Engines: registry{engine("upper", &upper{}, ports.Capabilities{AnyToAny: true, Config: config})}, TM: tm}
		res, err := tr.Translate(ctx, docOf(texts...), "en", "fr", translation.Full)
		if err != nil {
			t.Fatal(err)
		}
		// Each run is a new translator: its writes are behind the job.
		if err := tr.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return res.Metrics
	}
	if m := run("model-a"); m.EngineCalls == 0 {
		t.Fatalf("first run %+v", m)
	}
	if m := run("model-a"); m.EngineCalls != 0 || m.CacheHits != 2 {
		t.Errorf("same configuration: %+v, want every segment from memory", m)
	}
	if m := run("model-b"); m.EngineCalls == 0 || m.CacheHits != 0 {
		t.Errorf("another model was served the first model's translations: %+v", m)
	}
	if m := run("model-a"); m.CacheHits != 2 {
		t.Errorf("back to the first model: %+v", m)
	}
}
