package docx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/segment"
)

const paraXML = `<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00D4E5F6"><w:pPr><w:pStyle w:val="BodyText"/><w:rPr><w:lang w:val="en-US"/></w:rPr></w:pPr>` +
	`<w:r w:rsidR="00A1"><w:t xml:space="preserve">Lorem ipsum dolor sit amet, </w:t></w:r><w:r><w:rPr><w:b/><w:lang w:val="en-GB"/></w:rPr><w:t>consectetur</w:t></w:r>` +
	`<w:proofErr w:type="spellStart"/><w:r w:rsidR="00B2"><w:t xml:space="preserve"> adipiscing elit. Sed do eiusmod </w:t></w:r><w:proofErr w:type="spellEnd"/>` +
	`<w:hyperlink r:id="rId9" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>tempor</w:t></w:r></w:hyperlink>` +
	`<w:r><w:t xml:space="preserve"> incididunt ut labore.</w:t></w:r><w:r><w:tab/></w:r><w:r w:rsidR="00C3"><w:t xml:space="preserve">Et dolore &amp; magna aliqua, </w:t></w:r>` +
	`<w:r><w:rPr><w:i/></w:rPr><w:t>quis nostrud</w:t></w:r><w:r><w:t xml:space="preserve"> exercitation ullamco laboris nisi ut aliquip.</w:t></w:r></w:p>`

// genDocx writes a package whose document.xml is about xmlSize bytes of
// paragraphs (with bold, italic, links, tabs, proofing marks) and tables;
// pad adds an incompressible stored media entry, as images do.
func genDocx(w io.Writer, xmlSize int, pad int) error {
	zw := zip.NewWriter(w)
	put := func(name, s string) {
		f, _ := zw.Create(name)
		io.WriteString(f, s)
	}
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)
	put("word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>`)
	f, err := zw.Create("word/document.xml")
	if err != nil {
		return err
	}
	io.WriteString(f, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>`)
	for n, i := 0, 0; n < xmlSize; i++ {
		s := paraXML
		if i%20 == 19 {
			s = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tr><w:tc>` + paraXML + `</w:tc><w:tc>` + paraXML + `</w:tc></w:tr></w:tbl>`
		}
		io.WriteString(f, s)
		n += len(s)
	}
	io.WriteString(f, `<w:sectPr/></w:body></w:document>`)
	if pad > 0 {
		m, err := zw.CreateHeader(&zip.FileHeader{Name: "word/media/pad.bin", Method: zip.Store})
		if err != nil {
			return err
		}
		if _, err := io.CopyN(m, rand.Reader, int64(pad)); err != nil {
			return err
		}
	}
	return zw.Close()
}

// floor is the least any engine must do: unzip the parts it rewrites and
// tokenize them with encoding/xml.
func floor(data []byte) (int64, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, f := range zr.File {
		if !translatedPart(f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return 0, err
		}
		d := xml.NewDecoder(rc)
		for {
			if _, err := d.RawToken(); err != nil {
				if err != io.EOF {
					return 0, err
				}
				break
			}
		}
		rc.Close()
		n += int64(f.UncompressedSize64)
	}
	return n, nil
}

func translatedPart(name string) bool {
	if !strings.HasSuffix(name, ".xml") || strings.Contains(name, "glossary") {
		return false
	}
	for _, p := range []string{"word/document", "word/header", "word/footer", "word/footnotes", "word/endnotes", "word/comments", "word/charts/chart", "word/diagrams/data", "docProps/core"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// roundTrip is the engine's work on one document: extract, identity
// translation, assemble.
func roundTrip(data []byte) error {
	ctx := context.Background()
	doc, err := docx.ExtractReader(ctx, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = s.Source })
	_, err = docx.AssembleReader(ctx, bytes.NewReader(data), int64(len(data)), doc, io.Discard)
	return err
}

type benchDoc struct {
	name  string
	files [][]byte
}

func benchDocs(b *testing.B) []benchDoc {
	var docs []benchDoc
	for _, sz := range []struct {
		name string
		n    int
	}{{"20KB", 20 << 10}, {"1MB", 1 << 20}, {"10MB", 10 << 20}} {
		var buf bytes.Buffer
		if err := genDocx(&buf, sz.n, 0); err != nil {
			b.Fatal(err)
		}
		docs = append(docs, benchDoc{sz.name, [][]byte{buf.Bytes()}})
	}
	var corpus [][]byte
	for _, p := range corpusDocs() {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		corpus = append(corpus, d)
	}
	return append(docs, benchDoc{"corpus", corpus})
}

// BenchmarkRoundTrip reports MB/s of XML through extract+assemble, and
// x-floor: its time over the floor's (unzip + encoding/xml RawToken) on the
// same documents, interleaved in the same loop so machine load affects both
// alike. Goal: x-floor <= 3.
func BenchmarkRoundTrip(b *testing.B) {
	for _, d := range benchDocs(b) {
		b.Run(d.name, func(b *testing.B) {
			var xmlBytes int64
			var floorTime, engineTime time.Duration
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				xmlBytes = 0
				for _, f := range d.files {
					b.StopTimer()
					t0 := time.Now()
					n, err := floor(f)
					if err != nil {
						b.Fatal(err)
					}
					floorTime += time.Since(t0)
					xmlBytes += n
					b.StartTimer()
					t1 := time.Now()
					if err := roundTrip(f); err != nil {
						b.Fatal(err)
					}
					engineTime += time.Since(t1)
				}
			}
			b.SetBytes(xmlBytes)
			b.ReportMetric(float64(engineTime)/float64(floorTime), "x-floor")
			b.ReportMetric(float64(xmlBytes)*float64(b.N)/floorTime.Seconds()/1e6, "floor-MB/s")
		})
	}
}

// BenchmarkLarge50MB round-trips a 50 MB package (about 40 MB of stored
// media and a large document part) and reports the peak heap: parts are
// streamed, so it stays far below the package's expanded size.
func BenchmarkLarge50MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.docx")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := genDocx(f, 60<<20, 40<<20); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		src, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		doc, err := docx.ExtractReader(ctx, src, st.Size())
		if err != nil {
			b.Fatal(err)
		}
		doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = s.Source })
		out, _ := os.Create(path + ".out")
		if _, err := docx.AssembleReader(ctx, src, st.Size(), doc, out); err != nil {
			b.Fatal(err)
		}
		out.Close()
		src.Close()
		close(stop)
		<-done
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(len(doc.Units)), "units")
	}
	_ = fmt.Sprint
}
