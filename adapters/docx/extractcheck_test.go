package docx_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// An extraction check that refuses stops the reading right there (issue 15:
// a per-document cap was applied only after the whole document was read,
// 52 s and 2.4 GB for a 200 MB part): Extract returns the check's error as
// is, having told it about little more than the units before the stop.
func TestExtractStopsWhenTheCheckRefuses(t *testing.T) {
	var buf bytes.Buffer
	if err := genDocx(&buf, 4<<20, 0); err != nil { // ~4 MB of XML, ~4,600 units
		t.Fatal(err)
	}
	data := buf.Bytes()
	full, err := docx.ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Units) < 2_000 {
		t.Fatalf("the document has only %d units", len(full.Units))
	}

	stop := errors.New("over the cap")
	told := 0
	check := func(units []segment.Unit) error {
		told += len(units)
		if told > 100 {
			return stop
		}
		return nil
	}
	t0 := time.Now()
	doc, err := docx.ExtractReader(ports.WithExtractCheck(context.Background(), check), bytes.NewReader(data), int64(len(data)))
	took := time.Since(t0)
	if !errors.Is(err, stop) || doc != nil {
		t.Fatalf("Extract returned %v, %v; want the check's error", doc, err)
	}
	if told > 110 {
		t.Errorf("the check was told %d units; reading went on past the stop at 101", told)
	}
	t.Logf("stopped after %d of %d units in %v", told, len(full.Units), took)

	// Without a refusal every unit is told once, in order.
	var ids []string
	doc, err = docx.ExtractReader(ports.WithExtractCheck(context.Background(), func(units []segment.Unit) error {
		for _, u := range units {
			ids = append(ids, u.ID)
		}
		return nil
	}), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(doc.Units) {
		t.Fatalf("told %d units of %d", len(ids), len(doc.Units))
	}
	for i, u := range doc.Units {
		if ids[i] != u.ID {
			t.Fatalf("unit %d told as %s, extracted as %s", i, ids[i], u.ID)
		}
	}
}
