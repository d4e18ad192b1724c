package httpapi

import (
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// The fields of a job as the API takes them (JobOptions, for both ways of
// submitting) and shows them (JobStatus). A new option is one field of
// JobOptions with its form description in formDocs and its line in
// submission; a new job field shown is one field of JobStatus and its line
// in statusOf.

// JobOptions are a submission's options, declared once: they are the
// translate-url body's fields (their doc tags), and the upload's form
// fields (formDocs), read by setFormField.
type JobOptions struct {
	TargetLang string   `json:"target_lang,omitempty" required:"false" default:"Arabic" maxLength:"64" doc:"Target language name from GET /languages (ISO 639-1 codes accepted)"`
	SourceLang string   `json:"source_lang,omitempty" required:"false" default:"auto" maxLength:"64" doc:"Source language name, or auto"`
	Mode       modeName `json:"translation_mode,omitempty" required:"false" default:"professional" doc:"Translation mode"`
	PDF        bool     `json:"pdf,omitempty" required:"false" default:"false" doc:"Also render the translation to PDF; see POST /translate's pdf field"`
	GlossaryID string   `json:"glossary_id,omitempty" required:"false" maxLength:"64" doc:"One of the account's glossaries (POST /glossaries) for this job's pair: its terms are enforced whatever the engine. Needs source_lang (not auto); a glossary of another pair is 422."`
	Bilingual  bool     `json:"bilingual,omitempty" required:"false" default:"false" doc:"Also make the bilingual document; see POST /translate's bilingual field"`
	// A JSON array here, comma-separated in the upload's form field.
	TargetLangs []string `json:"target_langs,omitempty" required:"false" maxItems:"12" doc:"Several targets at once: one job per target from one document, as a batch (see POST /translate's target_langs); target_lang is then ignored."`
	Hold        bool     `json:"hold,omitempty" required:"false" default:"false" doc:"Keep the job pending until POST /jobs/{job_id}/confirm; see POST /translate's hold."`
}

// formDocs describe the options as fields of the multipart upload.
var formDocs = map[string]string{
	"target_lang":      "Target language name from GET /languages (case-insensitive; ISO 639-1 codes accepted)",
	"source_lang":      "Source language name, or auto for detection",
	"translation_mode": modeDoc,
	"pdf":              pdfDoc,
	"glossary_id":      glossaryIDDoc,
	"bilingual":        bilingualDoc,
	"target_langs":     targetLangsDoc,
	"hold":             holdDoc,
}

// submission is what the service is asked for.
func (o JobOptions) submission() service.JobOptions {
	return service.JobOptions{TargetLang: o.TargetLang, SourceLang: o.SourceLang, Mode: string(o.Mode), PDF: o.PDF, GlossaryID: o.GlossaryID,
		Bilingual: o.Bilingual, TargetLangs: o.TargetLangs, Hold: o.Hold}
}

// optionFields are JobOptions' field indexes by their JSON (and form) name.
var optionFields = func() map[string]int {
	t := reflect.TypeFor[JobOptions]()
	out := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		out[jsonName(t.Field(i))] = i
	}
	return out
}()

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

func isFormField(name string) bool {
	_, ok := optionFields[name]
	return ok
}

// setFormField sets the option of a form field from its trimmed value; a
// boolean takes what an HTML form or a script sends (see parseFormBool).
func (o *JobOptions) setFormField(name, value string) error {
	f := reflect.ValueOf(o).Elem().Field(optionFields[name])
	if f.Kind() == reflect.Slice { // comma-separated; the field may also repeat
		f.Set(reflect.AppendSlice(f, reflect.ValueOf(splitList(value))))
		return nil
	}
	if f.Kind() == reflect.Bool {
		b, err := parseFormBool(value)
		if err != nil {
			return newProblem(http.StatusUnprocessableEntity, name+": "+err.Error(), &huma.ErrorDetail{Location: "body." + name, Message: err.Error(), Value: value})
		}
		f.SetBool(b)
		return nil
	}
	f.SetString(value)
	return nil
}

