package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// writeOutputs stores the downloads under dir, one file per job.
func writeOutputs(t *testing.T, dir string, jobs []*corpusJob) []string {
	t.Helper()
	var paths []string
	for _, j := range jobs {
		p := filepath.Join(dir, j.label()+".docx")
		if err := os.WriteFile(p, j.out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// toPDFs converts the outputs to PDF in two soffice processes (one per
// core of the CI machine), each with its own profile. A document
// LibreOffice cannot load gets no PDF: its entry is "" and the test fails.
func toPDFs(t *testing.T, jobs []*corpusJob) []string {
	t.Helper()
	for _, tool := range []string{"soffice", "pdftotext", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (apt-get install libreoffice-writer poppler-utils): %v", tool, err)
		}
	}
	start := time.Now()
	pdfs := make([]string, len(jobs))
	half := (len(jobs) + 1) / 2
	var wg sync.WaitGroup
	for _, part := range [][2]int{{0, half}, {half, len(jobs)}} {
		if part[0] == part[1] {
			continue
		}
		dir := t.TempDir()
		docs := writeOutputs(t, dir, jobs[part[0]:part[1]])
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
				"--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir}, docs...)
			out, err := exec.Command("soffice", args...).CombinedOutput()
			if err != nil {
				t.Errorf("soffice: %v\n%s", err, out)
			}
			for i, d := range docs {
				pdf := strings.TrimSuffix(d, ".docx") + ".pdf"
				if _, err := os.Stat(pdf); err != nil {
					t.Errorf("%s: LibreOffice could not convert the output to PDF", jobs[part[0]+i].label())
					continue
				}
				pdfs[part[0]+i] = pdf
			}
		}()
	}
	wg.Wait()
	t.Logf("%d outputs converted to PDF by LibreOffice in %s", len(jobs), time.Since(start).Round(time.Millisecond))
	return pdfs
}

// checkPDFs converts every output and demands text in each PDF.
func checkPDFs(t *testing.T, jobs []*corpusJob) {
	t.Helper()
	for i, pdf := range toPDFs(t, jobs) {
		if pdf == "" {
			continue
		}
		out, err := exec.Command("pdftotext", pdf, "-").Output()
		if err != nil {
			t.Errorf("%s: pdftotext: %v", jobs[i].label(), err)
			continue
		}
		// Sources without w:t text (only equations, or an altChunk that
		// LibreOffice does not import) may render blank.
		if len(strings.TrimSpace(string(out))) == 0 && jobs[i].hasText() {
			t.Errorf("%s: LibreOffice rendered no text", jobs[i].label())
		}
	}
}

var defaultCSFont = regexp.MustCompile(`(?s)<w:rPrDefault>.*?<w:rFonts [^>]*w:cs="([^"]+)"`)

// checkRenders lays the outputs out with LibreOffice and applies the
// render checks of rtltest: lines of the target direction start at its edge
// (end-aligned paragraphs excepted), and the complex-script font of an RTL
// output is really used.
func checkRenders(t *testing.T, stats map[*corpusJob]rtltest.Stats, jobs ...*corpusJob) {
	t.Helper()
	var ok []*corpusJob
	for _, j := range jobs {
		if _, done := stats[j]; done {
			ok = append(ok, j)
		}
	}
	pdfs := toPDFs(t, ok)
	ctx := context.Background()
	for i, j := range ok {
		if pdfs[i] == "" {
			continue
		}
		pages, err := rtltest.Layout(ctx, pdfs[i])
		if err != nil {
			t.Fatal(err)
		}
		fonts, err := rtltest.Fonts(ctx, pdfs[i])
		if err != nil {
			t.Fatal(err)
		}
		left, right, err := rtltest.PageEdges(j.out)
		if err != nil {
			t.Fatalf("%s: %v", j.label(), err)
		}
		rt := rtltest.RenderTarget{RTL: j.rtlTarget(), Left: left, Right: right, EndAligned: stats[j].EndAligned}
		if !rt.RTL {
			rt.EndAligned = stats[j].EndAlignedLTR
		} else if m := defaultCSFont.FindSubmatch(docxPart(t, j.out, "word/styles.xml")); m != nil {
			rt.CSFont = string(m[1])
		} else {
			t.Errorf("%s: no complex-script font in the document defaults", j.label())
		}
		for _, f := range rtltest.CheckRender(pages, fonts, rt) {
			t.Errorf("%s: %s", j.label(), f)
		}
		if keep := os.Getenv("DRAGOMAN_CORPUS_PDF"); keep != "" {
			b, _ := os.ReadFile(pdfs[i])
			os.WriteFile(filepath.Join(keep, j.label()+".pdf"), b, 0o644)
		}
	}
}
