package pool

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// oxsdk-Complex01 (comments, combo-box content controls, a chart and
// SmartArt) makes the warm instance's headless view abort while laying it
// out (a missing .ui file of the -nogui packages); a one-shot soffice
// exports it. RenderPDF must still give the PDF, as Convert does after a
// warm crash.
func TestRenderPDFAfterTheWarmInstanceDies(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	src, err := os.ReadFile(filepath.Join(corpus, "docx", "oxsdk-Complex01.docx"))
	if err != nil {
		t.Fatal(err)
	}
	var pdf bytes.Buffer
	if err := p.RenderPDF(context.Background(), DOCX, bytes.NewReader(src), &pdf); err != nil {
		t.Fatalf("RenderPDF: %v", err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf.Bytes()[:min(32, pdf.Len())])
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, pdf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if !strings.Contains(string(info), "Pages:") || strings.Contains(string(info), "Pages:           1\n") {
		t.Errorf("the PDF is not the whole document:\n%s", info)
	}
	// The pool goes on: a plain document after the crash renders warm.
	pdf.Reset()
	plain, err := os.ReadFile(filepath.Join(corpus, "docx", "onlyoffice-sample.docx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.RenderPDF(context.Background(), DOCX, bytes.NewReader(plain), &pdf); err != nil || !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
		t.Errorf("the next document: %v", err)
	}
}
