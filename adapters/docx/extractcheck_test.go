package docx_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// The read hands units over as it goes, and an emit that refuses stops it
// right there (issue 15: a per-document cap was applied only after the
// whole document was read, 52 s and 2.4 GB for a 200 MB part): Read
// returns emit's error as is, having handed over little more than the
// units before the stop.
func TestReadStopsWhenEmitRefuses(t *testing.T) {
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
	src, err := docx.New(nil).Read(context.Background(), blob{bytes.NewReader(data)}, check)
	took := time.Since(t0)
	if !errors.Is(err, stop) || src != nil {
		t.Fatalf("Read returned %v, %v; want emit's error", src, err)
	}
	if told > 110 {
		t.Errorf("the check was told %d units; reading went on past the stop at 101", told)
	}
	t.Logf("stopped after %d of %d units in %v", told, len(full.Units), took)

	// Without a refusal every unit is told once, in order.
	var ids []string
	_, err = docx.New(nil).Read(context.Background(), blob{bytes.NewReader(data)}, func(units []segment.Unit) error {
		for _, u := range units {
			ids = append(ids, u.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(full.Units) {
		t.Fatalf("told %d units of %d", len(ids), len(full.Units))
	}
	for i, u := range full.Units {
		if ids[i] != u.ID {
			t.Fatalf("unit %d told as %s, extracted as %s", i, ids[i], u.ID)
		}
	}
}

// blob is a document in memory as a ports.Blob.
type blob struct{ *bytes.Reader }

func (blob) Close() error { return nil }
