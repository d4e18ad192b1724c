package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/urlfetch"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// quietBus accepts events and delivers none: these tests stop at the job's
// creation.
type quietBus struct{}

func (quietBus) Publish(context.Context, ports.Topic, ports.JobEvent) error    { return nil }
func (quietBus) Handle(string, ports.Topic, ports.EventHandler)                {}
func (quietBus) HandleConcurrent(string, ports.Topic, int, ports.EventHandler) {}

// glossaryEnv is the API over real SQLite and a local blob store, with
// URL fetches allowed on loopback, served on loopback.
type glossaryEnv struct {
	*webhookEnv
	docx []byte
}

func newGlossaryEnv(t *testing.T) *glossaryEnv {
	e := newWebhookEnv(t, true)
	blobs, err := blobstore.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := service.DefaultConfig
	cfg.AllowPrivateURLs = true
	svc := testPorts{config: cfg, store: e.store, blobs: blobs, bus: quietBus{},
		fetcher: urlfetch.New(urlfetch.Config{AllowPrivate: true}), glossaries: e.store}.useCases()
	e.srv.Close()
	e.srv = httptest.NewServer(New(svc, nil).Handler())
	t.Cleanup(e.srv.Close)
	docx, err := os.ReadFile(filepath.Join("..", "..", "testdata", "e2e", "english.docx"))
	if err != nil {
		t.Fatal(err)
	}
	return &glossaryEnv{webhookEnv: e, docx: docx}
}

// multipart posts a form as acct; a field named "file" is sent as a file.
func (e *glossaryEnv) multipart(acct, path string, fields map[string]string, out any) (int, string) {
	e.t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		if k == "file" {
			fw, _ := mw.CreateFormFile("file", "upload")
			fw.Write([]byte(v))
			continue
		}
		mw.WriteField(k, v)
	}
	mw.Close()
	return e.raw(acct, "POST", path, mw.FormDataContentType(), b.Bytes(), out)
}

func (e *glossaryEnv) raw(acct, method, path, ctype string, body []byte, out any) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, bytes.NewReader(body))
	if acct != "" {
		req.Header.Set("X-API-Key", e.keys[acct])
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return resp.StatusCode, string(raw)
}

// problemMsg is the message of a problem body.
func problemMsg(body string) string {
	var p struct {
		Message string `json:"message"`
		Detail  string `json:"detail"`
	}
	json.Unmarshal([]byte(body), &p)
	return p.Message + p.Detail
}

const tbxFile = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><text><body>
 <conceptEntry id="1"><langSec xml:lang="en"><termSec><term>table</term></termSec></langSec><langSec xml:lang="es"><termSec><term>tabla</term></termSec></langSec></conceptEntry>
