package translate

import (
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// An estimate counts what the translation would send, leg by leg, as the
// translation then sends it, and calls no engine.
func TestEstimateAgreesWithTheTranslation(t *testing.T) {
	u := &upper{}
	tm := newMemoryTM()
	// es→fr only through English: two legs.
	caps := ports.Capabilities{Pairs: []language.Pair{{Source: "es", Target: "en"}, {Source: "en", Target: "fr"}}}
	tr := &Translator{Engines: registry{engine("upper", u, caps)}, TM: tm}
	texts := []string{"Uno.", "Dos.", "Uno.", "123"} // a repeat, and a segment without letters

	est, err := tr.Estimate(ctx, docOf(texts...), "es", "fr", translation.Full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if u.calls() != 0 {
		t.Fatalf("the estimate called the engine %d times", u.calls())
	}
	if est.Segments != 4 || est.InMemory != 0 || len(est.Legs) != 2 {
		t.Fatalf("estimate %+v", est)
	}
	first, second := est.Legs[0], est.Legs[1]
	if first.Engine != "upper" || first.Source != "es" || first.Target != "en" || first.Chars != 8 || !first.Exact {
		t.Errorf("first leg %+v, want upper es→en 8 characters exactly (Uno. and Dos. once each)", first)
	}
	if second.Source != "en" || second.Target != "fr" || second.Chars != 8 || second.Exact {
		t.Errorf("second leg %+v, want en→fr estimated at 8", second)
	}
	res, err := tr.Translate(ctx, docOf(texts...), "es", "fr", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	if sent := res.Metrics.CharsSent - len("UNO./en") - len("DOS./en"); sent != first.Chars {
		t.Errorf("the first leg sent %d characters, the estimate said %d", sent, first.Chars)
	}
	// Translated once (each answer is in the memory when the call returns): everything is in the memory, both legs exactly.
	est, _ = tr.Estimate(ctx, docOf(append(texts, "Tres.")...), "es", "fr", translation.Full, Options{})
	if est.InMemory != 3 || est.Segments != 5 {
		t.Errorf("in memory %d of %d, want 3 of 5", est.InMemory, est.Segments)
	}
	if l := est.Legs[0]; l.Chars != len("Tres.") || !l.Exact {
		t.Errorf("first leg with the memory %+v", l)
	}
	if l := est.Legs[1]; l.Chars != len("Tres.") || l.Exact {
		t.Errorf("second leg with the memory %+v: the known texts are hits, Tres. is estimated", l)
	}
	if _, err := tr.Estimate(ctx, docOf("Hola."), "es", "de", translation.Full, Options{}); err != ErrNoRoute {
		t.Errorf("unserved pair: %v", err)
	}
}

// An output stored with its engine's notes is the next leg's input as
// text alone: translated once, a two-leg route is all in the memory.
func TestEstimateReadsNotedOutputsAsText(t *testing.T) {
	caps := ports.Capabilities{Pairs: []language.Pair{{Source: "es", Target: "en"}, {Source: "en", Target: "fr"}}}
	tr := &Translator{Engines: registry{engine("noting", &noting{}, caps)}, TM: newMemoryTM()}
	if _, err := tr.Translate(ctx, docOf("Un zork aquí."), "es", "fr", translation.Full); err != nil {
		t.Fatal(err)
	}
	est, err := tr.Estimate(ctx, docOf("Un zork aquí."), "es", "fr", translation.Full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if est.InMemory != 1 || est.Legs[0].Chars != 0 || est.Legs[1].Chars != 0 {
		t.Errorf("estimate %+v, want both legs from the memory", est)
	}
}
