package pool

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rtlFirstSection is oxsdk-Complex01 with <w:bidi/> in its first section,
// as the RTL layout writes it: a right-to-left first section, an endnote
// and page-anchored text boxes make LibreOffice 7.4 abort while closing the
// document, after the PDF is written (SwTextBoxHelper::syncFlyFrameAttr,
// from RemoveFootnotes), in the warm instance and in a one-shot soffice.
func rtlFirstSection(t *testing.T) []byte {
	t.Helper()
	zr, err := zip.OpenReader(filepath.Join(corpus, "docx", "oxsdk-Complex01.docx"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == "word/document.xml" {
			s := string(b)
			i := strings.Index(s, "<w:docGrid ")
			if i < 0 {
				t.Fatal("no docGrid in the first section")
			}
			b = []byte(s[:i] + "<w:bidi/>" + s[i:])
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// wholePDF fails the test unless b is a PDF of more than one page.
func wholePDF(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", b[:min(32, len(b))])
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if !strings.Contains(string(info), "Pages:") || strings.Contains(string(info), "Pages:           1\n") {
		t.Errorf("the PDF is not the whole document:\n%s", info)
	}
}

// soffice dies closing the document after storing its PDF: the PDF
// counts, and the dead instance is replaced before the next document
// (which, with no cold retry, would fail on it).
func TestRenderPDFOfADocumentSofficeDiesClosing(t *testing.T) {
	p := newTestPool(t, Config{Size: 1, NoColdRetry: true})
	var pdf bytes.Buffer
	if err := p.RenderPDF(context.Background(), DOCX, bytes.NewReader(rtlFirstSection(t)), &pdf); err != nil {
		t.Fatalf("RenderPDF: %v", err)
	}
	wholePDF(t, pdf.Bytes())
	plain, err := os.ReadFile(filepath.Join(corpus, "docx", "onlyoffice-sample.docx"))
	if err != nil {
		t.Fatal(err)
	}
	pdf.Reset()
	if err := p.RenderPDF(context.Background(), DOCX, bytes.NewReader(plain), &pdf); err != nil {
		t.Fatalf("the next document: %v", err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
		t.Errorf("the next document: not a PDF")
	}
}

// The one-shot soffice (the cold retry) also aborts on quitting after
// writing that PDF (exit 134): a whole PDF counts all the same.
func TestOneShotPDFCountsWhenWhole(t *testing.T) {
	work := t.TempDir()
	src, dst := filepath.Join(work, "in.docx"), filepath.Join(work, "out.pdf")
	if err := os.WriteFile(src, rtlFirstSection(t), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Config{TempDir: work}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if err := coldConvert(context.Background(), cfg, limits{newMemoryLimit(cfg.Memory), cfg.CPUFor(0)}, work, src, dst, "pdf:"+pdfExport); err != nil {
		t.Fatalf("coldConvert: %v", err)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	wholePDF(t, b)
}

// The English Complex01 has comments: a -nogui LibreOffice's headless view
// aborts on it (no modules/swriter/ui/annotation.ui); with the Writer the
// Makefile installs, the warm instance renders it.
func TestCommentsRenderWarm(t *testing.T) {
	p := newTestPool(t, Config{Size: 1, NoColdRetry: true})
	src, err := os.ReadFile(filepath.Join(corpus, "docx", "oxsdk-Complex01.docx"))
	if err != nil {
		t.Fatal(err)
	}
	var pdf bytes.Buffer
	if err := p.RenderPDF(context.Background(), DOCX, bytes.NewReader(src), &pdf); err != nil {
		t.Fatalf("RenderPDF on the warm instance alone: %v (is libreoffice-writer installed, not -nogui? make deps)", err)
	}
}
