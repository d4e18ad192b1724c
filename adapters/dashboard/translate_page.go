package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/job"
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
	// The quota, for the script to decide when to quote before Translate:
	// the words left this month, empty when unlimited.
	LeftWords, LimitWords string
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
		d.pageError(w, &p, err)
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
	td := translateData{Sources: sources, Glossaries: glossaries, Pairs: string(b), Langs: string(l), Modes: modes,
		MaxMB: d.svc.Jobs.Config.MaxUpload >> 20, MaxSize: d.svc.Jobs.Config.MaxUpload, DetectMax: detectLimit,
		Accept: strings.Join(docformat.Extensions(), ",") + ",.zip", Formats: formatsText()}
	if u, err := d.svc.Accounts.Usage(r.Context(), s.Caller); err == nil && u.LimitWords != nil {
		td.LeftWords, td.LimitWords = fmt.Sprint(max(*u.LimitWords-u.UsedWords, 0)), fmt.Sprint(*u.LimitWords)
	}
	p.Data = td
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

// submittedBody answers the translate form: the job, or a batch's jobs;
// with hold, the held jobs and their quote.
type submittedBody struct {
	accepted
	BatchID string            `json:"batch_id,omitempty"`
	Jobs    []accepted        `json:"jobs"`
	Skipped []string          `json:"skipped,omitempty"` // a .zip's entries that are not documents
	Held    bool              `json:"held,omitempty"`
	Quote   *httpapi.QuoteOut `json:"quote,omitempty"`
}

// translate takes a multipart form with text fields (target_lang,
// target_langs, source_lang, mode, pdf, glossary_id, url, hold) and a file
// (a document or a .zip of documents), and streams the file straight into
// the submission, as the API does. The job is queued only once the whole
// form is in: a body cut short, even after the file, makes no job. With
// hold, the jobs wait and the answer carries their quote.
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
	var (
		sub *service.Submission
		q   *service.Quote
	)
	switch {
	case up != nil && req.Hold:
		sub, q, err = d.svc.Jobs.HoldAndQuote(r.Context(), s.Caller, up, req)
	case up != nil:
		sub, err = d.svc.Jobs.QueueUpload(r.Context(), s.Caller, up, req)
	case f["url"] != "" && req.Hold:
		sub, q, err = d.svc.Jobs.HoldAndQuoteURL(r.Context(), s.Caller, f["url"], req)
	case f["url"] != "":
		sub, err = d.svc.Jobs.SubmitURL(r.Context(), s.Caller, f["url"], req)
	default:
		err = &service.Error{Kind: service.KindUnprocessable, Message: "choose a document or paste an https URL"}
	}
	if err != nil {
		if sub != nil { // held, but the quote failed: nothing is left waiting
			d.cancelAll(r, s, sub)
		}
		d.writeJSONError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, submittedOf(sub, q, s.Account.Limits().Name))
}

func submittedOf(sub *service.Submission, q *service.Quote, plan string) submittedBody {
	jobs := []*service.Accepted{sub.Job}
	var out submittedBody
	if sub.Batch != nil {
		jobs, out.BatchID, out.Skipped = sub.Batch.Jobs, sub.Batch.ID, sub.Batch.Skipped
	}
	for _, acc := range jobs {
		out.Jobs = append(out.Jobs, accepted{JobID: acc.Job.ID, Name: acc.Job.OriginalName, Status: string(acc.Job.Status)})
	}
	out.accepted = out.Jobs[0]
	if q != nil {
		body := httpapi.QuoteBody(q, plan)
		out.Held, out.Quote = true, &body
	}
	return out
}

// cancelAll cancels the jobs of a submission.
func (d *Dashboard) cancelAll(r *http.Request, s *service.SessionCaller, sub *service.Submission) {
	jobs := []*service.Accepted{sub.Job}
	if sub.Batch != nil {
		jobs = sub.Batch.Jobs
	}
	for _, acc := range jobs {
		_, _ = d.svc.Jobs.CancelUnfinished(r.Context(), s.Caller, acc.Job.ID)
	}
}

// confirmJob starts a held job (the quote panel's Translate).
func (d *Dashboard) confirmJob(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	j, err := d.svc.Jobs.ConfirmJob(r.Context(), s.Caller, r.PathValue("id"))
	d.jobAnswer(w, r, s, j, err)
}

// cancelJob cancels a job that has not finished (the quote panel's Cancel).
func (d *Dashboard) cancelJob(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	c, err := d.svc.Jobs.CancelJob(r.Context(), s.Caller, r.PathValue("id"))
	var j *job.Job
	if c != nil {
		j = c.Job
	}
	d.jobAnswer(w, r, s, j, err)
}

// jobAnswer answers the script with JSON, a plain form with the jobs page.
func (d *Dashboard) jobAnswer(w http.ResponseWriter, r *http.Request, s *service.SessionCaller, j *job.Job, err error) {
	if wantsJSON(r) {
		if err != nil {
			d.writeJSONError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, accepted{JobID: j.ID, Name: j.OriginalName, Status: string(j.Status)})
		return
	}
	if err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Jobs", Nav: "jobs", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/jobs#job-"+j.ID, http.StatusSeeOther)
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
