package pdftext

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
)

// A PDF LibreOffice rendered reads back with its pages apart, and a text
// box's clipped line is not in it.
func TestTextOfARendition(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Fatalf("LibreOffice is not installed (make deps): %v", err)
	}
	dir := t.TempDir()
	d := &docxbuild.Doc{Body: []docxbuild.Block{
		docxbuild.Plain("First page."),
		docxbuild.TextBox(120, 30, "Boxed words begin here and go on far beyond what this small box can show, LASTWORD."),
	}}
	for range 60 {
		d.Body = append(d.Body, docxbuild.Plain("Filler paragraph to reach a second page."))
	}
	if err := os.WriteFile(filepath.Join(dir, "d.docx"), d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--convert-to", "pdf", "--outdir", dir, filepath.Join(dir, "d.docx"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v: %s", err, out)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "d.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := Reader{}.PDFText(context.Background(), bytes.NewReader(pdf))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimRight(text, "\f\n"), "\f") + 1; n != 2 {
		t.Errorf("%d pages, want 2", n)
	}
	if !strings.Contains(text, "Boxed words") || strings.Contains(text, "LASTWORD") {
		t.Errorf("the box's text: %q", text[:min(len(text), 300)])
	}
	if _, err := (Reader{}).PDFText(context.Background(), strings.NewReader("not a pdf")); err == nil {
		t.Error("not a PDF: no error")
	}
}
