package dashboard

import (
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// structureParts splits the structure check's one-line summary,
// "fidelity: no loss (paragraphs 4, tables 2 …)", into the verdict a
// person reads first and the counts behind it.
func structureParts(s string) (verdict, details string) {
	s = strings.TrimPrefix(s, "fidelity: ")
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i], s[i+2 : len(s)-1]
	}
	return s, ""
}

type jobView struct {
	*job.Job
	Step, Steps  int
	Ready        bool
	HasPDF       bool // ready, and its PDF rendition was rendered
	HasBilingual bool // ready, and its bilingual document was made
	Expired      bool
	TimeLeft     string
	Source       string // language names: jobs store codes
	Target       string
	Verdict      string // the structure check's verdict, and its counts
	Counts       string
	Route        string // over a chain: "English → Spanish → French, apertium"
	Held         bool   // waiting for its owner's confirmation
	HeldUntil    string // when it is dropped
}

// jobEntry is one row of the jobs page: a job alone, or a batch (a
// submission to several targets, or of a .zip) that expands into its jobs.
type jobEntry struct {
	Job   *jobView
	Batch *batchView
}

// batchView sums up a batch's jobs for its row.
type batchView struct {
	ID        string
	Jobs      []jobView
	Status    string // pending, processing, completed, failed or partial
	Done      int    // jobs finished
	Words     int
	Documents []string
	Source    string
	Targets   []string
	CreatedAt time.Time
	Mode      translation.Mode
}

// entries groups the jobs of each batch into one entry, where the batch's
// newest job stands in the newest-first list.
func entries(views []jobView) []jobEntry {
	var out []jobEntry
	at := map[string]int{}
	for i := range views {
		v := views[i]
		if v.BatchID == "" {
			out = append(out, jobEntry{Job: &v})
			continue
		}
		k, ok := at[v.BatchID]
		if !ok {
			k = len(out)
			at[v.BatchID] = k
			out = append(out, jobEntry{Batch: &batchView{ID: v.BatchID, Source: v.Source, CreatedAt: v.CreatedAt, Mode: v.Mode}})
		}
		b := out[k].Batch
		b.Jobs = append([]jobView{v}, b.Jobs...) // in the order they were made
		b.Words += v.Words
		if v.Status.Terminal() {
			b.Done++
		}
		if !slices.Contains(b.Documents, v.OriginalName) {
			b.Documents = append([]string{v.OriginalName}, b.Documents...)
		}
		if !slices.Contains(b.Targets, v.Target) {
			b.Targets = append([]string{v.Target}, b.Targets...)
		}
	}
	for _, e := range out {
		if e.Batch != nil {
			jobs := make([]*job.Job, len(e.Batch.Jobs))
			for i := range e.Batch.Jobs {
				jobs[i] = e.Batch.Jobs[i].Job
			}
			e.Batch.Status = (&service.BatchView{ID: e.Batch.ID, Jobs: jobs}).Status()
		}
	}
	return out
}

var stepOf = map[job.Stage]int{
	job.StageAccepted: 0, job.StageConverted: 1, job.StageExtracted: 2, job.StageTranslated: 3,
	job.StageAssembled: 4, job.StageLaidOut: 5, job.StageFinished: 6,
}

func (d *Dashboard) jobViews(r *http.Request, s *service.SessionCaller) ([]jobView, error) {
	// The newest page of the API's job list, through the same catalogue.
	page, err := d.svc.Jobs.ListJobs(r.Context(), s.Caller, "", "", service.MaxJobPage)
	if err != nil {
		return nil, err
	}
	jobs := page.Jobs
	now := d.svc.Jobs.Clock.Now()
	out := make([]jobView, 0, len(jobs))
	for _, j := range jobs {
		v := jobView{Job: j, Step: stepOf[j.Stage], Steps: 6, Source: language.NameOf(j.SourceLang), Target: language.NameOf(j.TargetLang)}
		v.Verdict, v.Counts = structureParts(j.Structure)
		v.Route = routeText(j.Route)
		if j.SourceLang == "auto" || j.SourceLang == "" {
			v.Source = "auto-detect"
			if j.DetectedLang != "" {
				v.Source = language.NameOf(j.DetectedLang) + " (detected)"
			}
		}
		if j.Held() {
			v.Held, v.HeldUntil = true, j.HeldUntil.UTC().Format("15:04 UTC")
		}
		switch j.Download(now, d.svc.Jobs.Config.DownloadTTL) {
		case job.DownloadReady:
			v.Ready = true
			v.HasPDF = j.PDF == job.PDFReady
			v.HasBilingual = j.Bilingual == job.PDFReady
			left := d.svc.Jobs.Config.DownloadTTL - now.Sub(*j.CompletedAt)
			v.TimeLeft = fmt.Sprintf("%d min %02d s left to download", int(left.Minutes()), int(left.Seconds())%60)
		case job.DownloadExpired:
			v.Expired = true
		}
		out = append(out, v)
	}
	return out, nil
}

func (d *Dashboard) jobsPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	views, err := d.jobViews(r, s)
	p := page{Title: "Jobs", Nav: "jobs", Data: entries(views)}
	if err != nil {
		d.pageError(w, &p, err)
	}
	d.render(w, r, http.StatusOK, "jobs", s, p)
}

func (d *Dashboard) jobRows(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	views, err := d.jobViews(r, s)
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	d.fragment(w, "jobs", "rows", entries(views))
}

// download sends the translated .docx or, with ?format=pdf, its PDF
// rendition, through the same use cases as the API's download.
func (d *Dashboard) download(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	get, ctype := d.svc.Jobs.Download, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	switch r.URL.Query().Get("format") {
	case "", "docx":
	case "pdf":
		get, ctype = d.svc.Documents.DownloadPDF, "application/pdf"
	case "bilingual":
		get = d.svc.Jobs.DownloadBilingual
	default:
		d.render(w, r, http.StatusBadRequest, "error", s, page{Title: "Download", Nav: "jobs", Error: "A translation downloads as docx, pdf or bilingual."})
		return
	}
	dl, err := get(r.Context(), s.Caller, r.PathValue("id"))
	if err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Download", Nav: "jobs", Error: d.message(err)})
		return
	}
	defer dl.Blob.Close()
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": dl.Name}))
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", time.Time{}, dl.Blob)
}
