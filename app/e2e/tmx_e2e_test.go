package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// toolkitTMX writes a TMX file with translate-toolkit's own TMX writer.
const toolkitTMX = `
import sys
from translate.storage import tmx
st = tmx.tmxfile()
st.addtranslation("A plain closing sentence.", "en", "Una frase final de la memoria.", "es")
st.addtranslation("Press", "en", "Pulse", "es")
st.addtranslation("Hello", "en", "nuqneH", "tlh")
open(sys.argv[1], "wb").write(bytes(st))
`

// toolkitReadTMX prints every unit translate-toolkit's TMX reader finds.
const toolkitReadTMX = `
import sys
from translate.storage import tmx
st = tmx.tmxfile.parsefile(sys.argv[1])
for u in st.units:
    print(u.source + " => " + u.target)
`

// TestTMXRoundTrip (issue 17, translation memory): a memory written by
// translate-toolkit is imported and serves a later job before the engine;
// the export is read by translate-toolkit's TMX reader and imported into
// another account, whose export is the same; bad files are refused.
func TestTMXRoundTrip(t *testing.T) {
	py := toolkitPython(t)
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("enterprise")
	_, key2, _ := s.account("enterprise")
	dir := t.TempDir()
	in := filepath.Join(dir, "toolkit.tmx")
	script := filepath.Join(dir, "write.py")
	os.WriteFile(script, []byte(toolkitTMX), 0o644)
	runTool(t, nil, py, script, in)
	tmxBody, _ := os.ReadFile(in)

	imp := s.do("POST", "/v1/memory.tmx", key, bytes.NewReader(tmxBody), "application/x-tmx+xml")
	if imp.status != 200 {
		t.Fatalf("import: %d %s", imp.status, imp.body)
	}
	res := imp.json(t)
	if res["imported"] != 2.0 || !strings.Contains(string(imp.body), `unknown language \"tlh\"`) {
		t.Errorf("import: %s", imp.body)
	}

	r := s.uploadFile(key, formattedDocx(t), map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"})
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, time.Minute); j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	out := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "").body
	found := false
	for _, run := range runsOf(t, out) {
		found = found || strings.Contains(run[1], "Una frase final de la memoria.")
	}
	if !found {
		t.Errorf("the imported translation is not in the output: %v", runsOf(t, out))
	}

	exp := s.do("GET", "/v1/memory.tmx", key, nil, "")
	if exp.status != 200 || exp.header.Get("Content-Type") != "application/x-tmx+xml" {
		t.Fatalf("export: %d %s", exp.status, exp.body)
	}
	path := filepath.Join(dir, "export.tmx")
	os.WriteFile(path, exp.body, 0o644)
	reader := filepath.Join(dir, "read.py")
	os.WriteFile(reader, []byte(toolkitReadTMX), 0o644)
	read := runTool(t, nil, py, reader, path)
	if read != "A plain closing sentence. => Una frase final de la memoria.\nPress => Pulse" {
		t.Errorf("translate-toolkit read the export as:\n%s", read)
	}

	body, ct := multipartFile(t, exp.body)
	if imp := s.do("POST", "/v1/memory.tmx", key2, body, ct); imp.status != 200 || imp.json(t)["imported"] != 2.0 {
		t.Fatalf("import into another account: %d %s", imp.status, imp.body)
	}
	if exp2 := s.do("GET", "/v1/memory.tmx", key2, nil, ""); !bytes.Equal(exp2.body, exp.body) {
		t.Errorf("round trip changed the memory:\n%s\nwas\n%s", exp2.body, exp.body)
	}

	for name, c := range map[string]struct{ body, want string }{
		"not well-formed":  {`<tmx version="1.4"><body><tu>`, "not well-formed"},
		"internal subset":  {`<!DOCTYPE tmx [<!ENTITY e SYSTEM "file:///etc/passwd">]><tmx version="1.4"><body/></tmx>`, "internal DTD subset"},
		"another document": {`<html/>`, "not TMX"},
	} {
		p := problem(t, s.do("POST", "/v1/memory.tmx", key, strings.NewReader(c.body), "application/x-tmx+xml"), 422)
		if msg, _ := p["message"].(string); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q", name, msg, c.want)
		}
	}
}
