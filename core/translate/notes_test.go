package translate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// noting answers like upper and notes, for each text with "zork" in it,
// that word as unknown, and reports every code as dropped and put back by
// guess, as the Apertium plugin reports its repairs.
type noting struct{ upper }

func (n *noting) Translate(ctx context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	res, err := n.upper.Translate(ctx, r)
	for i, s := range r.Segments {
		var note tagged.Note
		if strings.Contains(s, "zork") {
			note.Unknown = []string{"zork"}
		}
		for _, tk := range tagged.Tokenize(s) {
			if tk.Kind == tagged.Open || tk.Kind == tagged.Place {
				note.Fixes = append(note.Fixes, tagged.Fix{Code: tk.ID, Problem: tagged.Missing, Placed: tagged.ByPosition})
			}
		}
		if note.Unknown != nil || note.Fixes != nil {
			note.Segment = i
			res.Notes = append(res.Notes, note)
		}
	}
	return res, err
}

// What the engine notes about a text reaches every segment with that
// text, in whichever batch; its repairs of the job's own placeholders
// (a glossary term) become the term put back, not a code of the segment.
func TestEngineNotesReachTheirSegments(t *testing.T) {
	n := &noting{}
	tr := &Translator{Engines: registry{engine("noting", n, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}}
	g := &glossary.Glossary{Name: "g", Entries: []glossary.Entry{{Source: "invoice", Target: "factura"}}}
	d := docOf("A zork here.", "Plain text.", `<g id="1">Bold</g> zork again.`, "A zork here.", "Send the invoice.")
	s, err := tr.Begin(context.Background(), "en", "es", translation.Full, Options{Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Translate(context.Background(), d.Units[:2]); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate(context.Background(), d.Units[2:]); err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]string{{"zork"}, nil, {"zork"}, {"zork"}, nil} {
		if got := d.Units[i].Segments[0].Notes.Unknown; !slices.Equal(got, want) {
			t.Errorf("segment %d: unknown %q, want %q", i, got, want)
		}
	}
	if f := d.Units[2].Segments[0].Notes.Fixes; len(f) != 1 || f[0].Code != 1 {
		t.Errorf("own fixes %+v", f)
	}
	last := d.Units[4].Segments[0].Notes
	if len(last.Fixes) != 0 || !slices.Equal(last.LostTerms, []string{"factura"}) {
		t.Errorf("a glossary placeholder put back by guess: %+v", last)
	}
}

// A text the memory answers keeps what the engine noted when it first
// translated it: the same sentence is flagged the same way the second
// time, without asking the engine again.
func TestNotesSurviveTheMemory(t *testing.T) {
	tm := newMemoryTM()
	var calls []int
	for range 2 {
		n := &noting{}
		tr := &Translator{Engines: registry{engine("noting", n, ports.Capabilities{AnyToAny: true})}, TM: tm}
		d := docOf("A zork here.", `<g id="1">Bold</g> text.`, "Plain text.")
		if _, err := tr.Translate(context.Background(), d, "en", "es", translation.Full); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, n.calls())
		if got := d.Units[0].Segments[0].Notes.Unknown; !slices.Equal(got, []string{"zork"}) {
			t.Errorf("run %d: unknown %q", len(calls), got)
		}
		if f := d.Units[1].Segments[0].Notes.Fixes; len(f) != 1 || f[0].Code != 1 {
			t.Errorf("run %d: fixes %+v", len(calls), f)
		}
		if n := d.Units[2].Segments[0].Notes; n.Unknown != nil || n.Fixes != nil {
			t.Errorf("run %d: notes on a plain text %+v", len(calls), n)
		}
		for _, u := range d.Units {
			if strings.ContainsRune(u.Segments[0].Target, '\uffff') {
				t.Errorf("run %d: the stored notes leaked into the target %q", len(calls), u.Segments[0].Target)
			}
		}
	}
	if calls[0] == 0 || calls[1] != 0 {
		t.Errorf("engine calls %v, want the second run from the memory", calls)
	}
}
