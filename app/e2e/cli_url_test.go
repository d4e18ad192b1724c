package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dragoman translate --url has the server fetch each document from a real
// local HTTP server (allowed by --allow-private-urls) and writes its
// translation under the fetched name; a URL that yields no document fails
// alone, in words, and the exit status says so. A server with the default
// settings refuses the same address.
func TestCLITranslateURL(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	out := t.TempDir()
	good := docs.URL + "/files/report.docx"
	stdout, stderr, code := s.cli(key, "translate", "--url", good, "--to", "Spanish", "--from", "English", "--json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var res struct {
		Results []struct {
			Input  string `json:"input"`
			Output string `json:"output"`
			Error  string `json:"error"`
			Job    struct {
				Status       string `json:"status"`
				OriginalName string `json:"original_name"`
				TargetLang   string `json:"target_lang"`
			} `json:"job"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Results) != 1 {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	r := res.Results[0]
	want := filepath.Join(out, "report.es.docx")
	if r.Input != good || r.Output != want || r.Error != "" || r.Job.Status != "completed" || r.Job.OriginalName != "report.docx" || r.Job.TargetLang != "Spanish" {
		t.Errorf("result: %+v", r)
	}
	// The written file is the translation of the served document.
	if b, err := exec.Command(filepath.Join(binaries(t), "dragoman"), "fidelity", englishDocx, want).CombinedOutput(); err != nil {
		t.Fatalf("the fetched translation fails the structure check: %v\n%s", err, b)
	}
	src, err := os.ReadFile(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(docxParagraphs(t, got), "\n") == strings.Join(docxParagraphs(t, src), "\n") {
		t.Error("the written document is not translated")
	}

	// Two URLs, one of them no document: the good one is written, the
	// other fails with the server's reason, and the exit status is 1.
	out2 := t.TempDir()
	stdout, stderr, code = s.cli(key, "translate", "--url", good, "--url", docs.URL+"/notes.txt", "--to", "French", "--from", "English", "--out", out2)
	if code != 1 {
		t.Fatalf("a failing URL: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out2, "report.fr.docx")); err != nil {
		t.Errorf("the good URL's translation: %v\n%s\n%s", err, stdout, stderr)
	}
	if all := stdout + stderr; !strings.Contains(all, docs.URL+"/notes.txt: failed: unsupported document format") || !strings.Contains(all, "1 of 2 failed") {
		t.Errorf("the failing URL is not reported with its reason:\n%s\n%s", stdout, stderr)
	}
	// A server without --allow-private-urls refuses the local address.
	strict := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key2, _ := strict.account("pro")
	if so, se, code := strict.cli(key2, "translate", "--url", good, "--to", "French", "--out", t.TempDir()); code != 1 || !strings.Contains(so+se, "only https URLs are fetched") {
		t.Errorf("a private URL on a default server: exit %d\n%s\n%s", code, so, se)
	}
	// --url needs a server.
	if _, se, code := s.cli(key, "translate", "--url", good, "--to", "French", "--local"); code != 2 || !strings.Contains(se, "--url needs a server") {
		t.Errorf("--url --local: exit %d\n%s", code, se)
	}
}
