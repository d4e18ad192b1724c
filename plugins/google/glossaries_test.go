package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

const parent = "projects/my-project/locations/us-central1"

// standIn is Cloud Translation v3 as documented (translateText in
// google_test.go) with its glossaries: POST …/glossaries (a long-running
// operation reading a TSV file from Cloud Storage), GET …/glossaries/{id},
// GET …/operations/{id}; and the Storage JSON API's media upload, POST
// /upload/storage/v1/b/{bucket}/o?uploadType=media&name=…. Glossaries are
// not served from the global location.
type standIn struct {
	t *testing.T

	mu      sync.Mutex
	objects map[string]string       // bucket/object → content
	byName  map[string]*vendorEntry // glossary resource name → made glossary
	ops     map[string]*pendingOp
	next    int
	opPolls int // polls an operation answers done=false

	uploads, creates, gets, polls int
}

type vendorEntry struct {
	src, tgt string
	terms    map[string]string
}

type pendingOp struct {
	name  string // the glossary's
	entry *vendorEntry
	err   string // the operation's error, INVALID_ARGUMENT
	left  int
}

func newStandIn(t *testing.T) *standIn {
	return &standIn{t: t, objects: map[string]string{}, byName: map[string]*vendorEntry{}, ops: map[string]*pendingOp{}}
}

func (d *standIn) count() (uploads, creates, gets, polls int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.uploads, d.creates, d.gets, d.polls
}

// glossaries answers the glossary and storage endpoints; false for others.
func (d *standIn) glossaries(w http.ResponseWriter, r *http.Request) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	answer := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	refuse := func(code int, status, msg string) {
		answer(code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
	}
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(p, "/upload/storage/v1/b/"):
		d.uploads++
		bucket := strings.TrimSuffix(strings.TrimPrefix(p, "/upload/storage/v1/b/"), "/o")
		name := r.URL.Query().Get("name")
		if r.URL.Query().Get("uploadType") != "media" || name == "" {
			refuse(400, "INVALID_ARGUMENT", "uploadType=media and name expected")
			return true
		}
		b, _ := io.ReadAll(r.Body)
		d.objects[bucket+"/"+name] = string(b)
		answer(200, map[string]any{"bucket": bucket, "name": name, "size": fmt.Sprint(len(b))})
	case r.Method == http.MethodGet && strings.Contains(p, "/glossaries/"):
		d.gets++
		name := strings.TrimPrefix(p, "/v3/")
		if e, ok := d.byName[name]; ok {
			answer(200, map[string]any{"name": name, "entryCount": len(e.terms)})
		} else {
			refuse(404, "NOT_FOUND", "Glossary not found.")
		}
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/glossaries"):
		d.creates++
		var req struct {
			Name         string
			LanguagePair struct{ SourceLanguageCode, TargetLanguageCode string }
			InputConfig  struct {
				GcsSource struct {
					InputURI string `json:"inputUri"`
				}
			}
		}
		if strings.Contains(p, "/locations/global/") {
			refuse(400, "INVALID_ARGUMENT", "Glossaries are not supported in the global location.")
			return true
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !strings.HasPrefix(req.Name, strings.TrimSuffix(strings.TrimPrefix(p, "/v3/"), "/glossaries")+"/glossaries/") ||
			req.LanguagePair.SourceLanguageCode == "" || req.LanguagePair.TargetLanguageCode == "" {
			refuse(400, "INVALID_ARGUMENT", fmt.Sprintf("bad glossary %+v: %v", req, err))
			return true
		}
		for _, op := range d.ops {
			if op.name == req.Name && op.left > 0 {
				refuse(409, "ALREADY_EXISTS", "Glossary is being created.")
				return true
			}
		}
		if _, ok := d.byName[req.Name]; ok {
			refuse(409, "ALREADY_EXISTS", "Glossary already exists.")
			return true
		}
		d.next++
		op := &pendingOp{name: req.Name, left: d.opPolls}
		content, ok := d.objects[strings.TrimPrefix(req.InputConfig.GcsSource.InputURI, "gs://")]
		switch {
		case !ok || !strings.HasSuffix(req.InputConfig.GcsSource.InputURI, ".tsv"):
			op.err = "Glossary file not found or not .tsv: " + req.InputConfig.GcsSource.InputURI
		case strings.Contains(content, "REFUSE"):
			op.err = "Invalid glossary entry on line 1."
		default:
			op.entry = &vendorEntry{src: req.LanguagePair.SourceLanguageCode, tgt: req.LanguagePair.TargetLanguageCode, terms: map[string]string{}}
			for _, line := range strings.Split(strings.TrimRight(content, "\n"), "\n") {
				f := strings.Split(line, "\t")
				if len(f) != 2 {
					op.err = "Invalid glossary line " + line
					break
				}
				op.entry.terms[f[0]] = f[1]
			}
		}
		opName := fmt.Sprintf("%s/operations/op-%d", strings.TrimSuffix(strings.TrimPrefix(p, "/v3/"), "/glossaries"), d.next)
		d.ops[opName] = op
		answer(200, d.opState(opName, op))
	case r.Method == http.MethodGet && strings.Contains(p, "/operations/"):
		d.polls++
		name := strings.TrimPrefix(p, "/v3/")
		op, ok := d.ops[name]
		if !ok {
			refuse(404, "NOT_FOUND", "Operation not found.")
			return true
		}
		if op.left > 0 {
			op.left--
		}
		answer(200, d.opState(name, op))
	default:
		return false
	}
	return true
}

