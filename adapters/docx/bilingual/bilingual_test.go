package bilingual

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// blob is a document in memory as the ports hand it over.
type blob struct{ *bytes.Reader }

func (blob) Close() error  { return nil }
func (b blob) Size() int64 { return b.Reader.Size() }

func blobOf(b []byte) blob { return blob{bytes.NewReader(b)} }

// translate assembles src with every segment upper-cased: a translation
// that keeps the source's structure, as the engines' does.
func translate(t *testing.T, src []byte) []byte {
	t.Helper()
	ctx := context.Background()
	var units []segment.Unit
	doc, err := docx.New(nil).Read(ctx, blobOf(src), func(us []segment.Unit) error {
		units = append(units, us...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	d := segment.Document{Units: units}
	d.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		toks := tagged.Tokenize(s.Source)
		for i := range toks {
			if toks[i].Kind == tagged.Text {
				toks[i].Text = strings.ToUpper(toks[i].Text)
			}
		}
		s.Target = tagged.Render(toks)
	})
	i := 0
	next := func() (*segment.Unit, error) {
		if i == len(units) {
			return nil, io.EOF
		}
		i++
		return &units[i-1], nil
	}
	var out bytes.Buffer
	if _, err := doc.Render(ctx, next, ports.LayoutRequest{}, &out); err != nil { // no layout: as the pass renders it for the composer
		t.Fatal(err)
	}
	return out.Bytes()
}

func compose(t *testing.T, path string) (src []byte, body *ooxml.Node, pk *ooxml.Package) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body, pk = composeBytes(t, src)
	return src, body, pk
}

// composeBytes composes document src beside its upper-cased translation.
func composeBytes(t *testing.T, src []byte) (body *ooxml.Node, pk *ooxml.Package) {
	t.Helper()
	var out bytes.Buffer
	if err := (Composer{}).Compose(context.Background(), blobOf(src), blobOf(translate(t, src)), &out); err != nil {
		t.Fatal(err)
	}
	pk, err := ooxml.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pk.ReadPart(pk.Main())
	doc, err := ooxml.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return bodyOf(doc), pk
}

func text(n *ooxml.Node) string {
	var s strings.Builder
	for _, t := range n.FindAllW("t") {
		s.WriteString(t.TextOf())
	}
	return s.String()
}

// Every source paragraph sits beside its translation in a row of a
// two-column table; the final section properties stay last.
func TestSourceBesideTranslation(t *testing.T) {
	_, body, _ := compose(t, "../../../testdata/e2e/english.docx")
	tables := body.ChildrenW("tbl")
	if len(tables) != 1 {
		t.Fatalf("%d tables in the body, want 1", len(tables))
	}
	rows := tables[0].ChildrenW("tr")
	withText := 0
	for _, r := range rows {
		cells := r.ChildrenW("tc")
		if len(cells) != 2 {
			t.Fatalf("a row of %d cells", len(cells))
		}
		s, tr := text(cells[0]), text(cells[1])
		if s != "" {
			withText++
			if tr != strings.ToUpper(s) {
				t.Errorf("row: %q beside %q", s, tr)
			}
		}
	}
	if withText < 3 {
		t.Errorf("%d rows with text", withText)
	}
	last := elems(body)
	if !last[len(last)-1].IsW("sectPr") {
		t.Errorf("the body ends with %s, not sectPr", last[len(last)-1].Local)
	}
}

// Lists: the source column's items use a list of their own (a copy of the
// definition), so neither column continues the other's numbers; a note is
// referenced once, from the translation.
func TestListsAndNotesOfTheSourceColumn(t *testing.T) {
	_, body, pk := compose(t, "../../../testdata/corpus/docx/aspose-Footnotes_and_endnotes.docx")
	rows := body.FindAllW("tr")
	srcRefs, tgtRefs := 0, 0
	for _, r := range rows {
		cells := r.ChildrenW("tc")
		if len(cells) != 2 {
			continue
		}
		srcRefs += len(cells[0].FindAllW("footnoteReference")) + len(cells[0].FindAllW("endnoteReference"))
		tgtRefs += len(cells[1].FindAllW("footnoteReference")) + len(cells[1].FindAllW("endnoteReference"))
	}
	if tgtRefs == 0 || srcRefs != 0 {
		t.Errorf("note references: %d in the source column, %d in the translation's", srcRefs, tgtRefs)
	}
	ids := map[string]int{}
	body.Walk(func(k *ooxml.Node) bool {
		if k.Is("docPr", nsWP) {
			ids[k.AttrOr("id", "")]++
		}
		return true
	})
	for id, n := range ids {
		if n > 1 {
			t.Errorf("drawing id %s used %d times", id, n)
		}
	}
	_ = pk
}

// The source column's lists are lists of their own, defined in the
// numbering part beside the translation's.
func TestSourceListsCountApart(t *testing.T) {
	_, body, pk := compose(t, "../../../testdata/corpus/docx/docx4j-Docx4j_GettingStarted.docx")
	src, tgt := map[string]bool{}, map[string]bool{}
	for _, r := range body.FindAllW("tr") {
		cells := r.ChildrenW("tc")
		if len(cells) != 2 {
			continue
		}
		for i, set := range []map[string]bool{src, tgt} {
			for _, n := range cells[i].FindAllW("numId") {
				if v := n.AttrOr("val", ""); v != "0" {
					set[v] = true
				}
			}
		}
	}
	if len(src) == 0 || len(tgt) == 0 {
		t.Fatalf("lists: source %v, translation %v", src, tgt)
	}
	b, _ := pk.ReadPart("word/numbering.xml")
	num, err := ooxml.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, n := range num.RootElem().ChildrenW("num") {
		defined[n.AttrOr("numId", "")] = true
	}
	for id := range src {
		if tgt[id] {
			t.Errorf("list %s is used by both columns", id)
		}
		if !defined[id] {
			t.Errorf("the source column's list %s is not defined", id)
		}
	}
}

// Tab stops set for the page (a table of contents' right tab with its dot
// leader at the page's text width) are brought into the column: past the
// cell they pushed the entries off the page in a right-to-left column and
// the leaders past its edge in the other.
func TestTabStopsFitTheColumn(t *testing.T) {
	src, body, _ := compose(t, "../../../testdata/corpus/docx/aspose-Formatted_elements.docx")
	sp, err := ooxml.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	if main, _ := sp.ReadPart(sp.Main()); !bytes.Contains(main, []byte(`w:pos="9345"`)) {
		t.Fatal("the source has lost its table of contents' right tab at 9345 twips")
	}
	tables := body.ChildrenW("tbl")
	if len(tables) == 0 {
		t.Fatal("no table in the bilingual body")
	}
	tabs := 0
	for _, tbl := range tables {
		cols := tbl.Child("tblGrid").ChildrenW("gridCol")
		room := atoi(cols[0].AttrOr("w", ""), 0) - 2*cellMargin
		for _, tab := range tbl.FindAllW("tab") {
			if tab.Parent == nil || !tab.Parent.IsW("tabs") || tab.AttrOr("val", "") == "clear" {
				continue
			}
			tabs++
			if pos := atoi(tab.AttrOr("pos", ""), 0); pos > room {
				t.Errorf("a %s tab stop at %d twips in a column with %d twips of text width", tab.AttrOr("val", ""), pos, room)
			}
		}
	}
	if tabs < 8 { // the table of contents' four entries, in both columns
		t.Errorf("%d tab stops in the bilingual table, want the table of contents' in both columns", tabs)
	}
}
