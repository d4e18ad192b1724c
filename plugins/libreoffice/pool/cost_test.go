package pool

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A package's parts are found by its relationships and manifest, not by
// their names: a .docx whose main part is word/body.dat, or an .odt whose
// tables sit in an embedded object's content, holds the same nested
// tables as one whose part is named as usual, and must be measured alike
// (word/*.xml alone were: 3,000 nested tables in word/body.dat went to
// LibreOffice, bounded only by the processor budget).
func TestMeasureFindsTablesInAnyXMLPart(t *testing.T) {
	dir := t.TempDir()
	tables := strings.Repeat(`<w:tbl><w:tr><w:tc>`, 100) + `<w:p/>` + strings.Repeat(`</w:tc></w:tr></w:tbl>`, 100)
	for _, tc := range []struct {
		kind Kind
		part string
		body string
	}{
		{DOCX, "word/body.dat", `<?xml version="1.0"?><w:document xmlns:w="w"><w:body>` + tables + `</w:body></w:document>`},
		{DOCX, "main.xml", `<w:document xmlns:w="w"><w:body>` + tables + `</w:body></w:document>`},
		{ODT, "Object 1/content.xml", `<office:document-content><office:body><office:text>` +
			strings.Repeat(`<table:table><table:table-row><table:table-cell>`, 100) + `</office:text></office:body></office:document-content>`},
	} {
		path := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(tc.part)+"."+tc.kind.Ext)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		w, _ := zw.Create("media/image1.png")
		io.WriteString(w, "\x89PNG\r\n\x1a\n<<<<<<<<<<<<<<<<<<<<") // not XML: never measured
		w, _ = zw.Create(tc.part)
		io.WriteString(w, tc.body)
		zw.Close()
		f.Close()
		c, err := measure(path, tc.kind, 0)
		if reasonOf(err) != TooComplex || c.tables <= MaxTableNesting {
			t.Errorf("%s in %s: %+v %v, want refused as too complex", tc.kind.Name, tc.part, c, err)
		}
	}
}

// No document of the shared corpus is past the caps: the measure refuses
// nothing LibreOffice converts in reasonable time.
func TestCorpusIsWithinTheCaps(t *testing.T) {
	var n int
	for _, k := range []Kind{ODT, DOCX, RTF} {
		files, _ := filepath.Glob(filepath.Join(corpus, "*", "*."+k.Ext))
		shared, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "corpus", "*", "*."+k.Ext))
		for _, f := range append(files, shared...) {
			if strings.Contains(f, "/bad/") {
				continue
			}
			n++
			if c, err := measure(f, k, 0); err != nil {
				t.Errorf("%s: %+v %v", f, c, err)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d corpus documents found (%s and ../shared/corpus)", n, corpus)
	}
}
