package rtl

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// hugePartDocx generates a package whose document.xml is about mb MB of
// one-run-per-word paragraphs (the shape of issue 15 item 3's 127 MB part),
// already translated to Arabic with a Latin word and a number in every
// paragraph. The part is deflated as it is generated: only the package is
// held. shape places the paragraphs: "paragraphs" in the body (every 50th
// in a small table), "cell" all in the one cell of one table, "rows" one
// per row of one table, "nested" one per row of a table inside the one
// cell of an outer table.
func hugePartDocx(b testing.TB, mb int, shape string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	putSkeleton(b, zw)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	const tblStart = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid>`
	switch shape {
	case "cell":
		bw.WriteString(tblStart + `<w:tr><w:tc>`)
	case "rows":
		bw.WriteString(tblStart)
	case "nested":
		bw.WriteString(tblStart + `<w:tr><w:tc>` + tblStart)
	}
	words := []string{"تقرير", "السنة", "المالية", "مع", "نص", "Dragoman", "عريض", "والرقم", "2024", "في", "الجدول", "الأول"}
	limit := mb << 20
	for n, i := 0, 0; n < limit; i++ {
		var p strings.Builder
		p.WriteString(`<w:p><w:pPr><w:jc w:val="left"/></w:pPr>`)
		for k := range 12 {
			fmt.Fprintf(&p, `<w:r><w:t xml:space="preserve">%s </w:t></w:r>`, words[(i+k)%len(words)])
		}
		p.WriteString(`</w:p>`)
		switch {
		case shape == "rows" || shape == "nested":
			s := `<w:tr><w:tc>` + p.String() + `</w:tc></w:tr>`
			p.Reset()
			p.WriteString(s)
		case shape == "paragraphs" && i%50 == 49:
			s := `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc>` + p.String() + `</w:tc></w:tr></w:tbl>`
			p.Reset()
			p.WriteString(s)
		}
		n += p.Len()
		bw.WriteString(p.String())
	}
	switch shape {
	case "cell":
		bw.WriteString(`<w:p/></w:tc></w:tr></w:tbl>`)
	case "rows":
		bw.WriteString(`</w:tbl>`)
	case "nested":
		bw.WriteString(`</w:tbl><w:p/></w:tc></w:tr></w:tbl>`)
	}
	bw.WriteString(`<w:sectPr><w:pgSz w:w="11906"/><w:pgMar w:left="1440" w:right="1800"/></w:sectPr></w:body></w:document>`)
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// peakWatch samples the live heap and reads the process's peak RSS
// (VmHWM, reset through /proc/self/clear_refs).
type peakWatch struct {
	stop chan struct{}
	done sync.WaitGroup
	heap uint64
}

func watchPeak() *peakWatch {
	runtime.GC()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // reset VmHWM
	w := &peakWatch{stop: make(chan struct{})}
	w.done.Add(1)
	go func() {
		defer w.done.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			w.heap = max(w.heap, s[0].Value.Uint64())
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// end returns the peak heap and peak RSS in MB.
func (w *peakWatch) end() (heapMB, rssMB float64) {
	close(w.stop)
	w.done.Wait()
	data, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			rssMB = kb / 1024
		}
	}
	return float64(w.heap) / (1 << 20), rssMB
}

// BenchmarkLayoutHugePart measures the peak heap and peak RSS of an
// English→Arabic layout of one huge document.xml (issue 15 item 3: server
// RSS under 512 MB for any accepted upload). DRAGOMAN_BENCH_PART_MB sets
// the part's size (default 30; the part limit is 128). The sub-benchmarks
// are hugePartDocx's shapes: the body's paragraphs, or all of them inside
// one table (one cell, one row each, rows of a table nested in a cell),
// where one top-level block is the whole part. No memory limit is
// set, so the figures are what the layout needs, not what a soft limit
// squeezed it into:
//
//	go test -run '^$' -bench LayoutHugePart -benchtime 1x ./adapters/rtl/
func BenchmarkLayoutHugePart(b *testing.B) {
	mb := 30
	if v, err := strconv.Atoi(os.Getenv("DRAGOMAN_BENCH_PART_MB")); err == nil && v > 0 {
		mb = v
	}
	debug.SetMemoryLimit(math.MaxInt64)
	for _, shape := range []string{"paragraphs", "cell", "rows", "nested"} {
		b.Run(shape, func(b *testing.B) {
			src := hugePartDocx(b, mb, shape)
			l := New(Options{Coverage: KnownFonts{}})
			req := ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}
			var heap, rss float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w := watchPeak()
				if _, err := l.Apply(context.Background(), newBlob(src), req, io.Discard); err != nil {
					b.Fatal(err)
				}
				h, r := w.end()
				heap, rss = max(heap, h), max(rss, r)
			}
			b.ReportMetric(float64(mb), "part-MB")
			b.ReportMetric(heap, "peak-heap-MB")
			b.ReportMetric(rss, "peak-RSS-MB")
		})
	}
}
