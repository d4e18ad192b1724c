package dashboard

import (
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
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
	Step, Steps int
	Ready       bool
	HasPDF      bool // ready, and its PDF rendition was rendered
	Expired     bool
	TimeLeft    string
	Source      string // language names: jobs store codes
	Target      string
	Verdict     string // the structure check's verdict, and its counts
	Counts      string
	Route       string // over a chain: "English → Spanish → French, apertium"
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
		switch j.Download(now, d.svc.Jobs.Config.DownloadTTL) {
		case job.DownloadReady:
			v.Ready = true
			v.HasPDF = j.PDF == job.PDFReady
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
	p := page{Title: "Jobs", Nav: "jobs", Data: views}
	if err != nil {
		p.Error = d.message(err)
	}
	d.render(w, r, http.StatusOK, "jobs", s, p)
}

func (d *Dashboard) jobRows(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	views, err := d.jobViews(r, s)
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	d.fragment(w, "jobs", "rows", views)
}

// download sends the translated .docx or, with ?format=pdf, its PDF
// rendition, through the same use cases as the API's download.
func (d *Dashboard) download(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	get, ctype := d.svc.Jobs.Download, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	switch r.URL.Query().Get("format") {
	case "", "docx":
	case "pdf":
		get, ctype = d.svc.Documents.DownloadPDF, "application/pdf"
	default:
		d.render(w, r, http.StatusBadRequest, "error", s, page{Title: "Download", Nav: "jobs", Error: "A translation downloads as docx or pdf."})
		return
	}
	dl, err := get(r.Context(), s.Caller, r.PathValue("id"))
	if err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Download", Nav: "jobs", Error: d.message(err)})
		return
	}
	defer dl.Blob.Close()
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": dl.Name}))
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", time.Time{}, dl.Blob)
}
