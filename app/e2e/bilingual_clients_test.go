package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

// checkBilingual fails unless path is a bilingual English→Arabic document
// of english.docx: its six English paragraphs left to right beside six
// Arabic ones right to left.
func checkBilingual(t *testing.T, what, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	c := columnsOf(t, b)
	if c.ltr[0] != 6 || c.rtl[0] != 0 || c.rtl[1] != 6 || c.ltr[1] != 0 ||
		!strings.Contains(c.text[0].String(), "The red car is in the street.") || !hasArabicScript(c.text[1].String()) {
		t.Errorf("%s is not English beside Arabic: source %d LTR / %d RTL, translation %d RTL / %d LTR\n%s\n%s",
			what, c.ltr[0], c.rtl[0], c.rtl[1], c.ltr[1], c.text[0].String(), c.text[1].String())
	}
	return b
}

// The Go SDK: Options.Bilingual on an upload and on a URL writes
// NAME.ar.bilingual.docx beside the translation; DownloadBilingual fetches
// it again; a job submitted without it is refused in words.
func TestBilingualSDK(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	c, err := client.New("https://"+s.https, key, client.WithCACertFile(filepath.Join(s.dataDir, "tls", "cert.pem")))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	opts := client.Options{To: "Arabic", From: "English", Bilingual: true, OutDir: dir}
	res, err := c.TranslateFile(ctx, englishDocx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.BilingualPath != filepath.Join(dir, "english.ar.bilingual.docx") || res.Path != filepath.Join(dir, "english.ar.docx") ||
		res.Job.BilingualUrl == nil || !strings.HasSuffix(*res.Job.BilingualUrl, "/download?format=bilingual") {
		t.Fatalf("result: path %s, bilingual %s, job bilingual_url %v", res.Path, res.BilingualPath, res.Job.BilingualUrl)
	}
	first := checkBilingual(t, "TranslateFile's bilingual document", res.BilingualPath)
	again := t.TempDir()
	p, err := c.DownloadBilingual(ctx, res.Job.JobId.String(), again, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); filepath.Base(p) != "english.ar.bilingual.docx" || !bytes.Equal(b, first) {
		t.Errorf("DownloadBilingual wrote %s (%d bytes), want the same english.ar.bilingual.docx", p, len(b))
	}

	res, err = c.TranslateURL(ctx, docs.URL+"/files/report.docx", opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.BilingualPath != filepath.Join(dir, "report.ar.bilingual.docx") {
		t.Fatalf("TranslateURL's bilingual document: %q", res.BilingualPath)
	}
	checkBilingual(t, "TranslateURL's bilingual document", res.BilingualPath)

	plain, err := c.TranslateFile(ctx, englishDocx, client.Options{To: "Arabic", From: "English", OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if plain.BilingualPath != "" || plain.Job.BilingualUrl != nil {
		t.Errorf("a job without bilingual: %q, bilingual_url %v", plain.BilingualPath, plain.Job.BilingualUrl)
	}
	if _, err := c.DownloadBilingual(ctx, plain.Job.JobId.String(), t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "without bilingual") {
		t.Errorf("DownloadBilingual of a job without it: %v", err)
	}
}

// The command line: --bilingual writes NAME.ar.bilingual.docx beside the
// translation and names it in --json, through the server and with --local.
func TestBilingualCLI(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	doc, _ := os.ReadFile(englishDocx)
	report := filepath.Join(t.TempDir(), "report.docx")
	os.WriteFile(report, doc, 0o644)
	args := []string{"translate", report, "--to", "Arabic", "--from", "English", "--bilingual", "--json", "--out"}
	type results struct {
		Results []struct {
			Output, Bilingual, Error string
		} `json:"results"`
	}
	check := func(what string, out []byte, dir string) []byte {
		t.Helper()
		var r results
		if err := json.Unmarshal(out, &r); err != nil || len(r.Results) != 1 {
			t.Fatalf("%s --json: %v\n%s", what, err, out)
		}
		got := r.Results[0]
		if got.Error != "" || got.Output != filepath.Join(dir, "report.ar.docx") || got.Bilingual != filepath.Join(dir, "report.ar.bilingual.docx") {
			t.Fatalf("%s: %+v", what, got)
		}
		return checkBilingual(t, what, got.Bilingual)
	}
	viaServer := t.TempDir()
	out, err := s.cliCmd(key, append(args, viaServer)...).Output()
	if err != nil {
		t.Fatalf("translate --bilingual: %v\n%s", err, out)
	}
	server := check("through the server", out, viaServer)

	viaLocal := t.TempDir()
	local := s.cliCmd("", append(append(args, viaLocal), "--local", "--plugin-dir", filepath.Join(binaries(t), "plugins"))...)
	local.Env = append(local.Env, "DRAGOMAN_URL=https://127.0.0.1:1", "DRAGOMAN_ENGINES=pseudo")
	out, err = local.Output()
	if err != nil {
		t.Fatalf("translate --bilingual --local: %v\n%s", err, out)
	}
	check("--local", out, viaLocal)
	if a, b := docxPart(t, server, "word/document.xml"), docxPart(t, readFile(t, filepath.Join(viaLocal, "report.ar.bilingual.docx")), "word/document.xml"); !bytes.Equal(a, b) {
		t.Errorf("the bilingual body differs between the server and --local")
	}

	// Without --bilingual, no bilingual document.
	plain := t.TempDir()
	if out, err := s.cliCmd(key, "translate", report, "--to", "Arabic", "--from", "English", "--out", plain).CombinedOutput(); err != nil {
		t.Fatalf("translate: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(plain, "report.ar.bilingual.docx")); !os.IsNotExist(err) {
		t.Errorf("a bilingual document without --bilingual: %v", err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
