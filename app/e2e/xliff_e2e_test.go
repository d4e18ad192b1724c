package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
)

// formattedBody has bold and italic words and a tab, so the round trip can
// show formatting staying on the right words.
const formattedBody = `<w:p><w:r><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>quick brown</w:t></w:r><w:r><w:t xml:space="preserve"> fox jumps over the lazy dog.</w:t></w:r></w:p>` +
	`<w:p><w:r><w:t>Press</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t xml:space="preserve">Enter to </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>continue</w:t></w:r><w:r><w:t>.</w:t></w:r></w:p>` +
	`<w:p><w:r><w:t>A plain closing sentence.</w:t></w:r></w:p>`

// formattedDocx writes english.docx with formattedBody as its body.
func formattedDocx(t *testing.T) string {
	t.Helper()
	return docxFrom(t, "formatted.docx", withBody(formattedBody), nil)
}

// toolkitPython is a Python that imports Debian's translate-toolkit
// (python3-translate): the one on PATH, or the system's when PATH leads
// to another installation. Tests never skip for a missing tool.
func toolkitPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import translate.storage.xliff, translate.storage.tmx").Run() == nil {
			return py
		}
	}
	t.Fatal("translate-toolkit needed: install python3-translate (make deps)")
	return ""
}

// toolkitEdit is run by translate-toolkit's Python: it reads a 1.2 file
// and rewrites every target through the toolkit's rich (placeable) form,
// text inside a paired code becoming DENTRO and text outside FUERA, then
// writes the file back with the toolkit's own serialiser. It prints the
// number of units it read.
const toolkitEdit = `
import sys
from translate.storage import xliff
from translate.storage.placeables import xliff as px
st = xliff.xlifffile.parsefile(sys.argv[1])
def edit(e, inside):
    for i, s in enumerate(e.sub):
        if isinstance(s, str):
            if s.strip():
                e.sub[i] = (' ' if s[0] == ' ' else '') + ('DENTRO' if inside else 'FUERA') + (' ' if s[-1] == ' ' else '')
        else:
            edit(s, inside or isinstance(s, px.G))
n = 0
for u in st.units:
    rt = u.rich_target
    for e in rt:
        edit(e, False)
    u.rich_target = rt
    n += 1
open(sys.argv[2], 'wb').write(bytes(st))
print(n)
`

// npmParse is run by node with the npm xliff package: it parses a 2.x
// file and prints the package's JSON form.
const npmParse = `
const {xliff2js} = require("xliff");
const fs = require("fs");
xliff2js(fs.readFileSync(process.argv[2], "utf8")).then(js => console.log(JSON.stringify(js))).catch(e => { console.error(String(e)); process.exit(1) });
`

func runTool(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// runsOf lists the runs of an output's main part as (properties, text).
func runsOf(t *testing.T, docx []byte) [][2]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			doc = string(b)
		}
	}
	var out [][2]string
	for _, m := range regexp.MustCompile(`(?s)<w:r(?:\s[^>]*)?>(.*?)</w:r>`).FindAllStringSubmatch(doc, -1) {
		props := regexp.MustCompile(`(?s)<w:rPr>.*?</w:rPr>`).FindString(m[1])
		var text strings.Builder
		for _, tm := range regexp.MustCompile(`<w:t(?:\s[^>]*)?>([^<]*)</w:t>`).FindAllStringSubmatch(m[1], -1) {
			text.WriteString(tm[1])
		}
		out = append(out, [2]string{props, text.String()})
	}
	return out
}

var emphasis = regexp.MustCompile(`<w:(b|i)(\s*/>|\s+w:val="(1|true|on)"\s*/>)`)

