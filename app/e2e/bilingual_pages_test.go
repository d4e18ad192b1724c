package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The bilingual document of tika-testWORD_various.docx (English→Arabic,
// --local, pseudo engine) renders in LibreOffice to as many pages as the
// target-only output: its last sections (a two-column one, one of an empty
// paragraph, an empty final one) once gave a third page, blank but for
// header and footer, as the empty paragraph became a table row and the
// table needed a paragraph more after it.
func TestBilingualPagesLikeTheTranslation(t *testing.T) {
	for _, tool := range []string{"soffice", "pdfinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (apt-get install libreoffice-writer poppler-utils): %v", tool, err)
		}
	}
	dir := t.TempDir()
	src := corpusDocs(t, "tika-testWORD_various.docx")[0]
	cmd := exec.Command(filepath.Join(binaries(t), "dragoman"), "translate", src, "--to", "Arabic", "--from", "English",
		"--bilingual", "--local", "--plugin-dir", filepath.Join(binaries(t), "plugins"), "--out", dir)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "DRAGOMAN_ENGINES=pseudo", "DRAGOMAN_URL=https://127.0.0.1:1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("translate --bilingual --local: %v\n%s", err, out)
	}
	target := filepath.Join(dir, "tika-testWORD_various.ar.docx")
	bilingual := filepath.Join(dir, "tika-testWORD_various.ar.bilingual.docx")
	out, err := exec.Command("soffice", "-env:UserInstallation=file://"+filepath.Join(t.TempDir(), "profile"),
		"--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir, target, bilingual).CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	pages := func(docx string) int {
		pdf := docx[:len(docx)-len(".docx")] + ".pdf"
		info, err := exec.Command("pdfinfo", pdf).Output()
		if err != nil {
			t.Fatalf("pdfinfo %s: %v", filepath.Base(pdf), err)
		}
		m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(info)
		if m == nil {
			t.Fatalf("pdfinfo %s: no page count\n%s", filepath.Base(pdf), info)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if b, tr := pages(bilingual), pages(target); b != tr {
		t.Errorf("the bilingual document renders to %d pages, the translation to %d", b, tr)
	}
}
