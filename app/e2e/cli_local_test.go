package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
)

// --local produces the same document as the server, with the same
// fidelity summary and warnings.
func TestCLILocalMatchesServer(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	src := corpusDocs(t, "aspose-Hyperlinks.docx")[0]
	viaServer, viaLocal := t.TempDir(), t.TempDir()
	args := []string{"translate", src, "--to", "Arabic", "--from", "English", "--json", "--out"}
	so, se, code := s.cli(key, append(args, viaServer)...)
	if code != 0 {
		t.Fatalf("server: %d\n%s\n%s", code, so, se)
	}
	local := s.cliCmd("", append(append(args, viaLocal), "--local", "--plugin-dir", filepath.Join(binaries(t), "plugins"))...)
	local.Env = append(local.Env, "DRAGOMAN_URL=https://127.0.0.1:1", "DRAGOMAN_ENGINES=pseudo")
	lo, err := local.Output()
	if err != nil {
		t.Fatalf("--local: %v\n%s", err, lo)
	}
	name := "aspose-Hyperlinks.ar.docx"
	a, b := docxParts(t, filepath.Join(viaServer, name)), docxParts(t, filepath.Join(viaLocal, name))
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d parts through the server, %d locally", len(a), len(b))
	}
	for n, data := range a {
		if !bytes.Equal(data, b[n]) {
			t.Errorf("part %s differs between the server and --local", n)
		}
	}
	type summary struct {
		Results []struct {
			Job struct {
				Warnings    []string `json:"warnings"`
				RtlFidelity any      `json:"rtl_fidelity"`
				Fidelity    *string  `json:"fidelity"`
				TotalWords  int      `json:"total_words"`
			} `json:"job"`
		} `json:"results"`
	}
	var sv, lv summary
	if json.Unmarshal([]byte(so), &sv) != nil || json.Unmarshal(lo, &lv) != nil || len(sv.Results) != 1 || len(lv.Results) != 1 {
		t.Fatalf("--json:\n%s\n%s", so, lo)
	}
	sj, _ := json.Marshal(sv.Results[0].Job)
	lj, _ := json.Marshal(lv.Results[0].Job)
	if !bytes.Equal(sj, lj) {
		t.Errorf("fidelity and warnings differ:\nserver %s\nlocal  %s", sj, lj)
	}
}

func docxParts(t *testing.T, path string) map[string][]byte {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	parts := map[string][]byte{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return parts
}
