package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dragoman translate --local --glossary FILE enforces a glossary file with
// the API's parser and checks, in process; --glossary-id does the same on
// a server with a glossary made through the API. Both write the same
// document, whose paragraphs carry the glossary's targets exactly where
// the source had its terms.
func TestCLIGlossaryLocalAndServer(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	dir := t.TempDir()
	var csv strings.Builder
	var entries []map[string]string
	for _, g := range corpusGlossary {
		csv.WriteString(g.source + "," + g.target + "\n")
		entries = append(entries, map[string]string{"source": g.source, "target": g.target})
	}
	gfile := filepath.Join(dir, "terms.csv")
	if err := os.WriteFile(gfile, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := filepath.Abs(glossaryCorpusDoc)
	if err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(binaries(t), "plugins")
	local := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := s.cliCmd("", append([]string{"translate", doc, "--to", "Spanish", "--mode", "full", "--local", "--plugin-dir", plugins}, args...)...)
		cmd.Env = append(cmd.Env, "DRAGOMAN_URL=https://127.0.0.1:1", "DRAGOMAN_ENGINES=pseudo")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(interface{ ExitCode() int })
			if !ok {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		return out.String(), errb.String(), code
	}

	// Refusals before any work: a glossary needs --from, a file needs
	// --local, an id needs a server; a bad file gets the API's message.
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--glossary", gfile}, 2, "give its source language with --from LANG"},
		{[]string{"--glossary", gfile, "--from", "auto"}, 2, "give its source language with --from LANG"},
		{[]string{"--glossary-id", "x", "--from", "English"}, 2, "--glossary-id names a glossary on a server"},
	} {
		if _, se, code := local(c.args...); code != c.code || !strings.Contains(se, c.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", c.args, code, c.code, c.want, se)
		}
	}
	if _, se, code := s.cli(key, "translate", doc, "--to", "Spanish", "--from", "English", "--glossary", gfile); code != 2 || !strings.Contains(se, "--glossary FILE needs --local") {
		t.Errorf("--glossary with a server: exit %d:\n%s", code, se)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("file,Fichox\ntime,Tiempox\nfile,Otro\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, se, code := local("--from", "English", "--glossary", bad); code != 1 || !strings.Contains(se, `line 3: duplicate source term "file" (already on line 1)`) {
		t.Errorf("a duplicate line: exit %d:\n%s", code, se)
	}

	// --local with the file.
	viaLocal := t.TempDir()
	lo, se, code := local("--from", "English", "--glossary", gfile, "--json", "--out", viaLocal)
	if code != 0 {
		t.Fatalf("--local --glossary: exit %d\n%s\n%s", code, lo, se)
	}
	if !regexp.MustCompile(`glossary \\"terms.csv\\": [1-9]\d* term occurrence\(s\) applied`).MatchString(lo) {
		t.Errorf("--json lacks the glossary's warning:\n%s", lo)
	}
	src, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	srcParas := docxParagraphs(t, src)
	want := expectedTerms(srcParas)
	name := strings.TrimSuffix(filepath.Base(doc), ".docx") + ".es.docx"
	out, err := os.ReadFile(filepath.Join(viaLocal, name))
	if err != nil {
		t.Fatal(err)
	}
	got := docxParagraphs(t, out)
	if len(got) != len(srcParas) {
		t.Fatalf("paragraphs: source %d, output %d", len(srcParas), len(got))
	}
	total := 0
	for i, p := range got {
		for _, g := range corpusGlossary {
			total += want[i][g.target]
			if n := countWord(p, g.target); n != want[i][g.target] {
				t.Errorf("paragraph %d %q: %d × %q, want %d (source %q)", i, p, n, g.target, want[i][g.target], srcParas[i])
			}
		}
	}
	if total < 8 {
		t.Fatalf("only %d terms expected: the test document changed?", total)
	}

	// The server with a glossary made through the API: the same document.
	body, _ := json.Marshal(map[string]any{"name": "terms.csv", "source_lang": "English", "target_lang": "Spanish", "entries": entries})
	r := s.do("POST", "/v1/glossaries", key, bytes.NewReader(body), "application/json")
	if r.status != 201 {
		t.Fatalf("create glossary: %d %s", r.status, r.body)
	}
	viaServer := t.TempDir()
	so, se, code := s.cli(key, "translate", doc, "--to", "Spanish", "--from", "English", "--mode", "full",
		"--glossary-id", r.json(t)["glossary_id"].(string), "--json", "--out", viaServer)
	if code != 0 {
		t.Fatalf("--glossary-id: exit %d\n%s\n%s", code, so, se)
	}
	a, b := docxParts(t, filepath.Join(viaLocal, name)), docxParts(t, filepath.Join(viaServer, name))
	if len(a) != len(b) {
		t.Fatalf("%d parts locally, %d through the server", len(a), len(b))
	}
	for n, data := range a {
		if !bytes.Equal(data, b[n]) {
			t.Errorf("part %s differs between --local --glossary and the server's --glossary-id", n)
		}
	}
	// The server checks the pair as the API does.
	if so, se, code := s.cli(key, "translate", doc, "--to", "French", "--from", "English",
		"--glossary-id", r.json(t)["glossary_id"].(string), "--out", t.TempDir()); code == 0 || !strings.Contains(so+se, "is for English to Spanish, the job is English to French") {
		t.Errorf("--glossary-id for another pair: exit %d:\n%s\n%s", code, so, se)
	}
}
