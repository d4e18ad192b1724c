package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// standIn is DeepL as documented: /v2/translate (deepl_test.go) and the v2
// glossary endpoints, POST /v2/glossaries (name, source_lang, target_lang,
// entries, entries_format), GET /v2/glossaries, GET and DELETE
// /v2/glossaries/{id}. Glossaries are account-wide: a second plugin
// process against the same stand-in sees them.
type standIn struct {
	t *testing.T

	mu       sync.Mutex
	byID     map[string]*vendorEntry
	next     int
	creates  int
	lists    int
	polls    int
	notReady int  // polls a created glossary answers ready=false
	full     bool // the account's glossary limit is reached
}

type vendorEntry struct {
	info    glossaryInfo
	terms   map[string]string
	waiting int
}

func newStandIn(t *testing.T) *standIn { return &standIn{t: t, byID: map[string]*vendorEntry{}} }

func (d *standIn) count() (creates, lists, polls int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.creates, d.lists, d.polls
}

func (d *standIn) glossaries(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	answer := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	refuse := func(status int, msg string) { answer(status, map[string]string{"message": msg}) }
	id := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/v2/glossaries"), "/")
	switch {
	case r.Method == http.MethodPost && id == "":
		d.creates++
		var req struct {
			Name, SourceLang, TargetLang, Entries, EntriesFormat string
		}
		dec := json.NewDecoder(r.Body)
		if err := dec.Decode(&struct {
			Name          *string `json:"name"`
			SourceLang    *string `json:"source_lang"`
			TargetLang    *string `json:"target_lang"`
			Entries       *string `json:"entries"`
			EntriesFormat *string `json:"entries_format"`
		}{&req.Name, &req.SourceLang, &req.TargetLang, &req.Entries, &req.EntriesFormat}); err != nil {
			refuse(400, "Bad request: "+err.Error())
			return
		}
		if d.full {
			refuse(456, "Quota exceeded. The maximum amount of glossaries has been reached.")
			return
		}
		if req.Name == "" || req.EntriesFormat != "tsv" {
			refuse(400, "Bad request: name and entries_format=tsv expected")
			return
		}
		if strings.Contains(req.SourceLang, "-") || strings.Contains(req.TargetLang, "-") || req.SourceLang == "" || req.TargetLang == "" {
			refuse(400, "Unsupported glossary language pair "+req.SourceLang+">"+req.TargetLang)
			return
		}
		// Entries as DeepL reads them: CSV conventions with a tab, so a
		// phrase with a double quote must be quoted, its quotes doubled.
		terms := map[string]string{}
		cr := csv.NewReader(strings.NewReader(req.Entries))
		cr.Comma, cr.FieldsPerRecord = '\t', 2
		for i := 1; ; i++ {
			f, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil || f[0] == "" || f[1] == "" || terms[f[0]] != "" || strings.Contains(f[1], "REFUSE") {
				refuse(400, fmt.Sprintf("Invalid glossary entries provided: line %d", i))
				return
			}
			terms[f[0]] = f[1]
		}
		d.next++
		e := &vendorEntry{terms: terms, waiting: d.notReady, info: glossaryInfo{
			ID: fmt.Sprintf("def3a26b-%04d", d.next), Name: req.Name, Ready: d.notReady == 0,
			SourceLang: strings.ToLower(req.SourceLang), TargetLang: strings.ToLower(req.TargetLang), EntryCount: len(terms)}}
		d.byID[e.info.ID] = e
		answer(201, e.info)
	case r.Method == http.MethodGet && id == "":
		d.lists++
		var list []glossaryInfo
		for _, e := range d.byID {
			list = append(list, e.info)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
		answer(200, map[string]any{"glossaries": list})
	case r.Method == http.MethodGet:
		d.polls++
		e, ok := d.byID[id]
		if !ok {
			refuse(404, "Not found")
			return
		}
		if e.waiting > 0 {
			e.waiting--
		}
		e.info.Ready = e.waiting == 0
		answer(200, e.info)
	case r.Method == http.MethodDelete:
		if _, ok := d.byID[id]; !ok {
			refuse(404, "Not found")
			return
		}
		delete(d.byID, id)
		w.WriteHeader(204)
	default:
		refuse(404, "no such endpoint")
	}
}

// use checks a translate request's glossary_id as DeepL does.
func (d *standIn) use(id, src, tgt string) (*vendorEntry, int, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.byID[id]
	switch {
	case src == "":
		return nil, 400, "Use of a glossary requires the source_lang parameter to be specified"
	case !ok:
		return nil, 404, "Glossary not found"
	case !e.info.Ready:
		return nil, 400, "Glossary is not ready yet"
	case !strings.EqualFold(e.info.SourceLang, glossaryLang(src)) || !strings.EqualFold(e.info.TargetLang, glossaryLang(tgt)):
		return nil, 400, "Language pair of the glossary doesn't match the language pair of the request"
	}
	return e, 0, ""
}

// apply translates like enginetest.Upper, but writes each glossary term's
// target as it is, so a test sees the glossary at work.
func (e *vendorEntry) apply(s string) string {
	var src []string
	for k := range e.terms {
		src = append(src, k)
	}
	sort.Slice(src, func(i, j int) bool { return len(src[i]) > len(src[j]) })
	for i, k := range src {
		s = strings.ReplaceAll(s, k, fmt.Sprintf("\x00%d\x00", i))
	}
	s = enginetest.Upper(s)
	for i, k := range src {
		s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), e.terms[k])
	}
	return s
}

