package webhook

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/core/eventid"
	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// JobEvent is the body of a job.completed or job.failed delivery (README
// "Webhooks"). Its id is stable per event, so receivers de-duplicate
// retries by it. The struct tags describe it in the contract's webhooks
// section (OpenAPI 3.1), generated from these very types.
type JobEvent struct {
	ID        string       `json:"id" format:"uuid" doc:"The event's id: the same in every attempt and after restarts (X-Webhook-Id); de-duplicate by it"`
	Event     string       `json:"event" enum:"job.completed,job.failed" doc:"The event kind (X-Webhook-Event)"`
	Timestamp string       `json:"timestamp" format:"date-time" doc:"When the job finished: ISO 8601 in UTC with milliseconds"`
	Data      JobEventData `json:"data"`
}

// JobEventData is the data of job.completed and job.failed.
type JobEventData struct {
	JobID        string  `json:"job_id" format:"uuid"`
	UserID       string  `json:"user_id" doc:"The account that submitted the job"`
	Status       string  `json:"status" enum:"completed,failed"`
	OriginalName string  `json:"original_name" doc:"File name as uploaded"`
	DocxURL      *string `json:"docx_url" format:"uri" nullable:"true" doc:"Absolute download address of the translated document (GET with the same X-API-Key); null on failure"`
	PdfURL       *string `json:"pdf_url" format:"uri" nullable:"true" doc:"Absolute download address of the PDF rendition, for a job submitted with pdf=true once rendered; null otherwise"`
	// BilingualURL is present only once a bilingual document was made, so
	// a job that did not ask for one carries exactly the contract's fields.
	BilingualURL   *string `json:"bilingual_url,omitempty" format:"uri" required:"false" doc:"Absolute download address of the bilingual document (source beside translation); present only on the job.completed of a job submitted with bilingual=true whose bilingual document was made, absent otherwise (the contract's fields are unchanged)"`
	TotalWords     int     `json:"total_words" minimum:"0" doc:"Words counted in the document"`
	TargetLanguage string  `json:"target_language" doc:"Target language name, as GET /v1/languages lists it"`
	Error          *string `json:"error" nullable:"true" doc:"Why the job failed; null when it completed"`
	// Revision is set on the job.completed of an output rebuilt from a
	// post-edited XLIFF file (1, 2, …); absent for the machine translation.
	Revision int `json:"revision,omitempty" minimum:"1" required:"false" doc:"Set on the job.completed of an output rebuilt from post-edited XLIFF (1, 2, …); absent for the machine translation"`
	// Review is what the review of the translation found; on job.completed.
	Review *ReviewSummary `json:"review,omitempty" required:"false" doc:"On job.completed: which sentences to check (GET /v1/jobs/{job_id}/segments lists them)"`
}

// ReviewSummary is the review summary of a completed job, as job.completed
// carries it (the job status's review, without its flags about the
// document).
type ReviewSummary struct {
	Summary  string         `json:"summary" doc:"e.g. \"7 of 412 sentences to check\""`
	Segments int            `json:"segments" doc:"Sentences checked"`
	ToCheck  int            `json:"to_check" doc:"Sentences worth checking"`
	ByKind   map[string]int `json:"by_kind" doc:"Sentences with a flag of each kind (as the job status's review.by_kind)"`
}

// TestEvent is the body of a webhook.test ping.
type TestEvent struct {
	ID        string        `json:"id" format:"uuid" doc:"The ping's event id (X-Webhook-Id)"`
	Event     string        `json:"event" enum:"webhook.test"`
	Timestamp string        `json:"timestamp" format:"date-time" doc:"When the ping was queued: ISO 8601 in UTC with milliseconds"`
	Data      TestEventData `json:"data"`
}

// TestEventData is the data of a webhook.test ping.
type TestEventData struct {
	WebhookID string `json:"webhook_id"`
	UserID    string `json:"user_id" doc:"The account that owns the webhook"`
	Message   string `json:"message"`
}

// TimestampLayout is ISO 8601 in UTC with milliseconds.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// eventNamespace is the UUIDv5 namespace of webhook event ids (a fixed
// random UUID).
var eventNamespace = uuid.UUID{0x3b, 0x6f, 0x0c, 0x52, 0x8d, 0x41, 0x4e, 0x8a, 0x9f, 0x27, 0x61, 0xd0, 0x5c, 0x13, 0xa4, 0xe9}

// EventID is the id of a job's event: a UUIDv5 of the job id and event, so
// the same event gets the same id however often it is announced.
func EventID(jobID, event string) string {
	return eventid.New(eventNamespace, jobID+"\x00"+event)
}

// JobEventID is the id of event for j as it is now: the job's event id,
// or for a revision (XLIFF post-edit) one of its own, so receivers and
// the delivery queue see each revision's job.completed as a new event.
func JobEventID(j *job.Job, event string) string {
	if j.Revision == 0 {
		return EventID(j.ID, event)
	}
	return EventID(j.ID, event+"#revision-"+strconv.Itoa(j.Revision))
}

// JobPayload is the exact body announcing event for j. Its timestamp is
// the job's completion time, so announcing twice gives the same bytes.
// docx_url is publicURL + /v1/jobs/<id>/download for a completed job;
// pdf_url is that + ?format=pdf when the job asked for a PDF and it was
// rendered, null otherwise; bilingual_url likewise with ?format=bilingual.
// target_language is the language's name, as the API shows it (the job
// stores its code).
func JobPayload(j *job.Job, event, publicURL string) ([]byte, error) {
	at := j.UpdatedAt
	if j.CompletedAt != nil {
		at = *j.CompletedAt
	}
	d := JobEventData{
		JobID: j.ID, UserID: j.AccountID, Status: string(j.Status), OriginalName: j.OriginalName,
		TotalWords: j.Words, TargetLanguage: language.NameOf(j.TargetLang), Revision: j.Revision,
	}
	if event == EventJobCompleted {
		if s := j.Review; s != nil {
			d.Review = &ReviewSummary{Summary: s.Text(), Segments: s.Segments, ToCheck: s.ToCheck, ByKind: map[string]int{}}
			for k, n := range s.ByKind {
				d.Review.ByKind[string(k)] = n
			}
		}
		u := strings.TrimRight(publicURL, "/") + "/v1/jobs/" + j.ID + "/download"
		d.DocxURL = &u
		if j.PDF == job.PDFReady {
			p := u + "?format=pdf"
			d.PdfURL = &p
		}
		if j.Bilingual == job.PDFReady {
			b := u + "?format=bilingual"
			d.BilingualURL = &b
		}
	}
	if event == EventJobFailed {
		msg := failure.Words(j.Error)
		if msg == "" {
			msg = "translation failed"
		}
		d.Error = &msg
	}
	return json.Marshal(JobEvent{ID: JobEventID(j, event), Event: event, Timestamp: at.UTC().Format(TimestampLayout), Data: d})
}

// PingPayload is the body of a webhook.test ping.
func PingPayload(eventID string, w *Webhook, now time.Time) ([]byte, error) {
	return json.Marshal(TestEvent{ID: eventID, Event: EventTest, Timestamp: now.UTC().Format(TimestampLayout), Data: TestEventData{
		WebhookID: w.ID, UserID: w.AccountID,
		Message: "Test delivery from Dragoman: your endpoint received and can verify signed webhooks.",
	}})
}
