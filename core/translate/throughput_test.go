package translate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

type recorded struct {
	engine string
	chars  int
	took   time.Duration
}

type throughputs struct {
	mu   sync.Mutex
	got  []recorded
	fail error
}

func (s *throughputs) RecordThroughput(_ context.Context, engine string, chars int, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, recorded{engine, chars, d})
	return s.fail
}

func (s *throughputs) Throughputs(context.Context) (map[string]ports.Throughput, error) {
	return nil, nil
}

// Every successful engine call is measured, with the characters as engines
// bill them (inline codes excluded); failed calls are not, and a store
// that cannot record does not fail the translation.
func TestEngineCallsAreMeasured(t *testing.T) {
	u := &upper{}
	th := &throughputs{fail: errors.New("store down")}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 1})}, Throughput: th}
	doc := docOf(`Hello <g id="1">world</g>`, "Good morning")
	if _, err := tr.Translate(context.Background(), doc, "en", "es", translation.Full); err != nil {
		t.Fatal(err)
	}
	if len(th.got) != 2 {
		t.Fatalf("recorded %d calls, want 2 (one per batch): %+v", len(th.got), th.got)
	}
	chars := 0
	for _, r := range th.got {
		if r.engine != "upper" || r.took <= 0 {
			t.Errorf("record %+v", r)
		}
		chars += r.chars
	}
	if want := len("Hello world") + len("Good morning"); chars != want {
		t.Errorf("chars recorded %d, want %d (codes excluded)", chars, want)
	}

	failing := &upper{fail: errors.New("engine down")}
	th2 := &throughputs{}
	tr = &Translator{Engines: registry{engine("upper", failing, ports.Capabilities{AnyToAny: true})}, Throughput: th2, Attempts: 1}
	if _, err := tr.Translate(context.Background(), docOf("Hello"), "en", "es", translation.Full); err == nil {
		t.Fatal("no error from a failing engine")
	}
	if len(th2.got) != 0 {
		t.Errorf("a failed call was measured: %+v", th2.got)
	}
}