func startWith(t *testing.T, d *standIn) (ports.Engine, *enginetest.Vendor) {
	t.Helper()
	v := enginetest.NewVendor(t, d)
	env := suite().Env(v.URL)
	env["DRAGOMAN_DEEPL_MAX_RETRIES"], env["DRAGOMAN_DEEPL_BACKOFF"] = "2", "10ms"
	e, err := enginetest.Start(t, pluginDir, "deepl", env)
	if err != nil {
		t.Fatal(err)
	}
	return e, v
}

func billing(entries ...glossary.Entry) *glossary.Glossary {
	if entries == nil {
		entries = []glossary.Entry{{Source: "invoice", Target: "Rechnung"}, {Source: "due date", Target: "Fälligkeitsdatum"}}
	}
	return &glossary.Glossary{Name: "Billing", SourceLang: "en", TargetLang: "de", Entries: entries}
}

func translateWith(t *testing.T, e ports.Engine, g *glossary.Glossary, segs ...string) (ports.TranslateResult, error) {
	t.Helper()
	return e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: g.SourceLang, Target: g.TargetLang, Mode: translation.Full,
		Segments: segs, Glossary: &ports.Glossary{Version: g.Version(), Entries: g.Entries}})
}

// A job's glossary becomes one DeepL glossary, created once however many
// batches the job sends at once, used through glossary_id; another
// plugin process finds it again by name; other content makes another.
func TestDeepLGlossaryCreatedOncePerContent(t *testing.T) {
	d := newStandIn(t)
	e, _ := startWith(t, d)
	if !e.Caps.GlossaryNative("en", "de") || !e.Caps.GlossaryNative("ja", "en") {
		t.Fatalf("deepl capabilities %+v: DeepL applies glossaries itself", e.Caps)
	}
	g := billing()
	doc := &segment.Document{}
	for i := range 120 { // three batches of 50 in flight together
		doc.Units = append(doc.Units, segment.Unit{Segments: []segment.Segment{{Source: fmt.Sprintf(`Pay <g id="1">invoice</g> %d by the due date.`, i)}}})
	}
	tr := &translate.Translator{Engines: registry{e}}
	res, err := tr.TranslateWith(context.Background(), doc, "en", "de", translation.Full, translate.Options{Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Units[7].Segments[0].Target; got != `PAY <g id="1">Rechnung</g> 7 BY THE Fälligkeitsdatum.` {
		t.Errorf("target %q", got)
	}
	if res.Metrics.EngineCalls != 3 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "240 term occurrence(s) applied") {
		t.Errorf("metrics %+v, warnings %q", res.Metrics, res.Warnings)
	}
	if creates, lists, _ := d.count(); creates != 1 || lists != 1 {
		t.Errorf("%d glossaries created after %d lookups, want 1 and 1", creates, lists)
	}
	// The next job of the same process: from memory, no glossary request.
	if _, err := translateWith(t, e, g, "The invoice."); err != nil {
		t.Fatal(err)
	}
	if creates, lists, _ := d.count(); creates != 1 || lists != 1 {
		t.Errorf("second job: %d created, %d lookups", creates, lists)
	}

	// A restarted plugin finds it by name.
	e2, _ := startWith(t, d)
	res2, err := translateWith(t, e2, g, "The invoice.")
	if err != nil || res2.Segments[0] != "THE Rechnung." {
		t.Fatalf("after restart: %q, %v", res2.Segments, err)
	}
	if creates, lists, _ := d.count(); creates != 1 || lists != 2 {
		t.Errorf("after restart: %d created, %d lookups; want it found again", creates, lists)
	}

	// Other entries, or another pair: another glossary. A target variant
	// (en-US) uses DeepL's bare language.
	if _, err := translateWith(t, e2, billing(glossary.Entry{Source: "invoice", Target: "Faktura"}), "The invoice."); err != nil {
		t.Fatal(err)
	}
	back := &glossary.Glossary{Name: "Back", SourceLang: "de", TargetLang: "en", Entries: []glossary.Entry{{Source: "Rechnung", Target: "bill"}}}
	if res, err := translateWith(t, e2, back, "Die Rechnung."); err != nil || res.Segments[0] != "DIE bill." {
		t.Errorf("de→en: %q, %v", res.Segments, err)
	}
	if creates, _, _ := d.count(); creates != 3 {
		t.Errorf("%d glossaries, want 3", creates)
	}
}

// DeepL's documented refusals: a glossary not ready yet is waited for; one
// deleted behind the plugin's back is made again; one DeepL refuses (400)
// leaves the batch translated without it and a warning; the account's
// glossary limit (456) and a bad key (403) fail at once.
func TestDeepLGlossaryErrors(t *testing.T) {
	t.Run("not ready is polled", func(t *testing.T) {
		d := newStandIn(t)
		d.notReady = 2
		e, _ := startWith(t, d)
		res, err := translateWith(t, e, billing(), "The invoice.")
		if err != nil || res.Segments[0] != "THE Rechnung." {
			t.Fatalf("%q, %v", res.Segments, err)
		}
		if _, _, polls := d.count(); polls != 2 {
			t.Errorf("%d polls, want 2", polls)
		}
	})
	t.Run("deleted glossary is made again", func(t *testing.T) {
		d := newStandIn(t)
		e, _ := startWith(t, d)
		if _, err := translateWith(t, e, billing(), "The invoice."); err != nil {
			t.Fatal(err)
		}
		d.mu.Lock()
		clear(d.byID)
		d.mu.Unlock()
		res, err := translateWith(t, e, billing(), "The invoice.")
		if err != nil || res.Segments[0] != "THE Rechnung." {
			t.Fatalf("%q, %v", res.Segments, err)
		}
		if creates, _, _ := d.count(); creates != 2 {
			t.Errorf("%d created, want 2", creates)
		}
	})
	t.Run("refused glossary translates without it", func(t *testing.T) {
		d := newStandIn(t)
		e, _ := startWith(t, d)
		res, err := translateWith(t, e, billing(glossary.Entry{Source: "invoice", Target: "REFUSE"}), "The invoice.")
		if err != nil || res.Segments[0] != "THE INVOICE." {
			t.Fatalf("%q, %v", res.Segments, err)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "DeepL refused the glossary") || !strings.Contains(res.Warnings[0], "Invalid glossary entries provided: line 1") {
			t.Errorf("warnings %q", res.Warnings)
		}
		// The next batch is not refused again: it goes without at once.
		res, err = translateWith(t, e, billing(glossary.Entry{Source: "invoice", Target: "REFUSE"}), "The invoice.")
		if creates, _, _ := d.count(); err != nil || creates != 1 || len(res.Warnings) != 1 {
			t.Errorf("second batch: %d creations, %q, %v", creates, res.Warnings, err)
		}
	})
	t.Run("glossary limit is final", func(t *testing.T) {
		d := newStandIn(t)
		d.full = true
		e, _ := startWith(t, d)
		_, err := translateWith(t, e, billing(), "The invoice.")
		if err == nil || !strings.Contains(err.Error(), "deepl: HTTP 456: glossary limit reached") {
			t.Errorf("error %v", err)
		}
		if creates, _, _ := d.count(); creates != 1 {
			t.Errorf("%d attempts, want 1", creates)
		}
	})
	t.Run("bad key is final", func(t *testing.T) {
		d := newStandIn(t)
		e, v := startWith(t, d)
		v.Always(enginetest.Fault{Status: 403, Body: `{"message":"Wrong endpoint"}`})
		start := time.Now()
		_, err := translateWith(t, e, billing(), "The invoice.")
		if err == nil || !strings.Contains(err.Error(), "authorization failed") || v.Requests() != 1 {
			t.Errorf("error %v after %d requests in %s", err, v.Requests(), time.Since(start))
		}
	})
}

type registry []ports.Engine

func (r registry) Engines(context.Context) ([]ports.Engine, error) { return r, nil }

// DeepL reads glossary entries with CSV's conventions, a tab between the
// phrases: a phrase with a double quote (an inch mark, a quoted name) is
// sent quoted, its quotes doubled, so DeepL neither refuses the glossary
// nor takes the quotes away.
func TestDeepLGlossaryPhrasesWithQuotes(t *testing.T) {
	d := newStandIn(t)
	e, _ := startWith(t, d)
	g := billing(glossary.Entry{Source: `5" screen`, Target: "5-Zoll-Bildschirm"}, glossary.Entry{Source: "Acme", Target: `"Acme" AG`},
		glossary.Entry{Source: "invoice", Target: "Rechnung"})
	res, err := translateWith(t, e, g, `The 5" screen by Acme, with its invoice.`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `THE 5-Zoll-Bildschirm BY "Acme" AG, WITH ITS Rechnung.`; res.Segments[0] != want || len(res.Warnings) != 0 {
		t.Errorf("%q, warnings %q; want %q and none", res.Segments[0], res.Warnings, want)
	}
}
