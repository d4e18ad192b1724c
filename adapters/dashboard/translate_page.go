package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

type translateData struct {
	Sources    []langOption
	Glossaries []glossaryView
	Pairs      string // JSON: source name → target names
	Langs      string // JSON: name → {label, rtl}, for the pickers' labels
	Modes      []modeInfo
	MaxMB      int64
	MaxSize    int64
	Accept     string // the file picker's extensions: ".docx,.doc,.odt,.rtf"
	Formats    string // "Word (.docx, .doc), OpenDocument (.odt) or RTF"
	DetectMax  int64
}

// langOption is a picker's entry: the API's English name as the value,
// shown with the language's own name ("Spanish — español"). Pickers are
// sorted by the English name.
type langOption struct {
	Name  string `json:"-"`
	Label string `json:"label"`
	RTL   bool   `json:"rtl"`
}

func optionOf(name string) langOption {
	o := langOption{Name: name, Label: name}
	if l, err := language.Lookup(name); err == nil {
		o.RTL = l.IsRTL()
		if l.Endonym != "" && !strings.EqualFold(l.Endonym, l.Name) {
			o.Label = l.Name + " — " + l.Endonym
		}
	}
	return o
}

func (d *Dashboard) translatePage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	pairs, err := d.svc.Languages.TargetsBySource(r.Context())
	p := page{Title: "Translate", Nav: "translate"}
	if err != nil {
		p.Error = d.message(err)
		pairs = map[string][]string{}
	}
	var sources []langOption
	langs := map[string]langOption{}
	for src, ts := range pairs {
		if src != "auto" && len(ts) > 0 {
			sources = append(sources, optionOf(src))
		}
		for _, t := range ts {
			langs[t] = optionOf(t)
		}
		sort.Strings(ts)
	}
	for _, o := range sources {
		langs[o.Name] = o
	}
	sort.Slice(sources, func(i, j int) bool { return sources[i].Name < sources[j].Name })
	b, _ := json.Marshal(pairs)
	l, _ := json.Marshal(langs)
	// A server without glossaries still translates: the picker is empty.
	glossaries, _ := d.glossaryViews(r, s)
	p.Data = translateData{Sources: sources, Glossaries: glossaries, Pairs: string(b), Langs: string(l), Modes: modes,
		MaxMB: d.svc.Jobs.Config.MaxUpload >> 20, MaxSize: d.svc.Jobs.Config.MaxUpload, DetectMax: detectLimit,
		Accept: strings.Join(docformat.Extensions(), ","), Formats: formatsText()}
	d.render(w, r, http.StatusOK, "translate", s, p)
}

func (d *Dashboard) languages(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	pairs, err := d.svc.Languages.TargetsBySource(r.Context())
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, pairs)
}

type accepted struct {
	JobID  string `json:"job_id"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// translate takes a multipart form with text fields (target_lang,
// source_lang, mode, pdf, glossary_id, url) and a file, and streams the
// file straight into the submission, as the API does. The job is queued
// only once the whole form is in: a body cut short, even after the file,
// makes no job.
func (d *Dashboard) translate(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.Accounts.ChargeRequest(r.Context(), s.Caller); err != nil {
		d.writeJSONError(w, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, d.svc.Jobs.Config.MaxUpload+1<<20)
	mr, err := httpguard.MultipartOf(r)
	if err != nil {
		d.writeJSONError(w, &service.Error{Kind: service.KindUnprocessable, Message: "send the form as multipart/form-data"})
		return
	}
	f, up, err := d.readForm(r, s, mr)
	if err != nil {
		if up != nil {
			d.svc.Jobs.Discard(r.Context(), up)
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = &service.Error{Kind: service.KindTooLarge, Message: fmt.Sprintf("the document is larger than %d MB", d.svc.Jobs.Config.MaxUpload>>20)}
		}
		d.writeJSONError(w, err)
		return
	}
	req := service.SubmitRequest{Name: f["name"], JobOptions: jobOptions(f)}
	var acc *service.Accepted
	switch {
	case up != nil:
		acc, err = d.svc.Jobs.Queue(r.Context(), s.Caller, up, req)
	case f["url"] != "":
		acc, err = d.svc.Jobs.SubmitURLRequest(r.Context(), s.Caller, f["url"], req)
	default:
		err = &service.Error{Kind: service.KindUnprocessable, Message: "choose a document or paste an https URL"}
	}
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, accepted{JobID: acc.Job.ID, Name: acc.Job.OriginalName, Status: string(acc.Job.Status)})
}

// readForm reads the whole upload form: its text fields, and its first
// file (as "name") received into the blob store (quota first, as the API
// does). On an error the upload received so far is returned for discarding.
func (d *Dashboard) readForm(r *http.Request, s *service.SessionCaller, mr *httpguard.Multipart) (map[string]string, *service.Upload, error) {
	f := map[string]string{}
	var up *service.Upload
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return f, up, nil
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if !errors.As(err, &mbe) {
				err = &service.Error{Kind: service.KindUnprocessable, Message: "the upload was interrupted: " + err.Error()}
			}
			return f, up, err
		}
		if part.FormName() == "file" && part.FileName() != "" && up == nil {
			if err := d.svc.Accounts.CheckQuota(r.Context(), s.Caller); err != nil {
				return f, nil, err
			}
			if up, err = d.svc.Jobs.Receive(r.Context(), part, false); err != nil {
				return f, nil, err
			}
			f["name"] = part.FileName()
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, 4<<10))
		if err != nil {
			return f, up, &service.Error{Kind: service.KindUnprocessable, Message: "the upload was interrupted: " + err.Error()}
		}
		if part.FormName() != "name" {
			f[part.FormName()] = strings.TrimSpace(string(b))
		}
	}
}

// detectLimit bounds the documents the Translate page has detected
// before submission; a larger one is detected when it is submitted.
const detectLimit = 16 << 20

// detect answers the Translate page's question "what language is this
// document in?" as soon as a file is chosen with source auto, so the
// target list follows the detected source: {"name", "endonym"} or 204.
func (d *Dashboard) detect(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	r.Body = http.MaxBytesReader(w, r.Body, detectLimit+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		d.writeJSONError(w, &service.Error{Kind: service.KindUnprocessable, Message: "send the document as multipart/form-data"})
		return
	}
	for {
		part, err := mr.NextPart()
		if err != nil {
			w.WriteHeader(http.StatusNoContent) // no file, or too large to detect here
			return
		}
		if part.FormName() != "file" {
			continue
		}
		doc, err := io.ReadAll(io.LimitReader(part, detectLimit+1))
		if err != nil || len(doc) > detectLimit {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		l, ok := d.svc.Jobs.DetectDocument(r.Context(), doc)
		if !ok {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"name": l.Name, "endonym": l.Endonym})
		return
	}
}
