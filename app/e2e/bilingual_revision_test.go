package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A person who corrects a sentence of a job with a bilingual document
// finds the correction in the bilingual document too, not only in the
// translation: the revision makes it again, right to left in its column
// and passing the RTL checker as the first one did.
func TestBilingualDocumentFollowsAnEdit(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English", "bilingual": "true"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" || j["bilingual_url"] == nil {
		t.Fatalf("job %v", j)
	}
	before := s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key).body

	const edit = "هذه الجملة صححها شخص."
	if p := patchSegment(s, key, id, "1", `"0"`, edit); p.status != 200 {
		t.Fatalf("edit: %d %s", p.status, p.body)
	}
	j := s.waitJob(key, id, time.Minute)
	if j["revision"] != float64(1) || j["bilingual_url"] != "/v1/jobs/"+id+"/download?format=bilingual" {
		t.Fatalf("after the edit: revision %v, bilingual_url %v", j["revision"], j["bilingual_url"])
	}
	d := s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key)
	if d.status != 200 {
		t.Fatalf("bilingual download after the edit: %d %s", d.status, d.body)
	}
	was, now := columnsOf(t, before), columnsOf(t, d.body)
	if strings.Contains(was.text[1].String(), edit) || !strings.Contains(now.text[1].String(), edit) {
		t.Fatalf("the translation column does not show the edit:\n%s", now.text[1].String())
	}
	if now.text[0].String() != was.text[0].String() || now.rtl != was.rtl || now.ltr != was.ltr {
		t.Errorf("the edit changed more than its sentence: source column %q, directions RTL %v LTR %v (were %v %v)",
			now.text[0].String(), now.rtl, now.ltr, was.rtl, was.ltr)
	}
	if out := s.getPatiently("/v1/jobs/"+id+"/download", key); !strings.Contains(string(docxPart(t, out.body, "word/document.xml")), edit) {
		t.Error("the translation's download does not show the edit")
	}
	path := filepath.Join(t.TempDir(), "edited.ar.bilingual.docx")
	if err := os.WriteFile(path, d.body, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range rtlCheck(t, path, "rtl") {
		t.Errorf("bilingual after the edit: %s", f)
	}
}