// opState is an operation as the API shows it; a finished one has made
// its glossary.
func (d *standIn) opState(name string, op *pendingOp) map[string]any {
	out := map[string]any{"name": name, "done": op.left == 0}
	if op.left > 0 {
		return out
	}
	if op.err != "" {
		out["error"] = map[string]any{"code": 3, "message": op.err}
		return out
	}
	d.byName[op.name] = op.entry
	out["response"] = map[string]any{"name": op.name, "entryCount": len(op.entry.terms)}
	return out
}

// use checks a translateText glossaryConfig as the API does.
func (d *standIn) use(location, name, src, tgt string) (*vendorEntry, int, string, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.byName[name]
	switch {
	case location == "global":
		return nil, 400, "INVALID_ARGUMENT", "Glossaries need a regional location."
	case src == "":
		return nil, 400, "INVALID_ARGUMENT", "Source language is required with a glossary."
	case !ok:
		return nil, 404, "NOT_FOUND", "Glossary not found."
	case e.src != src || e.tgt != tgt:
		return nil, 400, "INVALID_ARGUMENT", "The glossary's language pair does not match the request's."
	}
	return e, 0, "", ""
}

// apply translates HTML like enginetest.Upper, writing each glossary
// term's target as it is, so a test sees the glossary at work.
func (e *vendorEntry) apply(s string) string {
	var src []string
	for k := range e.terms {
		src = append(src, k)
	}
	sort.Slice(src, func(i, j int) bool { return len(src[i]) > len(src[j]) })
	for i, k := range src {
		s = strings.ReplaceAll(s, html.EscapeString(k), fmt.Sprintf("\x00%d\x00", i))
	}
	s = enginetest.Upper(s)
	for i, k := range src {
		s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), html.EscapeString(e.terms[k]))
	}
	return s
}

func startWith(t *testing.T, d *standIn, extra map[string]string) (ports.Engine, *enginetest.Vendor, error) {
	t.Helper()
	v := enginetest.NewVendor(t, d)
	env := map[string]string{"DRAGOMAN_GOOGLE_PROJECT": "my-project", "DRAGOMAN_GOOGLE_ACCESS_TOKEN": "ya29.token", "DRAGOMAN_GOOGLE_BASE_URL": v.URL,
		"DRAGOMAN_GOOGLE_LOCATION": "us-central1", "DRAGOMAN_GOOGLE_GLOSSARY_BUCKET": "acme-glossaries", "DRAGOMAN_GOOGLE_STORAGE_URL": v.URL,
		"DRAGOMAN_GOOGLE_MAX_RETRIES": "2", "DRAGOMAN_GOOGLE_BACKOFF": "10ms"}
	for k, val := range extra {
		env[k] = val
	}
	e, err := enginetest.Start(t, pluginDir, "google", env)
	return e, v, err
}

