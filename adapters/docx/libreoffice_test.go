package docx_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every pseudo-translated corpus document opens in LibreOffice: it converts
// to PDF and the PDF carries the translated text. One soffice process
// converts them all, with its own profile so parallel runs do not collide.
func TestLibreOfficeOpensOutputs(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Fatal("soffice not installed (apt-get install -y libreoffice-writer)")
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext not installed (apt-get install -y poppler-utils)")
	}
	dir := t.TempDir()
	var outs []string
	for _, path := range corpusFiles(t) {
		_, out, _ := assemble(t, path, pseudo)
		name := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".docx")
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, name)
	}
	pdfDir := filepath.Join(dir, "pdf")
	args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
		"--headless", "--norestore", "--convert-to", "pdf", "--outdir", pdfDir}, outs...)
	cmd := exec.Command(soffice, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	for _, o := range outs {
		base := filepath.Base(o)
		pdf := filepath.Join(pdfDir, strings.TrimSuffix(base, ".docx")+".pdf")
		if _, err := os.Stat(pdf); err != nil {
			t.Errorf("%s: no PDF: %v", base, err)
			continue
		}
		txt, err := exec.Command(pdftotext, pdf, "-").Output()
		if err != nil {
			t.Errorf("%s: pdftotext: %v", base, err)
			continue
		}
		if noBodyText[base] {
			continue
		}
		// the pseudo-translation pads every word with "ж"
		if !strings.ContainsRune(string(txt), 'ж') {
			t.Errorf("%s: translated text missing from the PDF (%d bytes of text)", base, len(txt))
		}
	}
}

// documents whose body has no translatable text (math only, ruby only,
// an empty template, an altChunk of HTML)
var noBodyText = map[string]bool{
	"docxjs-equation-document.docx": true, "tika-testWORD_phonetic.docx": true,
	"onlyoffice-ar-SA-new.docx": true, "tika-testAltChunkHTML.docx": true,
}
