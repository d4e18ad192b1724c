package dashboard

import (
	"net/http"
	"strconv"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// previewPage shows the original and the translation side by side; the
// page images are rendered on first request and load lazily.
func (d *Dashboard) previewPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	j, err := d.svc.Jobs.Job(r.Context(), s.Caller, r.PathValue("id"))
	if err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Preview", Nav: "jobs", Error: d.message(err)})
		return
	}
	d.render(w, r, http.StatusOK, "preview", s, page{Title: "Preview", Nav: "jobs", Data: jobView{Job: j, Target: language.NameOf(j.TargetLang), HasPDF: j.PDF == job.PDFReady}})
}

type pagesAnswer struct {
	Pages int `json:"pages"`
}

// previewPages renders one side if needed and says how many pages it has.
func (d *Dashboard) previewPages(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	n, err := d.svc.Documents.PreviewPages(r.Context(), s.Caller, r.PathValue("id"), r.PathValue("side"))
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, pagesAnswer{Pages: n})
}

func (d *Dashboard) previewImage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		http.NotFound(w, r)
		return
	}
	b, err := d.svc.Documents.PreviewPage(r.Context(), s.Caller, r.PathValue("id"), r.PathValue("side"), n)
	if err != nil {
		http.Error(w, d.message(err), d.status(w, err))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=600")
	_, _ = w.Write(b)
}
