package rtl

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// TestStreamedLayoutMatchesWholeTree: laying out story parts block by block
// (issue 15 item 3) writes, on every test document, in both directions and
// in the same direction, the package the whole-tree layout wrote, and
// reads the same direction, page geometry and report findings as scans of
// whole trees.
func TestStreamedLayoutMatchesWholeTree(t *testing.T) {
	type job struct {
		path string
		doc  []byte
		req  ports.LayoutRequest
	}
	var jobs []job
	for _, p := range corpus(t, "ltr") {
		doc := read(t, p)
		jobs = append(jobs,
			job{p, pseudoTranslate(t, doc, "ar"), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "", TargetLang: "he"}})
	}
	for _, p := range append(corpus(t, "rtl"), testDoc("synthetic/bookfold-gutter.docx")) {
		doc := read(t, p)
		jobs = append(jobs,
			job{p, pseudoTranslate(t, doc, "en"), ports.LayoutRequest{SourceLang: "ar", TargetLang: "en"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "ar", TargetLang: "fa"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "", TargetLang: "fr"}})
	}
	l := New(Options{Coverage: KnownFonts{}})
	compared := 0
	for _, j := range jobs {
		name := fmt.Sprintf("%s %q→%s", filepath.Base(j.path), j.req.SourceLang, j.req.TargetLang)
		var got bytes.Buffer
		rep, err := l.Apply(context.Background(), newBlob(j.doc), j.req, &got)
		if err != nil {
			if _, _, perr := l.prepare(newBlob(j.doc), j.req); perr == nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		pk, ps, err := l.prepare(newBlob(j.doc), j.req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The direction and geometry, scanned on whole trees.
		var d docDirection
		he := false
		for _, s := range pk.stories {
			root, err := pk.part(s)
			if err != nil {
				t.Fatal(err)
			}
			if s == pk.mainDoc {
				if g, _ := geomOf(root.RootElem()); g != ps.geom {
					t.Errorf("%s: page geometry %+v streamed, %+v from the tree", name, ps.geom, g)
				}
			}
			d.scan(root.RootElem(), ps.styles, &he)
		}
		d.scriptLang = map[bool]string{true: "he", false: ""}[he]
		if !he && d.rtlLetters > 0 {
			d.scriptLang = "ar"
		}
		if d != ps.doc {
			t.Errorf("%s: direction %+v streamed, %+v from the trees", name, ps.doc, d)
		}
		if rep == nil {
			if !bytes.Equal(got.Bytes(), j.doc) {
				t.Errorf("%s: no report, yet the document was changed", name)
			}
			continue
		}
		// The findings, counted on whole trees.
		f, _, err := l.inventory(pk, ps)
		if err != nil {
			t.Fatal(err)
		}
		if ps.m.flip {
			tf := newFindings()
			for _, s := range pk.stories {
				root, err := pk.part(s)
				if err != nil {
					t.Fatal(err)
				}
				tf.scanStory(root.RootElem(), ps)
			}
			for k := kindFloats; k < kindSubstitution; k++ {
				// fonts, numbering bullets and settings are counted
				// outside the stories too
				outside := k == kindFont || k == kindArrowBullet || k == kindBookFold
				if f.count[k] != tf.count[k] && !(outside && f.count[k] > tf.count[k]) {
					t.Errorf("%s: %d findings of kind %d streamed, %d in the trees", name, f.count[k], k, tf.count[k])
				}
			}
		}
		// The package, every story laid out as one tree.
		if err := ps.convert(pk, f); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := pk.write(&want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			w, g := entries(t, want.Bytes()), entries(t, got.Bytes())
			for _, e := range slices.Sorted(maps.Keys(w)) {
				if w[e] != g[e] {
					t.Errorf("%s: %s differs between the streamed and the whole-tree layout", name, e)
				}
			}
		}
		compared++
	}
	if compared < len(jobs)/2 {
		t.Fatalf("only %d of %d jobs laid out and compared", compared, len(jobs))
	}
	t.Logf("%d of %d jobs compared", compared, len(jobs))
}
