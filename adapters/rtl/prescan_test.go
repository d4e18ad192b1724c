package rtl

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// ltrBody is English text in paragraphs, a table and a run with direct
// formatting: nothing right to left.
const ltrBody = `<w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>Hello world, 2024 &amp; more.</w:t></w:r></w:p>` +
	`<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t xml:space="preserve">Café — naïve </w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
	`<w:p><w:r><w:t>Ελληνικά и русский 日本語</w:t></w:r></w:p>`

// TestLTRJobBuildsNoTree: an English→Spanish job on a document with
// nothing right to left is decided by the streaming pre-scan, with no part
// parsed into a tree, and reports and writes what the tree scan did: no
// report, the document as it came (issue 15 item 3).
func TestLTRJobBuildsNoTree(t *testing.T) {
	doc := styledDocx(t, ltrBody)
	for _, src := range []string{"en", ""} {
		req := ports.LayoutRequest{SourceLang: src, TargetLang: "es"}
		var parsed []string
		l := New(Options{})
		l.onParse = func(name string, _ int) { parsed = append(parsed, name) }

		rep, err := l.Estimate(context.Background(), newBlob(doc), req)
		if err != nil || rep != nil {
			t.Fatalf("Estimate %q→es: %+v, %v; want nil, nil", src, rep, err)
		}
		var out bytes.Buffer
		rep, err = l.Apply(context.Background(), newBlob(doc), req, &out)
		if err != nil || rep != nil {
			t.Fatalf("Apply %q→es: %+v, %v; want nil, nil", src, rep, err)
		}
		if !bytes.Equal(out.Bytes(), doc) {
			t.Errorf("Apply %q→es did not copy the document as it came", src)
		}
		if len(parsed) > 0 {
			t.Errorf("%q→es on an LTR document parsed %v into trees; the pre-scan should decide without", src, parsed)
		}
		// A render's layout, shown the blocks of the read, decides the same
		// and parses no story whole.
		parsed = nil
		op, err := ooxml.Open(bytes.NewReader(doc), int64(len(doc)))
		if err != nil {
			t.Fatal(err)
		}
		d, err := l.Begin(op)
		if err != nil {
			t.Fatal(err)
		}
		s := &ooxml.StoryStream{Block: func(b *ooxml.Block) error { d.Observe(op.Main(), b, nil); return nil }}
		if err := op.Stream(op.File(op.Main()), nil, ooxml.Edit{Story: s}); err != nil {
			t.Fatal(err)
		}
		if ok, err := d.Prepare(req, nil); ok || err != nil || d.Report() != nil {
			t.Fatalf("Doc %q→es: lays out %v, %v; want nothing to lay out", src, ok, err)
		}
		parsed = slices.DeleteFunc(parsed, func(n string) bool { return n == "word/styles.xml" })
		if len(parsed) > 0 {
			t.Errorf("%q→es on an LTR document parsed %v into trees; the pre-scan should decide without", src, parsed)
		}
	}
}

// TestPrescanDefersToTheTree: whatever could make the job relevant sends it
// to the tree scan, and a right-to-left target always does.
func TestPrescanDefersToTheTree(t *testing.T) {
	normal := `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>`
	for name, c := range map[string]struct{ body, styles, to string }{
		"paragraph bidi":    {`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Hello</w:t></w:r></w:p>`, normal, "es"},
		"bidi off":          {`<w:p><w:pPr><w:bidi w:val="0"/></w:pPr><w:r><w:t>Hello</w:t></w:r></w:p>`, normal, "es"},
		"run rtl":           {`<w:p><w:r><w:rPr><w:rtl/></w:rPr><w:t>Hello</w:t></w:r></w:p>`, normal, "es"},
		"bidiVisual":        {`<w:tbl><w:tblPr><w:bidiVisual/></w:tblPr><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl>`, normal, "es"},
		"section bidi":      {`<w:p><w:pPr><w:sectPr><w:bidi/></w:sectPr></w:pPr></w:p>`, normal, "es"},
		"Hebrew letter":     {`<w:p><w:r><w:t>Hello שלום</w:t></w:r></w:p>`, normal, "es"},
		"Arabic by ref":     {`<w:p><w:r><w:t>Hello &#x627;</w:t></w:r></w:p>`, normal, "es"},
		"Syriac":            {`<w:p><w:r><w:t>ܐ</w:t></w:r></w:p>`, normal, "es"},
		"bidi in styles":    {`<w:p><w:r><w:t>Hello</w:t></w:r></w:p>`, `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:pPr><w:bidi/></w:pPr></w:style>`, "es"},
		"RTL target":        {ltrBody, normal, "ar"},
		"RTL target Hebrew": {ltrBody, normal, "he"},
		"RTL source to LTR": {ltrBody, normal, "es"}, // source "ar" below
	} {
		src := "en"
		if name == "RTL source to LTR" {
			src = "ar"
		}
		doc := styledDocxWith(t, c.body, c.styles)
		pk, err := openPkg(newBlob(doc))
		if err != nil {
			t.Fatal(err)
		}
		if New(Options{}).nothingToDo(pk, ports.LayoutRequest{SourceLang: src, TargetLang: c.to}) {
			t.Errorf("%s: the pre-scan skipped a job that may need layout", name)
		}
	}
	if found, err := hasDirection(strings.NewReader(`<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>plain &lt;text&gt;</w:t></w:r></w:p></w:body></w:document>`)); err != nil || found {
		t.Errorf("plain text: found=%v err=%v", found, err)
	}
}

