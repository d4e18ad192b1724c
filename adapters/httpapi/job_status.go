package httpapi

import (
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
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