func billing(entries ...glossary.Entry) *glossary.Glossary {
	if entries == nil {
		entries = []glossary.Entry{{Source: "invoice", Target: "发票"}, {Source: "due date", Target: "到期日"}}
	}
	return &glossary.Glossary{Name: "Billing", SourceLang: "en", TargetLang: "zh-Hans", Entries: entries}
}

func translateWith(t *testing.T, e ports.Engine, g *glossary.Glossary, segs ...string) (ports.TranslateResult, error) {
	t.Helper()
	return e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: g.SourceLang, Target: g.TargetLang, Mode: sdk.Full,
		Segments: segs, Glossary: &ports.Glossary{Version: g.Version(), Entries: g.Entries}})
}

// With a bucket, a job's glossary becomes one glossary resource: its
// entries uploaded to Cloud Storage once, created once however many
// batches are in flight, named in glossaryConfig; a restarted plugin
// finds it by its name; other content makes another.
func TestGoogleGlossaryCreatedOncePerContent(t *testing.T) {
	d := newStandIn(t)
	d.opPolls = 1
	e, _, err := startWith(t, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Caps.GlossaryNative("en", "zh-Hans") {
		t.Fatalf("capabilities %+v", e.Caps)
	}
	g := billing()
	doc := &segment.Document{}
	for i := range 300 { // three batches of 128 in flight together
		doc.Units = append(doc.Units, segment.Unit{Segments: []segment.Segment{{Source: fmt.Sprintf(`Pay <g id="1">invoice</g> %d by the due date.`, i)}}})
	}
	tr := &translate.Translator{Engines: registry{e}}
	res, err := tr.TranslateWith(context.Background(), doc, "en", "zh-Hans", sdk.Full, translate.Options{Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Units[7].Segments[0].Target; got != `PAY <g id="1">发票</g> 7 BY THE 到期日.` {
		t.Errorf("target %q", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "600 term occurrence(s) applied") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if uploads, creates, gets, polls := d.count(); uploads != 1 || creates != 1 || gets != 1 || polls != 1 {
		t.Errorf("%d uploads, %d creations, %d lookups, %d polls; want 1 each", uploads, creates, gets, polls)
	}
	d.mu.Lock()
	tsv := d.objects["acme-glossaries/dragoman-glossaries/dragoman-"+g.Version()+".tsv"]
	d.mu.Unlock()
	if tsv != "invoice\t发票\ndue date\t到期日\nInvoice\t发票\nDue date\t到期日\n" {
		t.Errorf("uploaded %q", tsv)
	}

	e2, _, err := startWith(t, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := translateWith(t, e2, g, "The invoice."); err != nil || res.Segments[0] != "THE 发票." {
		t.Fatalf("after restart: %q, %v", res.Segments, err)
	}
	if _, creates, gets, _ := d.count(); creates != 1 || gets != 2 {
		t.Errorf("after restart: %d creations, %d lookups; want it found again", creates, gets)
	}
	if _, err := translateWith(t, e2, billing(glossary.Entry{Source: "invoice", Target: "账单"}), "The invoice."); err != nil {
		t.Fatal(err)
	}
	if _, creates, _, _ := d.count(); creates != 2 {
		t.Errorf("%d creations, want 2", creates)
	}
}

// Without a bucket the engine leaves glossaries to the core; a bucket
// needs an access token and a regional location. A glossary deleted
// behind the plugin's back is made again; one the API refuses
// (INVALID_ARGUMENT in the operation) leaves the batch translated without
// it and a warning.
func TestGoogleGlossarySettingsAndErrors(t *testing.T) {
	t.Run("no bucket: the core enforces", func(t *testing.T) {
		e, _, err := startWith(t, newStandIn(t), map[string]string{"DRAGOMAN_GOOGLE_GLOSSARY_BUCKET": ""})
		if err != nil || e.Caps.NativeGlossary {
			t.Errorf("capabilities %+v, %v", e.Caps, err)
		}
	})
	t.Run("bucket needs a regional location", func(t *testing.T) {
		_, _, err := startWith(t, newStandIn(t), map[string]string{"DRAGOMAN_GOOGLE_LOCATION": "global"})
		if err == nil || !strings.Contains(err.Error(), "DRAGOMAN_GOOGLE_LOCATION") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("deleted glossary is made again", func(t *testing.T) {
		d := newStandIn(t)
		e, _, err := startWith(t, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := translateWith(t, e, billing(), "The invoice."); err != nil {
			t.Fatal(err)
		}
		d.mu.Lock()
		clear(d.byName)
		d.mu.Unlock()
		if res, err := translateWith(t, e, billing(), "The invoice."); err != nil || res.Segments[0] != "THE 发票." {
			t.Fatalf("%q, %v", res.Segments, err)
		}
		if _, creates, _, _ := d.count(); creates != 2 {
			t.Errorf("%d creations, want 2", creates)
		}
	})
	t.Run("refused glossary translates without it", func(t *testing.T) {
		d := newStandIn(t)
		e, _, err := startWith(t, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := translateWith(t, e, billing(glossary.Entry{Source: "invoice", Target: "REFUSE"}), "The invoice.")
		if err != nil || res.Segments[0] != "THE INVOICE." {
			t.Fatalf("%q, %v", res.Segments, err)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "refused the glossary") || !strings.Contains(res.Warnings[0], "Invalid glossary entry") {
			t.Errorf("warnings %q", res.Warnings)
		}
		// The next batch is not refused again: it goes without at once.
		res, err = translateWith(t, e, billing(glossary.Entry{Source: "invoice", Target: "REFUSE"}), "The invoice.")
		if _, creates, _, _ := d.count(); err != nil || creates != 1 || len(res.Warnings) != 1 {
			t.Errorf("second batch: %d creations, %q, %v", creates, res.Warnings, err)
		}
	})
	t.Run("bad token is final", func(t *testing.T) {
		d := newStandIn(t)
		e, v, err := startWith(t, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		v.Always(enginetest.Fault{Status: 403, Body: `{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}`})
		_, err = translateWith(t, e, billing(), "The invoice.")
		if err == nil || !strings.Contains(err.Error(), "PERMISSION_DENIED") || v.Requests() != 1 {
			t.Errorf("error %v after %d requests", err, v.Requests())
		}
	})
}

type registry []ports.Engine

func (r registry) Engines(context.Context) ([]ports.Engine, error) { return r, nil }

// Google matches glossary terms case-sensitively (glossaryConfig's
// ignoreCase is false), the host also matches a lower-case term with a
// capital first letter (a sentence's first word) and expects its target
// capitalised: the glossary carries those variants, so a term opening a
// sentence is applied as the host enforces and counts it; an entry of its
// own for the capitalised form (terms that differ only in case) wins.
func TestGoogleGlossaryTermOpeningASentence(t *testing.T) {
	d := newStandIn(t)
	e, _, err := startWith(t, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &glossary.Glossary{Name: "Es", SourceLang: "en", TargetLang: "es", Entries: []glossary.Entry{
		{Source: "invoice", Target: "factura"}, {Source: "us", Target: "nosotros"}, {Source: "Us", Target: "EE. UU."}}}
	res, err := translateWith(t, e, g, "Invoice us. The invoice. Us.")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Factura nosotros. THE factura. EE. UU.."; res.Segments[0] != want {
		t.Errorf("%q, want %q", res.Segments[0], want)
	}
}
