package httpapi

import (
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// RtlFidelity reports how well right-to-left layout was preserved.
type RtlFidelity struct {
	Status   string   `json:"status" enum:"full,partial,degraded" doc:"Quality of RTL formatting preservation"`
	Warnings []string `json:"warnings" doc:"Human-readable warnings about RTL conversion issues"`
}

// JobAccepted answers POST /translate.
type JobAccepted struct {
	JobID       string       `json:"job_id" format:"uuid"`
	Status      string       `json:"status" enum:"pending,processing,completed,failed" doc:"Initially pending"`
	CreatedAt   time.Time    `json:"created_at"`
	PollURL     string       `json:"poll_url" doc:"Relative path of the job status resource" example:"/v1/jobs/7d1e…"`
	RtlFidelity *RtlFidelity `json:"rtl_fidelity" doc:"Estimate from a pre-scan of the source; null where direction is irrelevant (left-to-right source and target)"`
}

// JobAcceptedURL answers POST /translate-url.
type JobAcceptedURL struct {
	JobID     string    `json:"job_id" format:"uuid"`
	Status    string    `json:"status" enum:"pending,processing,completed,failed"`
	CreatedAt time.Time `json:"created_at"`
	PollURL   string    `json:"poll_url"`
}

// Metrics counts what the job cost the engines.
type Metrics struct {
	EngineCalls int `json:"engine_calls"`
	CharsSent   int `json:"chars_sent"`
	CacheHits   int `json:"cache_hits"`
	Segments    int `json:"segments"`
}

// JobStatus is the state of a job.
type JobStatus struct {
	JobID       string       `json:"job_id" format:"uuid"`
	Status      string       `json:"status" enum:"pending,processing,completed,failed"`
	SourceLang  *string      `json:"source_lang" nullable:"true" doc:"Source language: the detected one once known, else as requested (auto)"`
	TargetLang  *string      `json:"target_lang" nullable:"true"`
	CreatedAt   *time.Time   `json:"created_at" nullable:"true"`
	CompletedAt *time.Time   `json:"completed_at" nullable:"true"`
	DownloadURL *string      `json:"download_url" nullable:"true" doc:"Path to download the translated file once completed"`
	Error       *string      `json:"error" nullable:"true" doc:"Human-readable reason when failed"`
	RtlFidelity *RtlFidelity `json:"rtl_fidelity" doc:"null where direction is irrelevant (left-to-right source and target)"`

	// Beyond the specification's fields.
	OriginalName    string     `json:"original_name" doc:"File name as uploaded"`
	Stage           string     `json:"stage" enum:"accepted,converted,extracted,translated,assembled,laid_out,finished" doc:"Last pipeline stage the job finished, for progress displays"`
	TranslationMode string     `json:"translation_mode"`
	TotalWords      int        `json:"total_words" doc:"Words counted in the document (charged on completion)"`
	Engine          *string    `json:"engine" nullable:"true" doc:"Translation engine used"`
	Warnings        []string   `json:"warnings" doc:"Repairs and limitations noted while processing"`
	Metrics         Metrics    `json:"metrics"`
	Structure       *string    `json:"fidelity" nullable:"true" doc:"Summary of the structure check between source and output"`
	PdfURL          *string    `json:"pdf_url" nullable:"true" doc:"Path to download the PDF rendition, for a job submitted with pdf=true once completed with its PDF rendered (as job.completed's data.pdf_url); null otherwise. Any completed job's PDF can still be downloaded from download_url with ?format=pdf"`
	Revision        int        `json:"revision" doc:"Outputs rebuilt from post-edited XLIFF (POST /jobs/{job_id}/xliff): 0 is the machine translation"`
	Route           []RouteLeg `json:"route" doc:"The languages and engine of each leg the text was translated over: one leg for a pair an engine serves directly, up to three over a chain of served pairs (English → Spanish → French is two). Empty until the job is translated, and when no engine was needed (source and target the same, or every segment from the account's memory)"`
}

// RouteLeg is one leg of a job's route.
type RouteLeg struct {
	Source string `json:"source" doc:"Language name"`
	Target string `json:"target" doc:"Language name"`
	Engine string `json:"engine" doc:"Engine that translated this leg"`
}

func strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func rtlReportOut(f *job.RTLReport) *RtlFidelity {
	if f == nil {
		return nil
	}
	w := f.Warnings
	if w == nil {
		w = []string{}
	}
	return &RtlFidelity{Status: f.Status, Warnings: w}
}

func statusOf(j *job.Job) JobStatus {
	// The job stores codes; the API shows names ("auto" stays "auto").
	src := language.NameOf(j.SourceLang)
	if j.DetectedLang != "" {
		src = language.NameOf(j.DetectedLang)
	}
	created := j.CreatedAt
	out := JobStatus{
		JobID: j.ID, Status: string(j.Status), SourceLang: strp(src), TargetLang: strp(language.NameOf(j.TargetLang)),
		CreatedAt: &created, CompletedAt: j.CompletedAt, Error: strp(j.Error), RtlFidelity: rtlReportOut(j.RTL),
		OriginalName: j.OriginalName, Stage: string(j.Stage), TranslationMode: string(j.Mode), TotalWords: j.Words,
		Engine: strp(j.Engine), Warnings: j.Warnings, Metrics: Metrics(j.Metrics), Structure: strp(j.Structure),
		Revision: j.Revision,
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	out.Route = []RouteLeg{}
	for _, l := range j.Route {
		out.Route = append(out.Route, RouteLeg{Source: language.NameOf(l.Source), Target: language.NameOf(l.Target), Engine: l.Engine})
	}
	if j.Status == job.Completed && j.ExpiredAt == nil {
		out.DownloadURL = strp(Prefix + "/jobs/" + j.ID + "/download")
		if j.PDF == job.PDFReady {
			out.PdfURL = strp(Prefix + "/jobs/" + j.ID + "/download?format=pdf")
		}
	}
	return out
}
