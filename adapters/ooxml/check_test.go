package ooxml

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

type memBlob struct{ *bytes.Reader }

func (memBlob) Close() error { return nil }

func check(data []byte) error {
	return Checker{}.CheckPackage(context.Background(), memBlob{bytes.NewReader(data)})
}

// withPart is a small package with the part name's content replaced.
func withPart(t *testing.T, name, content string) []byte {
	t.Helper()
	parts := []entry{
		{"word/document.xml", body}, {"word/header1.xml", body}, {"word/styles.xml", `<w:styles xmlns:w="` + NSW + `"/>`},
		{"word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>`},
		{"word/media/image1.png", "<!DOCTYPE png: media are copied, never parsed>"},
	}
	for i := range parts {
		if parts[i].name == name {
			parts[i].body = content
		}
	}
	return build(t, map[string]string{"word/document.xml": ctMain, "word/styles.xml": ctStyles, "word/header1.xml": ctHeader}, parts, nil)
}

// Every XML part is read with the pipeline's parser at upload: a DTD,
// nesting past 4,096, an undefined entity or a malformed part anywhere is
// refused naming the part (issue 26: a DTD in styles.xml failed the job at
// layout after ten attempts).
func TestCheckerRefusesWhatThePipelineCannotParse(t *testing.T) {
	if err := check(withPart(t, "", "")); err != nil {
		t.Fatalf("clean package: %v", err)
	}
	deep := strings.Repeat("<w:tbl>", maxDepth+1) + strings.Repeat("</w:tbl>", maxDepth+1)
	for _, tc := range []struct{ part, content, says string }{
		{"word/styles.xml", `<?xml version="1.0"?><!DOCTYPE w:styles [<!ENTITY a "aaaa">]><w:styles xmlns:w="` + NSW + `"/>`, "DTD"},
		{"word/document.xml", `<w:document xmlns:w="` + NSW + `"><w:body>` + deep + `</w:body></w:document>`, "nested more than 4096"},
		{"word/header1.xml", `<w:hdr xmlns:w="` + NSW + `"><w:p><w:r><w:t>&lol;</w:t></w:r></w:p></w:hdr>`, "entity"},
		{"word/_rels/document.xml.rels", `<Relationships><Relationship Id="a" Target=x/></Relationships>`, ""},
		{"word/styles.xml", `<w:styles xmlns:w="` + NSW + `"><w:style>`, ""},
	} {
		err := check(withPart(t, tc.part, tc.content))
		if !errors.Is(err, ports.ErrBadPackage) || !strings.Contains(err.Error(), "part "+tc.part) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s (%s): %v", tc.part, tc.says, err)
		}
	}
	// Nesting of exactly maxDepth is what the pipeline takes.
	ok := strings.Repeat("<w:tbl>", maxDepth-3) + strings.Repeat("</w:tbl>", maxDepth-3)
	if err := check(withPart(t, "word/document.xml", `<w:document xmlns:w="`+NSW+`"><w:body>`+ok+`</w:body></w:document>`)); err != nil {
		t.Errorf("nesting within the limit: %v", err)
	}
}

// A part is XML by its declared content type as much as by its name: the
// pipeline finds the main document (and every story) by content type, so
// a main part named word/body.dat holding a DTD, or a header named .bin
// too large for an XML part, is refused at upload like word/document.xml.
func TestCheckerReadsPartsDeclaredXMLWhateverTheirName(t *testing.T) {
	const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/body.dat"/></Relationships>`
	dtd := `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaa">]>` + body[len(`<?xml version="1.0"?>`):]
	data := build(t, map[string]string{"word/body.dat": ctMain}, []entry{{"_rels/.rels", rels}, {"word/body.dat", dtd}}, nil)
	if _, err := openBytes(data); err != nil {
		t.Fatalf("the pipeline opens the package: %v", err)
	}
	if err := check(data); !errors.Is(err, ports.ErrBadPackage) || !strings.Contains(err.Error(), "part word/body.dat") {
		t.Errorf("a DTD in a main part not named .xml: %v", err)
	}
	// A header declared larger than an XML part may be (its stored bytes
	// within the ratio limit), named .bin: refused by its declared size.
	data = build(t, map[string]string{"word/body.dat": ctMain, "word/header1.bin": ctHeader},
		[]entry{{"_rels/.rels", rels}, {"word/body.dat", body}}, func(zw *zip.Writer) {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: "word/header1.bin", Method: zip.Store,
				CompressedSize64: MaxXMLPart / 100, UncompressedSize64: MaxXMLPart + 1})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(make([]byte, MaxXMLPart/100))
		})
	if err := check(data); !errors.Is(err, ports.ErrBadPackage) || !strings.Contains(err.Error(), "part word/header1.bin") {
		t.Errorf("a header over the XML part limit, not named .xml: %v", err)
	}
	if err := check(build(t, map[string]string{"word/body.dat": ctMain}, []entry{{"_rels/.rels", rels}, {"word/body.dat", body}}, nil)); err != nil {
		t.Errorf("a clean main part not named .xml: %v", err)
	}
}

// Every .docx of the shared corpus passes the check: it refuses nothing
// the pipeline translates.
func TestCheckerPassesTheCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/*/*.docx")
	if len(files) < 40 {
		t.Fatalf("corpus: %d .docx files found beside the repository (../shared/corpus)", len(files))
	}
	for _, f := range files {
		if strings.Contains(f, "/bad/") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := openBytes(data); err != nil {
			continue // not a package the pipeline opens either
		}
		if err := check(data); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}

// BenchmarkCheckPackage: the upload's deep check of a package whose
// document.xml is about 60 MB of paragraphs (what a 50 MB upload can
// hold): what it adds to a submission.
func BenchmarkCheckPackage(b *testing.B) {
	var doc strings.Builder
	doc.WriteString(`<w:document xmlns:w="` + NSW + `"><w:body>`)
	rng := rand.New(rand.NewPCG(1, 2)) // varied text, so it compresses like a real document
	for doc.Len() < 60<<20 {
		doc.WriteString(`<w:p><w:pPr><w:jc w:val="both"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">`)
		for range 12 {
			doc.WriteString(strconv.FormatUint(rng.Uint64()%1e9, 36) + " ")
		}
		doc.WriteString(`</w:t></w:r><w:r><w:t>and more &amp; more.</w:t></w:r></w:p>`)
	}
	doc.WriteString(`</w:body></w:document>`)
	t := &testing.T{}
	data := withPart(t, "word/document.xml", doc.String())
	b.SetBytes(int64(doc.Len()))
	b.ResetTimer()
	for range b.N {
		if err := check(data); err != nil {
			b.Fatal(err)
		}
	}
}
