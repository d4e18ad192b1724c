package rtl

import (
	"archive/zip"
	"bytes"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// blob is an in-memory ports.Blob.
type blob struct{ *bytes.Reader }

func (blob) Close() error { return nil }

func newBlob(b []byte) blob { return blob{bytes.NewReader(b)} }

var words = map[string][]string{
	"ar": {"الوثيقة", "ترجمة", "جدول", "النص", "فقرة", "عنوان", "الصفحة", "مثال", "القسم", "الملاحظة"},
	"fa": {"سند", "ترجمه", "جدول", "متن", "بند", "عنوان", "صفحه", "نمونه", "بخش", "یادداشت"},
	"ur": {"دستاویز", "ترجمہ", "جدول", "متن", "پیراگراف", "عنوان", "صفحہ", "مثال", "حصہ", "نوٹ"},
	"he": {"מסמך", "תרגום", "טבלה", "טקסט", "פסקה", "כותרת", "עמוד", "דוגמה", "סעיף", "הערה"},
	"en": {"document", "translation", "table", "text", "paragraph", "title", "page", "example", "section", "note"},
}

// Markers the render check looks for: palindromes survive visual reordering.
const (
	markFirstCell = "71117"
	markLastCell  = "82228"
	markCols      = "63336"
)

// pseudoTranslate stands in for the translation pipeline: it replaces
// every word of the source script in w:t by a target word (acronyms stay
// Latin, so paragraphs mix scripts), and marks the first and last cell of
// each top-level table's first row and the first paragraph of a
// multi-column section for the render check.
func pseudoTranslate(t testing.TB, docx []byte, target string) []byte {
	t.Helper()
	pk, err := ooxml.Open(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	toRTL := target != "en"
	for _, f := range pk.Files() {
		if pk.Kind(f) != ooxml.Story {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		root, err := ooxml.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		root.RootElem().Walk(func(n *node) bool {
			if n.IsW("t") {
				n.SetText(translateText(n.TextOf(), target, toRTL))
			}
			return true
		})
		if f.Name == "word/document.xml" {
			markTables(root)
			markColumns(root)
		}
		w, _ := zw.Create(f.Name)
		if err := ooxml.WriteTree(w, root); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	return out.Bytes()
}

// sameDirection makes pseudoTranslate replace every word (RTL→RTL,
// LTR→LTR tests); set only by tests that do not run in parallel with others.
var sameDirection bool

func translateText(s, target string, toRTL bool) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.Is(unicode.Mn, rs[j])) {
			j++
		}
		w := string(rs[i:j])
		source := inRTLBlock(rs[i]) != toRTL || sameDirection
		if source && !(toRTL && len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w) {
			h := fnv.New32a()
			h.Write([]byte(w))
			list := words[target]
			w = list[int(h.Sum32())%len(list)]
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

func firstT(n *node) *node {
	var t *node
	n.Walk(func(c *node) bool {
		if t == nil && c.IsW("t") {
			t = c
		}
		return t == nil
	})
	return t
}

func markTables(root *node) {
	body := root.RootElem().Child("body")
	for _, tbl := range body.ChildrenW("tbl") {
		for _, tr := range tbl.ChildrenW("tr") {
			cells := tr.ChildrenW("tc")
			if len(cells) < 2 {
				continue
			}
			a, z := firstT(cells[0]), firstT(cells[len(cells)-1])
			if a == nil || z == nil {
				continue
			}
			a.SetText(a.TextOf() + " " + markFirstCell)
			z.SetText(z.TextOf() + " " + markLastCell)
			break
		}
	}
}

// markColumns marks the first text paragraph of the first section with
// more than one column.
func markColumns(root *node) {
	body := root.RootElem().Child("body")
	var start []*node // paragraphs of the current section
	for _, c := range body.Children {
		if c.IsW("p") {
			start = append(start, c)
			if s := c.Child("pPr").Child("sectPr"); s != nil {
				if columns(s) && markFirst(start) {
					return
				}
				start = nil
			}
		}
		if c.IsW("sectPr") && columns(c) {
			markFirst(start)
		}
	}
}

func columns(s *node) bool {
	n := s.Child("cols").AttrOr("num", "1")
	return n != "1" && n != "0"
}

func markFirst(ps []*node) bool {
	for _, p := range ps {
		if t := firstT(p); t != nil && strings.TrimSpace(t.TextOf()) != "" {
			t.SetText(t.TextOf() + " " + markCols)
			return true
		}
	}
	return false
}

// testDoc maps a test document name to its file. "ltr/X" and "rtl/X" are
// the shared corpus's docx/ and rtl/ folders (testdata/corpus); other
// names (synthetic/X) are documents made for these tests, in testdata/rtl.
func testDoc(name string) string {
	dir, file, _ := strings.Cut(name, "/")
	switch dir {
	case "ltr":
		return filepath.Join("..", "..", "testdata", "corpus", "docx", file)
	case "rtl":
		return filepath.Join("..", "..", "testdata", "corpus", "rtl", file)
	}
	return filepath.Join("..", "..", "testdata", "rtl", name)
}

// corpus lists the .docx/.docm documents of "ltr" or "rtl" (see testDoc).
func corpus(t testing.TB, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(testDoc(dir + "/*.doc[xm]"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no test documents for %s: %v", dir, err)
	}
	return m
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