// checkFormatting: every word that was inside a paired code (marker in)
// sits in a bold or italic run, every other word (marker out) in a plain
// one; both occur.
func checkFormatting(t *testing.T, docx []byte, in, out string) {
	t.Helper()
	var ins, outs int
	for _, r := range runsOf(t, docx) {
		styled := emphasis.MatchString(r[0])
		if strings.Contains(r[1], in) {
			ins++
			if !styled {
				t.Errorf("%q is in a run without its bold/italic: %q", r[1], r[0])
			}
		}
		if strings.Contains(r[1], out) {
			outs++
			if styled {
				t.Errorf("%q is in a bold/italic run: %q", r[1], r[0])
			}
		}
	}
	if ins < 2 || outs < 3 {
		t.Errorf("the output has %d runs with %s and %d with %s; want the edits in it: %v", ins, in, outs, out, runsOf(t, docx))
	}
}

// checkStructure compares the output's structure with the source's as the
// pipeline's check does.
func checkStructure(t *testing.T, src string, out []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "out.docx"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	srcBytes, _ := os.ReadFile(src)
	if err := os.WriteFile(filepath.Join(dir, "src.docx"), srcBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := blobstore.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := store.Open(ctx, "src.docx")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, "out.docx")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	summary, lost, err := structure.Checker{}.Summary(ctx, a, b)
	if err != nil || lost {
		t.Errorf("structure check of the revision: lost=%v err=%v: %s", lost, err, summary)
	}
}

func multipartFile(t *testing.T, body []byte) (io.Reader, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, _ := mw.CreateFormFile("file", "edited.xlf")
	fw.Write(body)
	mw.Close()
	return &b, mw.FormDataContentType()
}