</body></text></tbx>`

// Each glossary endpoint's happy path, scoped per account, with the
// languages shown by name and the entries in the order given.
func TestGlossaryEndpoints(t *testing.T) {
	e := newGlossaryEnv(t)
	var g Glossary
	code, body := e.raw("alice", "POST", "/v1/glossaries", "application/json",
		[]byte(`{"name":"Billing","source_lang":"English","target_lang":"es","entries":[{"source":"invoice","target":"factura"},{"source":" user account ","target":"cuenta de usuario"}]}`), &g)
	if code != 201 || g.GlossaryID == "" || g.Name != "Billing" || g.SourceLang != "English" || g.TargetLang != "Spanish" || g.EntryCount != 2 || g.Entries == nil {
		t.Fatalf("create JSON: %d %s", code, body)
	}
	var fromCSV, fromTSV, fromTBX Glossary
	if code, body := e.multipart("alice", "/v1/glossaries", map[string]string{"name": "CSV", "source_lang": "en", "target_lang": "de", "file": "invoice,Rechnung\n\"Dragoman, Inc.\",Dragoman GmbH\n"}, &fromCSV); code != 201 || fromCSV.EntryCount != 2 || fromCSV.TargetLang != "German" {
		t.Fatalf("create CSV: %d %s", code, body)
	}
	if code, body := e.multipart("alice", "/v1/glossaries", map[string]string{"name": "TSV", "source_lang": "en", "target_lang": "fr", "file": "invoice\tfacture\n"}, &fromTSV); code != 201 || fromTSV.EntryCount != 1 {
		t.Fatalf("create TSV: %d %s", code, body)
	}
	if code, body := e.multipart("alice", "/v1/glossaries", map[string]string{"name": "TBX", "source_lang": "en", "target_lang": "es", "file": tbxFile}, &fromTBX); code != 201 || fromTBX.EntryCount != 1 {
		t.Fatalf("create TBX: %d %s", code, body)
	}

	var list GlossaryList
	if code := e.do("alice", "GET", "/v1/glossaries", nil, &list); code != 200 || len(list.Glossaries) != 4 || list.Glossaries[0].GlossaryID != g.GlossaryID || list.Glossaries[3].Name != "TBX" || list.Glossaries[0].Entries != nil {
		t.Fatalf("list: %d %+v", code, list)
	}
	if code := e.do("bob", "GET", "/v1/glossaries", nil, &list); code != 200 || len(list.Glossaries) != 0 {
		t.Fatalf("bob's list: %d %+v", code, list)
	}
	var got Glossary
	if code := e.do("alice", "GET", "/v1/glossaries/"+fromCSV.GlossaryID, nil, &got); code != 200 ||
		!reflect.DeepEqual(got.Entries, []GlossaryEntry{{"invoice", "Rechnung"}, {"Dragoman, Inc.", "Dragoman GmbH"}}) {
		t.Fatalf("get: %d %+v", code, got)
	}
	if code := e.do("bob", "GET", "/v1/glossaries/"+fromCSV.GlossaryID, nil, nil); code != 404 {
		t.Errorf("bob read alice's glossary: %d", code)
	}
	if code := e.do("bob", "DELETE", "/v1/glossaries/"+fromCSV.GlossaryID, nil, nil); code != 404 {
		t.Errorf("bob deleted alice's glossary: %d", code)
	}
	if code := e.do("alice", "DELETE", "/v1/glossaries/"+fromCSV.GlossaryID, nil, nil); code != 204 {
		t.Errorf("delete: %d", code)
	}
	if code := e.do("alice", "GET", "/v1/glossaries/"+fromCSV.GlossaryID, nil, nil); code != 404 {
		t.Errorf("deleted glossary read: %d", code)
	}
	if code := e.do("alice", "DELETE", "/v1/glossaries/"+fromCSV.GlossaryID, nil, nil); code != 404 {
		t.Errorf("second delete: %d", code)
	}
	if code := e.do("", "GET", "/v1/glossaries", nil, nil); code != 401 {
		t.Errorf("no key: %d", code)
	}
}

// Every refusal of POST /glossaries says what is wrong, naming the line or
// entry at fault.
func TestGlossaryRefusals(t *testing.T) {
	e := newGlossaryEnv(t)
	long := strings.Repeat("a", 201)
	form := func(file string) map[string]string {
		return map[string]string{"name": "G", "source_lang": "en", "target_lang": "es", "file": file}
	}
	jsonBody := func(entries string) []byte {
		return []byte(`{"name":"G","source_lang":"en","target_lang":"es","entries":` + entries + `}`)
	}
	cases := []struct {
		name   string
		send   func() (int, string)
		status int
		msg    string
	}{
		{"empty line term", func() (int, string) { return e.multipart("alice", "/v1/glossaries", form("a,b\nc,d\n,e\n"), nil) }, 422, "line 3: the source term is empty"},
		{"duplicate line", func() (int, string) { return e.multipart("alice", "/v1/glossaries", form("a,b\nc,d\na,e\n"), nil) }, 422, `line 3: duplicate source term "a" (already on line 1)`},
		{"over-long line", func() (int, string) { return e.multipart("alice", "/v1/glossaries", form("a,b\n"+long+",c\n"), nil) }, 422, "line 2: the source term is longer than 200 characters"},
		{"empty target", func() (int, string) { return e.multipart("alice", "/v1/glossaries", form("a,b\nc,\n"), nil) }, 422, "line 2: the target term"},
		{"empty file", func() (int, string) { return e.multipart("alice", "/v1/glossaries", form(""), nil) }, 422, "empty"},
		{"TBX with DTD", func() (int, string) {
			return e.multipart("alice", "/v1/glossaries", form(`<!DOCTYPE tbx [<!ENTITY x "y">]><tbx/>`), nil)
		}, 422, "DTD"},
		{"no file", func() (int, string) {
			return e.multipart("alice", "/v1/glossaries", map[string]string{"name": "G", "source_lang": "en", "target_lang": "es"}, nil)
		}, 422, "missing field: file"},
		{"too large", func() (int, string) {
			return e.multipart("alice", "/v1/glossaries", form(strings.Repeat("a,b\n", 600_000)), nil)
		}, 413, "larger than"},
		{"JSON duplicate", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", jsonBody(`[{"source":"a","target":"b"},{"source":"a","target":"c"}]`), nil)
		}, 422, `entries[1]: duplicate source term "a" (already on entries[0])`},
		{"JSON empty", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", jsonBody(`[{"source":"a","target":"b"},{"source":"","target":"c"}]`), nil)
		}, 422, "entries[1]: the source term is empty"},
		{"JSON over-long", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", jsonBody(`[{"source":"a","target":"`+long+`"}]`), nil)
		}, 422, "entries[0]: the target term is longer than 200"},
		{"JSON no entries", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", jsonBody(`[]`), nil)
		}, 422, "no entries"},
		{"JSON malformed", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", []byte(`{"name":`), nil)
		}, 422, "JSON body could not be read"},
		{"no name", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", []byte(`{"source_lang":"en","target_lang":"es","entries":[{"source":"a","target":"b"}]}`), nil)
		}, 422, "name"},
		{"source auto", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", []byte(`{"name":"G","source_lang":"auto","target_lang":"es","entries":[{"source":"a","target":"b"}]}`), nil)
		}, 422, "source_lang"},
		{"same languages", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", []byte(`{"name":"G","source_lang":"Spanish","target_lang":"es","entries":[{"source":"a","target":"b"}]}`), nil)
		}, 422, "the same"},
		{"unknown language", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "application/json", []byte(`{"name":"G","source_lang":"en","target_lang":"Klingon","entries":[{"source":"a","target":"b"}]}`), nil)
		}, 422, "target_lang"},
		{"other content type", func() (int, string) {
			return e.raw("alice", "POST", "/v1/glossaries", "text/csv", []byte("a,b\n"), nil)
		}, 422, "multipart/form-data"},
		{"no key", func() (int, string) {
			return e.raw("", "POST", "/v1/glossaries", "application/json", jsonBody(`[{"source":"a","target":"b"}]`), nil)
		}, 401, ""},
	}
	for _, c := range cases {
		code, body := c.send()
		if code != c.status || !strings.Contains(problemMsg(body), c.msg) {
			t.Errorf("%s: %d %s, want %d with %q", c.name, code, body, c.status, c.msg)
		}
	}
	var list GlossaryList
	if e.do("alice", "GET", "/v1/glossaries", nil, &list); len(list.Glossaries) != 0 {
		t.Errorf("refused glossaries were stored: %+v", list)
	}
}

// glossary_id on both translate endpoints: accepted for the job's pair and
// stored on the job; another pair, auto source, an unknown id and another
// account's glossary are refused.
func TestTranslateWithGlossaryID(t *testing.T) {
	e := newGlossaryEnv(t)
	mk := func(acct, src, tgt string) string {
		var g Glossary
		body := `{"name":"G","source_lang":"` + src + `","target_lang":"` + tgt + `","entries":[{"source":"table","target":"tabla"}]}`
		if code, raw := e.raw(acct, "POST", "/v1/glossaries", "application/json", []byte(body), &g); code != 201 {
			t.Fatalf("create: %d %s", code, raw)
		}
		return g.GlossaryID
	}
	enEs, enDe, bobs := mk("alice", "en", "es"), mk("alice", "en", "de"), mk("bob", "en", "es")
	docSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(e.docx) }))
	defer docSrv.Close()

	upload := func(fields map[string]string) (int, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		fw, _ := mw.CreateFormFile("file", "english.docx")
		fw.Write(e.docx)
		mw.Close()
		return e.raw("alice", "POST", "/v1/translate", mw.FormDataContentType(), b.Bytes(), nil)
	}
	byURL := func(fields map[string]string) (int, string) {
		fields["url"] = docSrv.URL + "/english.docx"
		b, _ := json.Marshal(fields)
		return e.raw("alice", "POST", "/v1/translate-url", "application/json", b, nil)
	}
	for name, send := range map[string]func(map[string]string) (int, string){"multipart": upload, "json": byURL} {
		code, body := send(map[string]string{"source_lang": "English", "target_lang": "Spanish", "glossary_id": enEs})
		if code != 202 {
			t.Fatalf("%s: %d %s", name, code, body)
		}
		var acc JobAccepted
		json.Unmarshal([]byte(body), &acc)
		j, err := e.store.GetJob(bg, acc.JobID)
		if err != nil || j.GlossaryID != enEs {
			t.Errorf("%s: job %+v %v", name, j, err)
		}
		refusals := []struct {
			fields map[string]string
			msg    string
		}{
			{map[string]string{"source_lang": "English", "target_lang": "Spanish", "glossary_id": enDe}, "is for English to German, the job is English to Spanish"},
			{map[string]string{"target_lang": "Spanish", "glossary_id": enEs}, "give source_lang (English)"},
			{map[string]string{"source_lang": "English", "target_lang": "Spanish", "glossary_id": bobs}, "no glossary"},
			{map[string]string{"source_lang": "English", "target_lang": "Spanish", "glossary_id": "nope"}, "no glossary"},
		}
		for _, r := range refusals {
			if code, body := send(r.fields); code != 422 || !strings.Contains(problemMsg(body), r.msg) {
				t.Errorf("%s %v: %d %s, want 422 with %q", name, r.fields, code, body, r.msg)
			}
		}
	}
}

// The do-not-translate list is read and replaced through the API and is
// what the account (and so the professional mode) holds.
func TestDoNotTranslateList(t *testing.T) {
	e := newGlossaryEnv(t)
	var d DoNotTranslate
	if code := e.do("alice", "GET", "/v1/account/do-not-translate", nil, &d); code != 200 || d.Terms == nil || len(d.Terms) != 0 {
		t.Fatalf("initial: %d %+v", code, d)
	}
	if code := e.do("alice", "PUT", "/v1/account/do-not-translate", map[string]any{"terms": []string{"Dragoman", " Acme Widget "}}, &d); code != 200 || !reflect.DeepEqual(d.Terms, []string{"Dragoman", "Acme Widget"}) {
		t.Fatalf("put: %d %+v", code, d)
	}
	d = DoNotTranslate{}
	if code := e.do("alice", "GET", "/v1/account/do-not-translate", nil, &d); code != 200 || !reflect.DeepEqual(d.Terms, []string{"Dragoman", "Acme Widget"}) {
		t.Fatalf("get: %d %+v", code, d)
	}
	a, err := e.store.GetAccount(bg, "alice")
	if err != nil || !reflect.DeepEqual(a.DoNotTranslate, []string{"Dragoman", "Acme Widget"}) {
		t.Errorf("stored %+v %v", a, err)
	}
	if code := e.do("bob", "GET", "/v1/account/do-not-translate", nil, &d); code != 200 || len(d.Terms) != 0 {
		t.Errorf("bob sees %d %+v", code, d)
	}
	for _, bad := range []struct {
		terms []string
		msg   string
	}{
		{[]string{"a", "a"}, `terms[1]: duplicate term "a"`},
		{[]string{"a", " "}, "terms[1]: the term is empty"},
		{[]string{strings.Repeat("x", 201)}, "terms[0]: the term is longer than 200"},
		{[]string{"a\tb"}, "control character"},
	} {
		code, body := e.raw("alice", "PUT", "/v1/account/do-not-translate", "application/json", mustJSON(map[string]any{"terms": bad.terms}), nil)
		if code != 422 || !strings.Contains(problemMsg(body), bad.msg) {
			t.Errorf("%q: %d %s", bad.terms, code, body)
		}
	}
	many := make([]string, 1001)
	for i := range many {
		many[i] = uuid.NewString()
	}
	if code := e.do("alice", "PUT", "/v1/account/do-not-translate", map[string]any{"terms": many}, nil); code != 422 {
		t.Errorf("1001 terms: %d", code)
	}
	if code := e.do("alice", "PUT", "/v1/account/do-not-translate", map[string]any{"terms": []string{}}, &d); code != 200 || len(d.Terms) != 0 {
		t.Errorf("clear: %d %+v", code, d)
	}
	if a, _ := e.store.GetAccount(bg, "alice"); len(a.DoNotTranslate) != 0 {
		t.Errorf("not cleared: %+v", a.DoNotTranslate)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
