package xliff

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

func sample() *segment.Document {
	return &segment.Document{Format: "docx", Units: []segment.Unit{
		{ID: "word/document.xml#p1", Codes: []segment.Code{{ID: 1, Kind: segment.Paired, Type: "fmt"}, {ID: 2, Kind: segment.Isolated, Type: "tab"}},
			Segments: []segment.Segment{
				{ID: "word/document.xml#p1:0", Source: `Hello <g id="1">bold</g> world &amp; co.`, Target: `Hola <g id="1">negrita</g> mundo &amp; co.`},
				{ID: "word/document.xml#p1:1", Source: `Tab<x id="2"/>here.`, Target: `Tab<x id="2"/>aquí.`},
			}},
		{ID: "word/document.xml#p2", Segments: []segment.Segment{{ID: "word/document.xml#p2:0", Source: "Second", Target: "Segundo"}}},
	}}
}

var meta = ports.BilingualMeta{JobID: "0b7c9a7e-1111-4222-8333-444455556666", SourceLang: "en", TargetLang: "es", Warnings: []string{"a <warning>"}}

func export(t *testing.T, version string) string {
	t.Helper()
	var b bytes.Buffer
	if err := (Codec{}).Export(&b, sample(), meta, version); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRoundTripBothVersions(t *testing.T) {
	for _, v := range []string{"2.1", "1.2"} {
		x := export(t, v)
		if v == "2.1" && (!strings.Contains(x, `<pc id="1" type="fmt">bold</pc>`) || !strings.Contains(x, `<ph id="2"/>`) || !strings.Contains(x, `category="warning">a &lt;warning&gt;</note>`)) {
			t.Fatalf("2.1 export:\n%s", x)
		}
		if v == "1.2" && (!strings.Contains(x, `<g id="1">bold</g>`) || !strings.Contains(x, `<x id="2"/>`)) {
			t.Fatalf("1.2 export:\n%s", x)
		}
		edited := strings.Replace(x, "negrita", "NEGRITA", 1)
		doc := sample()
		if err := (Codec{}).Import(strings.NewReader(edited), doc, &meta); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if got := doc.Units[0].Segments[0].Target; got != `Hola <g id="1">NEGRITA</g> mundo &amp; co.` {
			t.Fatalf("%s: target %q", v, got)
		}
		if got := doc.Units[0].Segments[1].Target; got != `Tab<x id="2"/>aquí.` {
			t.Fatalf("%s: target %q", v, got)
		}
	}
}

func TestRefusals(t *testing.T) {
	x21, x12 := export(t, "2.1"), export(t, "1.2")
	cases := []struct{ name, in, want string }{
		{"not well-formed", strings.Replace(x21, "</source>", "", 1), "not well-formed"},
		{"dtd", strings.Replace(x21, "<xliff ", `<!DOCTYPE xliff [<!ENTITY a "aaaa">]><xliff `, 1), "document type declaration"},
		{"entity", strings.Replace(x21, "Segundo", "&a;", 1), "not well-formed"},
		{"other job", strings.ReplaceAll(x21, meta.JobID, "99999999-1111-4222-8333-444455556666"), "belongs to job 99999999"},
		{"no job", strings.Replace(x12, `original="dragoman:job:`, `original="x`, 1), "does not name job"},
		{"missing unit", strings.Replace(x21, `<segment id="s0" state="translated">
     <source>Second</source>
     <target>Segundo</target>
    </segment>`, "", 1), "unit u2 (word/document.xml#p2), segment s0 is missing"},
		{"extra unit", strings.Replace(x21, "</group>\n </file>", "</group>\n<unit id=\"u9.s0\"><segment id=\"s0\"><source>x</source><target>y</target></segment></unit>\n </file>", 1), "unit u9.s0 is not part of job"},
		{"dropped code", strings.Replace(x21, `<pc id="1" type="fmt">negrita</pc>`, "negrita", 1), `unit u1 (word/document.xml#p1), segment s0: the target's inline codes do not match the source's: missing <pc id="1">`},
		{"kind changed", strings.Replace(x12, `Tab<x id="2"/>aquí.`, `Tab<g id="2">aquí.</g>`, 1), `missing <x id="2"/>; unexpected <g id="2">`},
		{"foreign code", strings.Replace(x12, `<g id="1">negrita</g>`, `<bpt id="1">b</bpt>negrita`, 1), "inline element <bpt>"},
		{"empty target", strings.Replace(x21, "<target>Segundo</target>", "<target></target>", 1), "empty target"},
		{"no target", strings.Replace(x21, "<target>Segundo</target>", "", 1), "has no <target>"},
		{"not xliff", "<html/>", "not XLIFF 2.x"},
	}
	for _, c := range cases {
		err := (Codec{}).Import(strings.NewReader(c.in), sample(), &meta)
		if err == nil || !errors.Is(err, ports.ErrBadBilingual) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	big := strings.Replace(x21, "Segundo", strings.Repeat("a", 2<<20), 1)
	if err := (Codec{MaxBytes: 1 << 20}).Import(strings.NewReader(big), sample(), &meta); err == nil || !strings.Contains(err.Error(), "larger than 1 MB") {
		t.Errorf("oversized: %v", err)
	}
	deep := strings.Replace(x21, "<target>Segundo</target>", "<target>"+strings.Repeat("<mrk>", 100)+"x"+strings.Repeat("</mrk>", 100)+"</target>", 1)
	if err := (Codec{}).Import(strings.NewReader(deep), sample(), &meta); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("deep: %v", err)
	}
}

// FuzzImport: whatever arrives, the import answers with the targets set
// or a refusal, never a panic, and never half-applies a refused file.
func FuzzImport(f *testing.F) {
	var b bytes.Buffer
	(Codec{}).Export(&b, sample(), meta, "2.1")
	f.Add(b.String())
	b.Reset()
	(Codec{}).Export(&b, sample(), meta, "1.2")
	f.Add(b.String())
	f.Add(`<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="x"><body><trans-unit id="u1.s0"><target><g id="1"><x id="2"/></g></target></trans-unit></body></file></xliff>`)
	f.Fuzz(func(t *testing.T, in string) {
		doc := sample()
		err := (Codec{MaxBytes: 1 << 20}).Import(strings.NewReader(in), doc, &meta)
		if err != nil {
			if !errors.Is(err, ports.ErrBadBilingual) {
				t.Fatalf("error outside ErrBadBilingual: %v", err)
			}
			if got, want := doc.Units[0].Segments[0].Target, sample().Units[0].Segments[0].Target; got != want {
				t.Fatalf("a refused file changed a target to %q", got)
			}
		}
	})
}

// A file says which revision of the job it was exported from, and the
// import reads it back (0 for a file that does not say).
func TestTheRevisionTravelsWithTheFile(t *testing.T) {
	for _, v := range []string{"2.1", "1.2"} {
		m := meta
		m.Revision = 3
		var b bytes.Buffer
		if err := (Codec{}).Export(&b, sample(), m, v); err != nil {
			t.Fatal(err)
		}
		got := meta
		if err := (Codec{}).Import(bytes.NewReader(b.Bytes()), sample(), &got); err != nil || got.Revision != 3 {
			t.Errorf("%s: revision %d (%v), want 3", v, got.Revision, err)
		}
		old := strings.Replace(b.String(), "revision 3", "", 1)
		got.Revision = 9
		if err := (Codec{}).Import(strings.NewReader(old), sample(), &got); err != nil || got.Revision != 0 {
			t.Errorf("%s: a file naming no revision: %d (%v), want 0", v, got.Revision, err)
		}
	}
}
