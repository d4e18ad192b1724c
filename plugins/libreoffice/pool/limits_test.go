package pool

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// issue 26: a 10 KB .odt of 3,000 nested tables held an instance for the
// whole timeout. Documents past the structure caps are refused before any
// LibreOffice starts, in words; one at the cap converts.
func TestNestedTablesAreRefusedBeforeLibreOffice(t *testing.T) {
	tmp := t.TempDir()
	p := newLazyPool(t, Config{Size: 1, TempDir: tmp})
	for _, tc := range []struct {
		name string
		kind Kind
		doc  []byte
	}{
		{"odt", ODT, pooltest.NestedTablesODT(3000)},
		{"rtf", RTF, pooltest.NestedTablesRTF(3000)},
		{"docx", DOCX, nestedTablesDOCX(3000)},
	} {
		start := time.Now()
		convert := p.Convert
		if tc.kind.Name == DOCX.Name {
			convert = p.RenderPDF // a .docx is only ever rendered
		}
		err := convert(context.Background(), tc.kind, bytes.NewReader(tc.doc), io.Discard)
		took := time.Since(start)
		t.Logf("%s of %d KB: %v in %s", tc.name, len(tc.doc)>>10, err, took.Round(time.Millisecond))
		if reasonOf(err) != TooComplex || !strings.Contains(err.Error(), "nested more than 64 deep") {
			t.Errorf("%s: got %v, want it refused as too complex, naming the nesting", tc.name, err)
		}
	}
	if n, procs := p.Running(), officeProcesses(tmp); n != 0 || len(procs) > 0 {
		t.Fatalf("refusing started LibreOffice: %d instances, %q", n, procs)
	}
	var out bytes.Buffer
	if err := p.Convert(context.Background(), ODT, bytes.NewReader(pooltest.NestedTablesODT(MaxTableNesting)), &out); err != nil {
		t.Fatalf("tables nested %d deep, the cap: %+v", MaxTableNesting, err)
	}
	assertDocx(t, "at the cap", out.Bytes())
}

func nestedTablesDOCX(depth int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("word/document.xml")
	io.WriteString(w, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	io.WriteString(w, strings.Repeat(`<w:tbl><w:tr><w:tc>`, depth)+`<w:p/>`+strings.Repeat(`</w:tc></w:tr></w:tbl>`, depth))
	io.WriteString(w, `</w:body></w:document>`)
	zw.Close()
	return b.Bytes()
}

// The measure reads structure, not text: braces escaped or inside binary
// data are no groups, comments and quoted '>' no elements, and it stops
// at the first cap passed.
func TestMeasureReadsStructure(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o600)
		return p
	}
	rtf := write("a.rtf", `{\rtf1 \{\{\{ {\b bold} {\*\bin6 {{{{{}\itap3 x\par}`)
	c, err := measure(rtf, RTF, 0)
	if err != nil || c.depth != 2 || c.tables != 3 {
		t.Errorf("rtf: %+v %v, want depth 2, tables 3", c, err)
	}
	xml := write("a.xml", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "<a>">]><w:document a="x>y" b='<w:tbl>'>`+
		`<!-- <w:tbl><w:tbl> --><w:tbl><w:tr/><w:tc><w:tbl><w:p/></w:tbl></w:tc></w:tbl><![CDATA[<w:tbl>]]></w:document>`)
	c, err = measure(xml, WordML, 0)
	if err != nil || c.tables != 2 || c.depth != 4 {
		t.Errorf("xml: %+v %v, want tables 2, depth 4", c, err)
	}
	deep := write("deep.rtf", strings.Repeat("{", MaxElementDepth+1))
	if _, err := measure(deep, RTF, 0); reasonOf(err) != TooComplex {
		t.Errorf("groups %d deep: %v", MaxElementDepth+1, err)
	}
}

// issue 26: a conversion gets a processor budget. A document that would
// take a minute is stopped at a 3 s budget, its instance replaced, and
// the message says why; the budget is the instance's processor time
// during this conversion alone, though the instance converted before.
func TestProcessorBudgetStopsAConversion(t *testing.T) {
	const budget = 3 * time.Second
	p := newTestPool(t, Config{Size: 1, CPU: budget})
	if _, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
		t.Fatal(err)
	}
	before := p.snapshot()[0]
	pid := before.pgids[0]
	start := time.Now()
	err := p.Convert(context.Background(), ODT, bytes.NewReader(pooltest.SlowODT(2000)), io.Discard)
	took := time.Since(start)
	t.Logf("stopped after %s: %v", took.Round(time.Millisecond), err)
	if reasonOf(err) != TooMuchWork || !strings.Contains(err.Error(), "more than 3s of processor time") {
		t.Fatalf("got %+v, want the processor budget's error", err)
	}
	assertGone(t, []trace{before}, t.TempDir())
	if _, err := cpuTime(pid); err == nil {
		t.Errorf("the instance over budget (pid %d) still runs", pid)
	}
	b, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if err != nil {
		t.Fatalf("the replacement: %+v", err)
	}
	assertDocx(t, "after the budget", b)
	limits, _ := os.ReadFile(fmt.Sprintf("/proc/%d/limits", p.snapshot()[0].pgids[0]))
	t.Logf("the replacement's limits:\n%s", limitLines(string(limits), "Max cpu time", "Max data size"))
}

// issue 26: LibreOffice's memory is capped, and a document that needs
// more fails with the cap in words, not as a crash.
func TestMemoryCapFailsTheDocumentInWords(t *testing.T) {
	const capBytes = 200 << 20
	tmp := t.TempDir()
	p := newTestPool(t, Config{Size: 1, Memory: capBytes, CPU: time.Hour, TempDir: tmp})
	t.Logf("mode: %s", p.mem.mode)
	pid := p.snapshot()[0].pgids[0]
	if p.mem.cgroup == "" {
		limits, _ := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
		line := limitLines(string(limits), "Max data size")
		if !strings.Contains(line, strconv.Itoa(capBytes)) {
			t.Fatalf("soffice.bin's data limit is not the cap: %q", line)
		}
	} else if b, _ := os.ReadFile(filepath.Join(p.mem.cgroup, "cgroup.procs")); len(b) == 0 {
		t.Logf("cgroup mode: instances under %s", p.mem.cgroup)
	}
	doc := pooltest.LargeRTF(16 << 20)
	start := time.Now()
	err := p.Convert(context.Background(), RTF, bytes.NewReader(doc), io.Discard)
	t.Logf("a %d MB RTF under a %d MB cap: %v after %s", len(doc)>>20, capBytes>>20, err, time.Since(start).Round(time.Millisecond))
	if reasonOf(err) != TooMuchMemory || !strings.Contains(err.Error(), "more than 200 MiB of memory") {
		t.Fatalf("got %+v, want the memory cap's error", err)
	}
	if _, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
		t.Fatalf("a small document after: %+v", err)
	}
}

func limitLines(limits string, names ...string) string {
	var out []string
	for _, l := range strings.Split(limits, "\n") {
		for _, n := range names {
			if strings.HasPrefix(l, n) {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
	}
	return strings.Join(out, "\n")
}