// TestPrescanAgreesWithTreeScan: on every corpus document, in both
// directions, a job the pre-scan skips is one the tree scan finds
// irrelevant (nil report, document copied), so skipping changes nothing.
func TestPrescanAgreesWithTreeScan(t *testing.T) {
	l := New(Options{})
	skipped := 0
	for _, dir := range []string{"ltr", "rtl"} {
		for _, p := range corpus(t, dir) {
			for _, req := range []ports.LayoutRequest{{SourceLang: "en", TargetLang: "es"}, {SourceLang: "", TargetLang: "fr"}} {
				doc := read(t, p)
				pk, err := openPkg(newBlob(doc))
				if err != nil {
					continue // the layout refuses it either way
				}
				if !l.nothingToDo(pk, req) {
					continue
				}
				skipped++
				tpk, ps, err := l.prepare(newBlob(doc), req)
				if err != nil {
					t.Errorf("%s: the pre-scan skipped a document the tree scan refuses: %v", filepath.Base(p), err)
					continue
				}
				if _, relevant, err := l.inventory(tpk, ps); err != nil || relevant {
					t.Errorf("%s %q→%s: the pre-scan skipped a job the tree scan finds relevant (err %v)", filepath.Base(p), req.SourceLang, req.TargetLang, err)
				}
			}
		}
	}
	if skipped == 0 {
		t.Error("the pre-scan skipped no corpus document: it decides nothing")
	}
	t.Logf("%d corpus jobs decided without trees", skipped)
}

// TestStoriesOneTreeAtATime: a job that needs layout parses each story
// part while holding no other story's tree (the peak is the largest part,
// not the sum), and writes what laying out every part first wrote.
func TestStoriesOneTreeAtATime(t *testing.T) {
	multi := 0
	for _, dir := range []string{"ltr", "rtl"} {
		for _, p := range corpus(t, dir) {
			doc := read(t, p)
			pk, err := openPkg(newBlob(doc))
			if err != nil || len(pk.stories) < 2 {
				continue
			}
			multi++
			req := ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}
			if dir == "rtl" {
				req = ports.LayoutRequest{SourceLang: "ar", TargetLang: "en"}
			}
			l := New(Options{})
			stories := 0
			l.onParse = func(name string, held int) {
				if pk.story[name] {
					stories++
					if held > 0 {
						t.Errorf("%s: parsing %s while %d other story trees are held", filepath.Base(p), name, held)
					}
				}
			}
			var got bytes.Buffer
			if _, err := l.Apply(context.Background(), newBlob(doc), req, &got); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if stories == 0 {
				t.Errorf("%s: no story parsed", filepath.Base(p))
			}
			// Every part laid out first, then written: the old order.
			l.onParse = nil
			epk, ps, err := l.prepare(newBlob(doc), req)
			if err != nil {
				t.Fatal(err)
			}
			f, _, err := l.inventory(epk, ps)
			if err != nil {
				t.Fatal(err)
			}
			if err := ps.convert(epk, f); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := epk.write(&want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s: laying out story by story wrote a different package", filepath.Base(p))
			}
		}
	}
	if multi == 0 {
		t.Fatal("no corpus document with more than one story part")
	}
}