// TestXLIFFRoundTripWithOutsideTools (issue 17, XLIFF round trip): the 1.2
// export is read and edited by translate-toolkit and imported; the
// revision keeps each edit's formatting on the right words, passes the
// structure check, is downloadable again and announced by job.completed
// with its revision; the 2.1 export (parsed by the npm xliff package)
// carries the edits and takes a second revision as multipart; the edits
// come back as human translations in a later job; bad files are refused
// with 422 naming the unit.
func TestXLIFFRoundTripWithOutsideTools(t *testing.T) {
	py := toolkitPython(t)
	nodePath := runTool(t, nil, "npm", "root", "-g")
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("enterprise") // 120 requests a minute: room for the polling
	if reg := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed"]}`), "application/json"); reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	src := formattedDocx(t)
	fields := map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"}
	r := s.uploadFile(key, src, fields)
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, time.Minute); j["status"] != "completed" || j["revision"] != 0.0 {
		t.Fatalf("job: %v", j)
	}
	rcv.wait(t, 1, 30*time.Second)

	// 1.2 through translate-toolkit.
	x12 := s.do("GET", "/v1/jobs/"+id+"/xliff?version=1.2", key, nil, "")
	if x12.status != 200 || x12.header.Get("Content-Type") != "application/xliff+xml" || !contains(x12.body, `<g id="1">`) || !contains(x12.body, `original="dragoman:job:`+id+`"`) {
		t.Fatalf("1.2 export: %d %s %s", x12.status, x12.header, x12.body)
	}
	dir := t.TempDir()
	in12, out12 := filepath.Join(dir, "job.xlf"), filepath.Join(dir, "edited.xlf")
	os.WriteFile(in12, x12.body, 0o644)
	script := filepath.Join(dir, "edit.py")
	os.WriteFile(script, []byte(toolkitEdit), 0o644)
	units := runTool(t, nil, py, script, in12, out12)
	edited, _ := os.ReadFile(out12)
	if units == "0" || bytes.Equal(edited, x12.body) {
		t.Fatalf("translate-toolkit read %s units and wrote %s", units, edited)
	}
	rev := s.do("POST", "/v1/jobs/"+id+"/xliff", key, bytes.NewReader(edited), "application/xliff+xml")
	if rev.status != 200 {
		t.Fatalf("import of the toolkit's file: %d %s", rev.status, rev.body)
	}
	if j := rev.json(t); j["revision"] != 1.0 || j["status"] != "completed" || j["download_url"] == nil {
		t.Fatalf("after the import: %s", rev.body)
	}
	dl := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if dl.status != 200 {
		t.Fatalf("download of the revision: %d %s", dl.status, dl.body)
	}
	checkFormatting(t, dl.body, "DENTRO", "FUERA")
	checkStructure(t, src, dl.body)
	if contains(dl.body, "quick") {
		t.Error("the revision still holds source text")
	}

	got := rcv.wait(t, 2, 30*time.Second)
	data, _ := got[1].payload["data"].(map[string]any)
	if got[1].event != "job.completed" || data["job_id"] != id || data["revision"] != 1.0 || got[1].payload["id"] == got[0].payload["id"] {
		t.Errorf("revision event: %s (first: %s)", got[1].body, got[0].body)
	}

	// 2.1 through the npm xliff package: it sees every sentence, the edits,
	// and the bold code as a span.
	x21 := s.do("GET", "/v1/jobs/"+id+"/xliff", key, nil, "")
	if x21.status != 200 || !contains(x21.body, `version="2.1"`) || !contains(x21.body, `<pc id="1" type="fmt">DENTRO</pc>`) {
		t.Fatalf("2.1 export: %d %s", x21.status, x21.body)
	}
	in21 := filepath.Join(dir, "job21.xlf")
	os.WriteFile(in21, x21.body, 0o644)
	js := filepath.Join(dir, "parse.js")
	os.WriteFile(js, []byte(npmParse), 0o644)
	var parsed struct {
		XliffVersion string                                `json:"xliffVersion"`
		Resources    map[string]map[string]json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal([]byte(runTool(t, []string{"NODE_PATH=" + nodePath}, "node", js, in21)), &parsed); err != nil {
		t.Fatal(err)
	}
	sentences := 0
	var all strings.Builder
	for _, groups := range parsed.Resources {
		for _, g := range groups {
			var grp struct {
				GroupUnits map[string]json.RawMessage `json:"groupUnits"`
			}
			json.Unmarshal(g, &grp)
			sentences += len(grp.GroupUnits)
			for _, u := range grp.GroupUnits {
				all.Write(u)
			}
		}
	}
	if parsed.XliffVersion != "2.1" || fmt.Sprint(sentences) != units || !strings.Contains(all.String(), `"Span":{"id":"1","type":"fmt","contents":"DENTRO"}`) || !strings.Contains(all.String(), `"Standalone":{"id":"`) {
		t.Errorf("npm xliff read version %q, %d units (the toolkit %s): %s", parsed.XliffVersion, sentences, units, all.String())
	}
	body, ct := multipartFile(t, bytes.ReplaceAll(x21.body, []byte(">DENTRO<"), []byte(">NEGRITA<")))
	if rev := s.do("POST", "/v1/jobs/"+id+"/xliff", key, body, ct); rev.status != 200 || rev.json(t)["revision"] != 2.0 {
		t.Fatalf("multipart import: %d %s", rev.status, rev.body)
	}
	dl = s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	checkFormatting(t, dl.body, "NEGRITA", "FUERA")

	// A later job of the same document takes the human translations.
	r = s.uploadFile(key, src, fields)
	id2 := r.json(t)["job_id"].(string)
	j2 := s.waitJob(key, id2, time.Minute)
	if j2["status"] != "completed" || !strings.Contains(fmt.Sprint(j2["warnings"]), "translation memory (human translations)") {
		t.Fatalf("second job: %v", j2)
	}
	checkFormatting(t, s.do("GET", "/v1/jobs/"+id2+"/download", key, nil, "").body, "NEGRITA", "FUERA")

	// Refusals, each naming what is wrong.
	x21b := s.do("GET", "/v1/jobs/"+id2+"/xliff", key, nil, "").body
	cases := []struct {
		name, body, want string
	}{
		{"another job's file", string(x21.body), "belongs to job " + id},
		{"not well-formed", strings.Replace(string(x21b), "</target>", "", 1), "not well-formed"},
		{"a DTD", strings.Replace(string(x21b), "<xliff ", `<!DOCTYPE xliff [<!ENTITY e SYSTEM "file:///etc/passwd">]><xliff `, 1), "document type declaration"},
		{"a missing unit", regexp.MustCompile(`(?s)<unit id="u1.s0".*?</unit>`).ReplaceAllString(string(x21b), ""), "unit u1 ("},
		{"an extra unit", strings.Replace(string(x21b), "</group>", `<unit id="u99.s0"><segment><source>x</source><target>y</target></segment></unit></group>`, 1), "unit u99.s0 is not part of job"},
		{"a dropped code", strings.Replace(string(x21b), `<pc id="1" type="fmt">NEGRITA</pc>`, "NEGRITA", 1), `missing <pc id="1">`},
	}
	for _, c := range cases {
		p := problem(t, s.do("POST", "/v1/jobs/"+id2+"/xliff", key, strings.NewReader(c.body), "application/xliff+xml"), 422)
		if msg, _ := p["message"].(string); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, msg, c.want)
		}
	}
	problem(t, s.do("GET", "/v1/jobs/"+id+"/xliff?version=3.0", key, nil, ""), 422)
	problem(t, s.do("GET", "/v1/jobs/00000000-0000-4000-8000-000000000000/xliff", key, nil, ""), 404)
	if j := s.do("GET", "/v1/jobs/"+id2, key, nil, "").json(t); j["revision"] != 0.0 {
		t.Errorf("refused imports changed the job: %v", j)
	}
}

