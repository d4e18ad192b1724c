// Package problem is the one error body of every HTTP surface (the /v1
// API, its webhook alias under /api, the dashboard's JSON answers, a
// worker's probes): RFC 9457 problem details, served as
// application/problem+json.
//
// The standard members are type, title, status, detail and instance. The
// fields of the body Dragoman sent before RFC 9457 (code, message, errors)
// stay as extension members with the same values, so clients written for
// it keep working: message is detail, code is the last segment of type.
package problem

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// MediaType is the content type of every problem body.
const MediaType = "application/problem+json"

// TypePrefix starts every problem type. Types are relative references with
// the full path, as RFC 9457 §3.1.1 allows, so they are the same strings
// on every deployment; resolved against the request's address they name
// GET /v1/problems/{code}, which describes the type.
const TypePrefix = "/v1/problems/"

// Problem is an RFC 9457 problem details object.
type Problem struct {
	Type     string `json:"type" format:"uri-reference" doc:"The problem type: a path under /v1/problems/ (GET it for the type's description), or about:blank when the status says all" example:"/v1/problems/unprocessable"`
	Title    string `json:"title" doc:"Short summary of the problem type, the same for every occurrence" example:"Request not processable"`
	Status   int    `json:"status" doc:"HTTP status code" example:"422"`
	Detail   string `json:"detail" doc:"What went wrong in this occurrence" example:"target_lang: unknown language \"Klingon\""`
	Instance string `json:"instance,omitempty" format:"uri-reference" doc:"The request path this occurrence answered" example:"/v1/translate"`

	// Extension members: the body before RFC 9457.
	Code       string         `json:"code" doc:"Stable machine-readable error code (the last segment of type)" example:"unprocessable"`
	Message    string         `json:"message" doc:"Same text as detail (kept for clients written before RFC 9457 bodies)" example:"target_lang: unknown language \"Klingon\""`
	Errors     []ProblemField `json:"errors,omitempty" doc:"Field-level details of a validation error"`
	RetryAfter int            `json:"retry_after,omitempty" doc:"With 429: whole seconds until a request would pass; with 503 from a dependency that is down, full or locked: whole seconds to wait before trying again (as the Retry-After header)"`

	headers http.Header
}

// ProblemField locates one invalid input. Values are never echoed.
type ProblemField struct {
	Location string `json:"location,omitempty" example:"body.target_lang"`
	Message  string `json:"message"`
}

func (p *Problem) Error() string             { return p.Detail }
func (p *Problem) GetStatus() int            { return p.Status }
func (p *Problem) GetHeaders() http.Header   { return p.headers }
func (p *Problem) ContentType(string) string { return MediaType }

// Type describes one problem type.
type Type struct {
	Code        string `json:"code" doc:"The type's code: the last segment of its URI and the problem's code member"`
	Type        string `json:"type" format:"uri-reference" doc:"The type URI, as problem bodies carry it"`
	Title       string `json:"title" doc:"The title every problem of the type carries"`
	Status      int    `json:"status" doc:"The HTTP status problems of this type are sent with"`
	Description string `json:"description" doc:"When the API answers with it and what a client can do"`
}

