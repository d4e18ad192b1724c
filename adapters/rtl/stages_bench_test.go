package rtl

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// putSkeleton writes the parts of a minimal package around its
// word/document.xml: content types, relationships and styles.
func putSkeleton(b testing.TB, zw *zip.Writer) {
	put := func(name, s string) {
		w, err := zw.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		io.WriteString(w, s)
	}
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`)
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)
	put("word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`)
	put("word/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`)
}

// largeDocx generates a package with paras paragraphs of English text
// (every tenth in a table cell, with a tblGrid if grid) and styles.
func largeDocx(b testing.TB, paras int, grid bool) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	putSkeleton(b, zw)
	var d bytes.Buffer
	d.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	tblGrid := `<w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid>`
	if !grid {
		tblGrid = ""
	}
	for i := 0; i < paras; i++ {
		p := fmt.Sprintf(`<w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t xml:space="preserve">Paragraph %d of the report, </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>with bold text</w:t></w:r><w:r><w:t xml:space="preserve"> and a number 1234.</w:t></w:r></w:p>`, i)
		if i%10 == 9 {
			p = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>` + tblGrid + `<w:tr><w:tc>` + p + `</w:tc></w:tr></w:tbl>`
		}
		d.WriteString(p)
	}
	d.WriteString(`<w:sectPr><w:pgMar w:left="1440" w:right="1800"/></w:sectPr></w:body></w:document>`)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		b.Fatal(err)
	}
	w.Write(d.Bytes())
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkAssembleThenLayout measures the pipeline's assemble and layout
// stages as they run in one process on a large generated document (English
// to Arabic): assemble translates the parts into the opened source package,
// layout lays them out there and writes the package once. Reported: MB of
// the source, and each stage's wall and CPU time.
func BenchmarkAssembleThenLayout(b *testing.B) {
	benchStages(b, func(ctx context.Context, l *Layout, src []byte, doc *segment.Document, clk *stageClock) {
		clk.start()
		a, err := assembleInMemory(ctx, src, doc)
		if err != nil {
			b.Fatal(err)
		}
		clk.lap(0)
		if _, err := l.LayOut(ctx, a, ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, io.Discard); err != nil {
			b.Fatal(err)
		}
		clk.lap(1)
	})
}

// BenchmarkAssembleThenLayoutTwoPackages is the same pair of stages through
// a written document in between (the path of engines or layouts that do not
// share a package): assemble writes a whole package, layout opens it again
// and writes another.
func BenchmarkAssembleThenLayoutTwoPackages(b *testing.B) {
	benchStages(b, func(ctx context.Context, l *Layout, src []byte, doc *segment.Document, clk *stageClock) {
		var assembled bytes.Buffer
		clk.start()
		if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &assembled); err != nil {
			b.Fatal(err)
		}
		clk.lap(0)
		if _, err := l.Apply(ctx, newBlob(assembled.Bytes()), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, io.Discard); err != nil {
			b.Fatal(err)
		}
		clk.lap(1)
	})
}

// stageClock adds up the wall and process CPU time of the two stages.
type stageClock struct {
	wall, cpu [2]int64
	t, c      int64
}

func (s *stageClock) start() { s.t, s.c = nowNs(), cpuNs() }

func (s *stageClock) lap(stage int) {
	t, c := nowNs(), cpuNs()
	s.wall[stage] += t - s.t
	s.cpu[stage] += c - s.c
	s.t, s.c = t, c
}

// cpuNs is the CPU time the process has used (user and system).
func cpuNs() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// benchStages runs both stages b.N times and reports each one's wall time
// and the process's CPU time during it (on a loaded machine the CPU time
// is the steadier measure).
func benchStages(b *testing.B, run func(ctx context.Context, l *Layout, src []byte, doc *segment.Document, clk *stageClock)) {
	src := largeDocx(b, 20000, true)
	ctx := context.Background()
	doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
	if err != nil {
		b.Fatal(err)
	}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = s.Source })
	l := New(Options{Coverage: KnownFonts{}})
	b.SetBytes(int64(len(src)))
	var clk stageClock
	for i := 0; i < b.N; i++ {
		run(ctx, l, src, doc, &clk)
	}
	n := float64(b.N) * 1e6
	b.ReportMetric(float64(clk.wall[0])/n, "assemble-ms/op")
	b.ReportMetric(float64(clk.wall[1])/n, "layout-ms/op")
	b.ReportMetric(float64(clk.cpu[0])/n, "assemble-cpu-ms/op")
	b.ReportMetric(float64(clk.cpu[1])/n, "layout-cpu-ms/op")
	b.ReportMetric(float64(len(src))/1e6, "source-MB")
}

func nowNs() int64 { return time.Now().UnixNano() }

// A table without the (required) tblGrid is laid out, not a crash: the
// narrow-table check read the missing grid's columns.
func TestTableWithoutGrid(t *testing.T) {
	src := largeDocx(t, 20, false)
	rep, err := New(Options{Coverage: KnownFonts{}}).Apply(context.Background(), newBlob(src), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, io.Discard)
	if err != nil || rep == nil {
		t.Fatalf("report %v, error %v", rep, err)
	}
}

// The one-package path (assemble into the opened source, lay out there,
// write once) writes the same document as assembling a package and laying
// out a re-opened copy: every entry holds the same bytes.
func TestLayOutMatchesTwoPackages(t *testing.T) {
	src := largeDocx(t, 50, true)
	ctx := context.Background()
	doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = "نص " + s.Source })
	l := New(Options{Coverage: KnownFonts{}})
	req := ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}
	for _, r := range []ports.LayoutRequest{req, {SourceLang: "en", TargetLang: "fr"}} {
		var assembled, two, one bytes.Buffer
		if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &assembled); err != nil {
			t.Fatal(err)
		}
		rep2, err := l.Apply(ctx, newBlob(assembled.Bytes()), r, &two)
		if err != nil {
			t.Fatal(err)
		}
		a, err := assembleInMemory(ctx, src, doc)
		if err != nil {
			t.Fatal(err)
		}
		rep1, err := l.LayOut(ctx, a, r, &one)
		if err != nil {
			t.Fatal(err)
		}
		if (rep1 == nil) != (rep2 == nil) || rep1 != nil && (rep1.Status != rep2.Status || strings.Join(rep1.Warnings, ";") != strings.Join(rep2.Warnings, ";")) {
			t.Errorf("%s: report %+v in one package, %+v through two", r.TargetLang, rep1, rep2)
		}
		want, got := entries(t, two.Bytes()), entries(t, one.Bytes())
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries in one package, %d through two", r.TargetLang, len(got), len(want))
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s: %s differs between the two paths", r.TargetLang, name)
			}
		}
		if r.TargetLang == "ar" && !strings.Contains(got["word/document.xml"], "<w:bidi/>") {
			t.Errorf("the one-package output is not laid out right to left")
		}
	}
}

func entries(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name] = string(data)
	}
	return m
}

// assembleInMemory translates doc into the opened package src, as the
// DOCX engine's render does before the layout.
func assembleInMemory(ctx context.Context, src []byte, doc *segment.Document) (*ooxml.Package, error) {
	pk, err := ooxml.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		return nil, err
	}
	if _, err := docx.AssemblePackage(ctx, pk, doc); err != nil {
		return nil, err
	}
	return pk, nil
}
