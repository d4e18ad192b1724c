package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Documents whose formatting real Apertium English→Spanish lost through the
// API: spans over punctuation alone (code shown as text, "®"), spans over
// blanks, and spans inside a word ("ita<g>li</g>c"). Each goes through the
// DOCX engine and this plugin's engine code, and the fidelity check must
// find every formatting span of the source on some word of the output.
func TestDocumentsKeepFormattingThroughApertium(t *testing.T) {
	e := newEngine("", "")
	for _, name := range []string{"aspose-Big_document.docx", "aspose-Hyperlinks.docx", "docx4j-Docx4j_GettingStarted.docx", "poi-45690.docm", "tika-testWORD_various.docx"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("../../testdata/corpus/docx", name))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
			if err != nil {
				t.Fatal(err)
			}
			var segs []*segment.Segment
			var texts []string
			doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
				segs, texts = append(segs, s), append(texts, s.Source)
			})
			res, err := e.Translate(ctx, sdk.TranslateRequest{Source: "en", Target: "es", Mode: sdk.Full, Segments: texts})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range segs {
				s.Target = res.Segments[i]
			}
			var out bytes.Buffer
			if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &out); err != nil {
				t.Fatal(err)
			}
			r, err := structure.CompareReaders(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out.Bytes()), int64(out.Len()))
			if err != nil {
				t.Fatal(err)
			}
			if r.Lost() {
				var b bytes.Buffer
				for _, l := range r.Losses {
					b.WriteString("\n" + l)
				}
				t.Errorf("%s%s", r.Summary(), b.String())
			}
		})
	}
}

// A span that began or ended inside a word comes back inside the
// translated word, in proportion, not around the whole word; a span that
// ended with a symbol Apertium left outside takes it back.
func TestSubwordSpansStayInsideTheWord(t *testing.T) {
	for _, c := range []struct{ src, apertium, want string }{
		{`ita<g id="1">li</g>c`, `<g id="1">italic</g>`, `ita<g id="1">li</g>c`},
		{`ita<g id="1">l</g><g id="2">i</g>c`, `<g id="1">ital</g><g id="2">ic</g>`, `ita<g id="1">l</g><g id="2">i</g>c`},
		// both around the whole word, as a word-bound blank brings them back
		{`ita<g id="1">l</g><g id="2">i</g>c`, `<g id="1"><g id="2">italic</g></g>`, `ita<g id="1">l</g><g id="2">i</g>c`},
		{`un<g id="1">break</g>able glass`, `vidrio <g id="1">irrompible</g>`, `vidrio ir<g id="1">romp</g>ible`},
		{`0.06 млн <g id="1"><g id="2">M</g>☉</g>`, `0.06 млн <g id="1"><g id="2">M</g></g>☉`, `0.06 млн <g id="1"><g id="2">M</g>☉</g>`},
		{`<g id="1">.”</g> next`, `<g id="1">.</g>” siguiente`, `<g id="1">.”</g> siguiente`},
		{`a <g id="1">whole</g> word`, `una <g id="1">palabra</g> entera`, `una <g id="1">palabra</g> entera`},
	} {
		got, _ := repair(c.src, tagged.Tokenize(c.apertium))
		if got != c.want {
			t.Errorf("repair(%q, %q) = %q, want %q", c.src, c.apertium, got, c.want)
		}
	}
}