// Types is the catalogue, by status: each status has one type. A status
// missing here gets about:blank with the status text as title.
var Types = map[int]Type{
	400: {Code: "bad_request", Title: "Bad request", Description: "The request is malformed, or a URL to fetch is invalid, refused (not public, not HTTPS) or could not be fetched. Fix the request; retrying it as is fails again."},
	401: {Code: "unauthenticated", Title: "Missing or invalid API key", Description: "No X-API-Key header, or a key that does not exist. Send a key created with `dragoman admin key create`."},
	402: {Code: "quota_exhausted", Title: "Monthly word quota exhausted", Description: "The account's plan allows no more words this calendar month (UTC). Wait for the next month or move to a larger plan."},
	403: {Code: "forbidden", Title: "Forbidden", Description: "The key was revoked or the account is suspended."},
	404: {Code: "not_found", Title: "Not found", Description: "No such endpoint, or no such resource for this account (another account's job or webhook is 404 too), or a job past its retention."},
	405: {Code: "method_not_allowed", Title: "Method not allowed", Description: "The path exists but not with this method; the Allow header lists the methods it takes."},
	408: {Code: "request_timeout", Title: "Request body too slow", Description: "The request body (an upload, a form, a JSON body) stalled (no byte for --upload-idle-timeout), came slower than --body-min-rate bytes a second on average, or took longer than --upload-timeout; the detail names which. The connection is closed; send the request again."},
	409: {Code: "conflict", Title: "Not in a state that allows it", Description: "The resource is not in a state that allows the operation: POST /jobs/{job_id}/confirm on a job that is not held (submitted without hold, confirmed already, cancelled, or past its hold). GET the resource to see its state."},
	410: {Code: "gone", Title: "Translated file expired", Description: "The download window after completion (--download-ttl, 10 minutes by default) has passed and the file was deleted. Submit the document again."},
	412: {Code: "stale_revision", Title: "Edited on an older revision", Description: "The edit (a segment's new target, or an XLIFF file) was made on a revision of the job that is no longer its latest: applying it would undo what was edited since. Read the job's segments again (their ETag is the revision) and edit the latest."},
	413: {Code: "too_large", Title: "Document too large", Description: "The upload, fetched document or file is over its size limit (50 MB for documents)."},
	415: {Code: "unsupported_media_type", Title: "Unsupported media type", Description: "The request body's Content-Type is not one the operation reads."},
	422: {Code: "unprocessable", Title: "Request not processable", Description: "A field is missing or invalid, the language pair is not served, or the document is corrupt, encrypted or of an unsupported type. errors[] locates invalid fields."},
	429: {Code: "rate_limited", Title: "Too many requests", Description: "The key's per-minute request limit was reached, or the client's address has as many requests in progress as it may (--max-conns-per-ip). Retry after the seconds in the Retry-After header (also in retry_after)."},
	500: {Code: "internal", Title: "Internal error", Description: "Something failed on the server's side; it is logged with the request id (X-Request-ID). Retrying may help."},
	502: {Code: "provider_error", Title: "Translation provider error", Description: "A translation engine failed to answer."},
	503: {Code: "unavailable", Title: "Service unavailable", Description: "A dependency (database, document store, converter, engine) cannot serve the request right now. Retry later."},
}

func init() {
	for st, t := range Types {
		t.Status, t.Type = st, TypePrefix+t.Code
		Types[st] = t
	}
}

// TypeOf is the type of problems sent with status.
func TypeOf(status int) Type {
	if t, ok := Types[status]; ok {
		return t
	}
	return Type{Code: "error", Type: "about:blank", Title: http.StatusText(status), Status: status}
}

// New is the problem of status with detail, what went wrong this time.
func New(status int, detail string) *Problem {
	t := TypeOf(status)
	return &Problem{Type: t.Type, Title: t.Title, Status: status, Detail: detail, Code: t.Code, Message: detail}
}

// WithRetryAfter sets the Retry-After header (whole seconds, at least 1)
// and the retry_after member.
func (p *Problem) WithRetryAfter(d time.Duration) *Problem {
	s := max(int((d+time.Second-1)/time.Second), 1)
	p.RetryAfter = s
	p.SetHeader("Retry-After", strconv.Itoa(s))
	return p
}

// SetHeader adds a header sent with the problem.
func (p *Problem) SetHeader(k, v string) {
	if p.headers == nil {
		p.headers = http.Header{}
	}
	p.headers.Set(k, v)
}

// Write sends p as the answer to r; instance is r's path unless set.
func Write(w http.ResponseWriter, r *http.Request, p *Problem) {
	if p.Instance == "" && r != nil && r.URL != nil {
		p.Instance = r.URL.Path
	}
	for k, vs := range p.headers {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", MediaType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}