// TestXLIFFRevisionOfAConvertedDocument: an .rtf job keeps the .docx it
// was converted to, and its revision is rebuilt from that.
func TestXLIFFRevisionOfAConvertedDocument(t *testing.T) {
	py := toolkitPython(t)
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("enterprise")
	rtf := `{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}\f0\pard The {\b quick brown} fox jumps over the lazy dog.\par\pard A plain closing sentence.\par}`
	r := s.upload(key, "note.rtf", strings.NewReader(rtf), map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	x := s.getPatiently("/v1/jobs/"+id+"/xliff?version=1.2", key)
	if x.status != 200 {
		t.Fatalf("export: %d %s", x.status, x.body)
	}
	dir := t.TempDir()
	in, out, script := filepath.Join(dir, "in.xlf"), filepath.Join(dir, "out.xlf"), filepath.Join(dir, "edit.py")
	os.WriteFile(in, x.body, 0o644)
	os.WriteFile(script, []byte(toolkitEdit), 0o644)
	runTool(t, nil, py, script, in, out)
	edited, _ := os.ReadFile(out)
	// A PDF rendered before the revision must not outlive it.
	if p := s.getPatiently("/v1/jobs/"+id+"/download?format=pdf", key); p.status != 200 || strings.Contains(pdfText(t, p.body), "DENTRO") {
		t.Fatalf("PDF of the machine translation: %d", p.status)
	}
	rev := s.do("POST", "/v1/jobs/"+id+"/xliff", key, bytes.NewReader(edited), "application/xliff+xml")
	if rev.status != 200 || rev.json(t)["revision"] != 1.0 {
		t.Fatalf("import: %d %s", rev.status, rev.body)
	}
	if p := s.getPatiently("/v1/jobs/"+id+"/download?format=pdf", key); p.status != 200 || !strings.Contains(pdfText(t, p.body), "DENTRO") {
		t.Errorf("the PDF after the revision does not show the edits: %d", p.status)
	}
	dl := s.getPatiently("/v1/jobs/"+id+"/download", key)
	var bold, plain bool
	for _, run := range runsOf(t, dl.body) {
		styled := emphasis.MatchString(run[0])
		bold = bold || (styled && strings.Contains(run[1], "DENTRO"))
		plain = plain || (!styled && strings.Contains(run[1], "FUERA"))
		if (styled && strings.Contains(run[1], "FUERA")) || (!styled && strings.Contains(run[1], "DENTRO")) {
			t.Errorf("formatting on the wrong words: %q %q", run[0], run[1])
		}
	}
	if !bold || !plain {
		t.Errorf("the edits are not in the rebuilt document: %v", runsOf(t, dl.body))
	}
}
