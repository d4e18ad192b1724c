package translate

import (
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// issue 26: with one memory for everyone, account b learnt that account a
// had translated a guessed sentence (cache_hits 1, engine_calls 0 in b's
// own job). Each account has its own memory by default; shared by the
// operator's choice, a's entries spare b the engine call, but b's job
// reads exactly as if the engine had been asked.
func TestMemoryIsPerAccountAndNeverShowsAnothersHits(t *testing.T) {
	texts := []string{"The merger closes on Friday.", "Keep it quiet."}
	for _, shared := range []bool{false, true} {
		tm := newMemoryTM()
		eng := &upper{}
		run := func(account string) job.Metrics {
			t.Helper()
			tr := &Translator{Engines: registry{engine("upper", eng, ports.Capabilities{AnyToAny: true})}, TM: tm, SharedMemory: shared}
			res, err := tr.TranslateWith(ctx, docOf(texts...), "en", "fr", translation.Full, Options{Account: account})
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Close(ctx); err != nil {
				t.Fatal(err)
			}
			return res.Metrics
		}
		first := run("a")
		if first.EngineCalls != 1 || first.CacheHits != 0 {
			t.Fatalf("shared %v: a's first job %+v", shared, first)
		}
		calls := eng.calls()
		b := run("b")
		t.Logf("shared %v: a's first job %+v; b's job of the same text %+v, %d engine requests", shared, first, b, eng.calls()-calls)
		if b != first {
			t.Errorf("shared %v: b's metrics %+v differ from a's first job's %+v: they tell b what a translated", shared, b, first)
		}
		if spared := eng.calls() == calls; spared != shared {
			t.Errorf("shared %v: the engine was asked for b's text: %v", shared, !spared)
		}
		if again := run("b"); again.CacheHits != 2 || again.EngineCalls != 0 {
			t.Errorf("shared %v: b's second job %+v, want both from b's own memory", shared, again)
		}
		if again := run("a"); again.CacheHits != 2 {
			t.Errorf("shared %v: a's second job %+v", shared, again)
		}
	}
}
