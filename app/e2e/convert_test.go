package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 6 through the API: .doc, .odt and .rtf (and the RTL ones) go in,
// translated .docx files come out, bad files fail quickly with a reason,
// and no LibreOffice process or temp file outlives the server, whether it
// stops gracefully or its whole process group is SIGKILLed.

// convertedFiles are the corpus files the converter must turn into .docx.
func convertedFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"doc/*.doc", "odt/*.odt", "rtf/*.rtf", "rtl/*.doc", "rtl/*.odt", "rtl/*.rtf"} {
		m, _ := filepath.Glob(filepath.Join(corpusDir, pat))
		files = append(files, m...)
	}
	if len(files) < 45 {
		t.Fatalf("only %d .doc/.odt/.rtf corpus files under %s", len(files), corpusDir)
	}
	return files
}

func TestConvertedDocumentsThroughTheAPI(t *testing.T) {
	plugins := converterPlugins(t)
	tmp := t.TempDir() // the server's TMPDIR: LibreOffice's profiles and files live here
	env := []string{"DRAGOMAN_ENGINES=pseudo", "TMPDIR=" + tmp, "DRAGOMAN_LIBREOFFICE_POOL_SIZE=2"}
	s := startServer(t, []string{"--plugin-dir", plugins}, env...)
	key := enterpriseKey(t, s)

	// Bad files first, on an idle pool, so their time is their own.
	bad, _ := filepath.Glob(filepath.Join(corpusDir, "bad", "*"))
	for _, r := range translateAll(t, s, key, bad, 4) {
		name := filepath.Base(r.file)
		switch {
		case r.upload == http.StatusUnprocessableEntity || r.status == "failed":
			if len(r.message) < 15 || strings.Contains(r.message, "rpc error") || strings.Contains(r.message, "desc =") {
				t.Errorf("%s: reason %q is not for humans", name, r.message)
			}
		case r.status == "completed" && convertibleDespiteName[name]:
		default:
			t.Errorf("%s: upload %d, job %q (%s), want a 422 or a failed job", name, r.upload, r.status, r.message)
		}
		if r.elapsed > 20*time.Second {
			t.Errorf("%s: took %s to end", name, r.elapsed.Round(time.Millisecond))
		}
		how := "422"
		if r.upload == http.StatusAccepted {
			how = r.status
		}
		t.Logf("bad %-75s %-9s %5d ms  %s", name, how, r.elapsed.Milliseconds(), r.message)
	}

	files := convertedFiles(t)
	start := time.Now()
	results := translateAll(t, s, key, files, 6)
	t.Logf("%d documents through the API in %s", len(files), time.Since(start).Round(time.Millisecond))
	for _, r := range results {
		rel, _ := filepath.Rel(corpusDir, r.file)
		if r.upload != http.StatusAccepted || r.status != "completed" {
			t.Errorf("%s: upload %d, job %q: %s", rel, r.upload, r.status, r.message)
			continue
		}
		base := strings.TrimSuffix(filepath.Base(r.file), filepath.Ext(r.file))
		if want := base + ".de.docx"; r.name != want {
			t.Errorf("%s: downloads as %q, want %q", rel, r.name, want)
		}
		if _, err := documentText(r.output); err != nil {
			t.Errorf("%s: output: %v", rel, err)
		}
	}

	s.stop()
	waitNoOffice(t, tmp, 5*time.Second, "after a graceful stop")
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in TMPDIR after a graceful stop: %v", entries)
	}

	reportConversionLoss(t, results)
}

// convertibleDespiteName are bad/ files whose content converts: content
// decides the format, not the name; LibreOffice repairs the bad nesting.
var convertibleDespiteName = map[string]bool{
	"pandoc-table_nested_malformed_itap.rtf":                                          true, // inconsistent \itap levels; LibreOffice reads it anyway
	"tika-testWORDML_tableInsideParagraph.doc":                                        true, // Word 2003 XML named .doc
	"poi-cpansearch.perl.org_src_tobyink_acme-rundoc-0.001_word-lib_hello_world.docm": true, // Word 97 binary named .docm
}