// formSchemas are the upload's option fields in the contract: their type,
// default and enum as in the translate-url body, their description from
// formDocs.
func formSchemas() map[string]*huma.Schema {
	t := reflect.TypeFor[JobOptions]()
	out := make(map[string]*huma.Schema, t.NumField()+1)
	for i := range t.NumField() {
		f := t.Field(i)
		s := &huma.Schema{Type: huma.TypeString, Description: formDocs[jsonName(f)]}
		def, hasDefault := f.Tag.Lookup("default")
		switch {
		case f.Type.Kind() == reflect.Slice:
			s.Description += " (comma-separated)"
		case f.Type.Kind() == reflect.Bool:
			s.Type = huma.TypeBoolean
			if hasDefault {
				s.Default = def == "true"
			}
		case hasDefault:
			s.Default = def
		}
		if f.Type == reflect.TypeFor[modeName]() {
			s.Enum = modeName("").Schema(nil).Enum
		}
		out[jsonName(f)] = s
	}
	return out
}

// modeName is translation_mode as a client sends it: its schema's enum is
// every mode of plugins/sdk/translation, so the contract lists what the
// service accepts.
type modeName string

func (modeName) Schema(huma.Registry) *huma.Schema {
	s := &huma.Schema{Type: huma.TypeString}
	for _, m := range translation.Modes {
		s.Enum = append(s.Enum, string(m))
	}
	return s
}

// modeDoc describes the modes, each as plugins/sdk/translation says.
var modeDoc = func() string {
	var b strings.Builder
	for _, m := range translation.Modes {
		b.WriteString("`" + string(m) + "`")
		if m == translation.Default {
			b.WriteString(" (default)")
		}
		b.WriteString(" " + m.About().API + "; ")
	}
	return b.String() + "engines that cannot honour a mode translate in `" + string(translation.Full) + "` mode and say so in the job's warnings."
}()

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
	Revision        int        `json:"revision" doc:"Outputs rebuilt from post-edited targets (POST /jobs/{job_id}/xliff, PATCH /jobs/{job_id}/segments/{segment_id}): 0 is the machine translation. It is the ETag of the job's segments and the If-Match of an edit"`
	Route           []RouteLeg `json:"route" doc:"The languages and engine of each leg the text was translated over: one leg for a pair an engine serves directly, up to three over a chain of served pairs (English → Spanish → French is two). Empty until the job is translated, and when no engine was needed (source and target the same, or every segment from the account's memory)"`
	Review          *Review    `json:"review" doc:"Which sentences to check and why, once the job is translated (null before): GET /jobs/{job_id}/segments lists them"`
	BatchID         *string    `json:"batch_id" nullable:"true" doc:"The batch of a submission with several targets or documents (GET /batches/{batch_id}); null for a job submitted alone"`
	BilingualURL    *string    `json:"bilingual_url" nullable:"true" doc:"Path to download the bilingual document (source beside translation, each in its own direction), for a job submitted with bilingual=true once completed with it made (as job.completed's data.bilingual_url); null otherwise"`
	HeldUntil       *time.Time `json:"held_until" nullable:"true" doc:"For a job submitted with hold and not yet confirmed: when it is dropped unless POST /jobs/{job_id}/confirm starts it; null otherwise"`
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
		CreatedAt: &created, CompletedAt: j.CompletedAt, Error: strp(failure.Words(j.Error)), RtlFidelity: rtlReportOut(j.RTL),
		OriginalName: j.OriginalName, Stage: string(j.Stage), TranslationMode: string(j.Mode), TotalWords: j.Words,
		Engine: strp(j.Engine), Warnings: j.ShownWarnings(), Metrics: Metrics(j.Metrics), Structure: strp(j.Structure),
		Revision: j.Revision, Review: reviewOut(j), BatchID: strp(j.BatchID),
	}
	if j.Held() {
		out.HeldUntil = j.HeldUntil
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
		if j.Bilingual == job.PDFReady {
			out.BilingualURL = strp(Prefix + "/jobs/" + j.ID + "/download?format=bilingual")
		}
	}
	return out
}
