package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// QuoteOut is what a submission would cost.
type QuoteOut struct {
	Documents        int              `json:"documents" doc:"Documents quoted: 1, or those of an uploaded .zip"`
	Words            int              `json:"words" doc:"Words of the document(s), counted as the job counts them (the quota is charged this per target)"`
	Segments         int              `json:"segments" doc:"Segments (sentences and the like) of the document(s)"`
	SourceLang       *string          `json:"source_lang" nullable:"true" doc:"The source language given, or detected; null when detection is unsure (the job detects it again, and the targets' figures are then empty)"`
	Targets          []TargetQuoteOut `json:"targets" doc:"One per target, in the order given"`
	ChargedWords     int64            `json:"charged_words" doc:"Words the submission would charge: words × targets"`
	Quota            QuoteQuota       `json:"quota"`
	EstimatedSeconds float64          `json:"estimated_seconds" doc:"Engine time of all targets one after another, from the engines' measured throughput (each target's estimate says whether its engines were measured)"`
}

// TargetQuoteOut is one target's share of a quote.
type TargetQuoteOut struct {
	TargetLang       string        `json:"target_lang"`
	SegmentsInMemory int           `json:"segments_in_memory" doc:"Segments the account's memory (its post-edits and TMX imports) or the engines' translation memory already hold: no engine characters, still counted in words"`
	EngineCharacters int           `json:"engine_characters" doc:"Characters the engines would be sent, all legs together (inline codes excluded, as engines bill them)"`
	Route            []QuoteLegOut `json:"route" doc:"The legs of the translation: one engine, or a chain through other languages when no engine serves the pair directly; empty when nothing is sent"`
	EstimatedSeconds float64       `json:"estimated_seconds" doc:"Each leg's characters at its engine's measured rate"`
	EstimateBasis    string        `json:"estimate_basis" enum:"measured,default" doc:"measured: every engine of the route has been timed on this server; default: one has not yet, and 1000 characters a second was assumed for it"`
}

// QuoteLegOut is one leg of a route.
type QuoteLegOut struct {
	Engine           string  `json:"engine"`
	SourceLang       string  `json:"source_lang"`
	TargetLang       string  `json:"target_lang"`
	EngineCharacters int     `json:"engine_characters" doc:"Characters this leg's engine would be sent"`
	Exact            bool    `json:"exact" doc:"false for a leg whose input is the previous leg's output, not known before it is translated: its characters are estimated as the previous leg's"`
	CharsPerSecond   float64 `json:"chars_per_second" doc:"The engine's measured throughput (or the default)"`
}

// QuoteQuota is the quota as the submission would leave it.
type QuoteQuota struct {
	PlanName   string `json:"plan_name"`
	LimitWords *int64 `json:"limit_words" nullable:"true" doc:"Words allowed this month; null: unlimited"`
	UsedWords  int64  `json:"used_words" doc:"Words used this month so far"`
	LeftAfter  *int64 `json:"left_after" nullable:"true" doc:"Words left after the submission; negative when it does not fit (the submission would be refused with 402); null: unlimited"`
	Fits       bool   `json:"fits" doc:"Whether the submission fits in what is left"`
}

type quoteOutput struct{ Body QuoteOut }

const quoteDoc = "Answers what a submission would cost without calling an engine and without making a job: the words, counted as the job would count them (the quota is charged per target), the segments the memory already holds, the engine characters needed and the route of each target (the engines, leg by leg), an estimated time from the engines' throughput measured on this server, and the quota left after it. " +
	"It takes the same fields, with the same defaults and checks, as the translate endpoints: a multipart upload as for POST /translate (a .zip of documents included), or a JSON body as for POST /translate-url (fields that only shape the output, pdf, bilingual and hold, are accepted and change nothing). " +
	"The same checks give the same errors (the fields, languages, pairs, glossary; corrupt, encrypted or unsupported documents, 422 naming the document, or 400 for a URL; over 50 MB, 413; a document over the plan's per-document word cap, 422, where its job would fail; a .zip past its limits, 422 or 413, over 100 jobs, documents × targets, included); the monthly quota is reported (`quota.fits`), not enforced. The document is deleted once quoted. " +
	"To quote before spending: submit with `hold: true`, quote, then POST /jobs/{job_id}/confirm, or quote first and submit after."

func (a *API) registerQuote() {
	huma.Register(a.api, huma.Operation{
		OperationID: "quote", Method: http.MethodPost, Path: "/quote", Tags: []string{"Jobs"},
		Summary: "Quote a submission before spending", Description: quoteDoc,
		Security: security, BodyReadTimeout: -1, MaxBodyBytes: -1,
		Errors: []int{400, 401, 403, 413, 415, 422, 429, 503},
	}, a.quote)
	op := a.api.OpenAPI().Paths["/quote"].Post
	form := a.api.OpenAPI().Paths["/translate"].Post.RequestBody.Content["multipart/form-data"]
	jsonBody := a.api.OpenAPI().Paths["/translate-url"].Post.RequestBody.Content["application/json"]
	op.RequestBody = &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		"multipart/form-data": form, "application/json": jsonBody,
	}}
}

func (a *API) quote(ctx context.Context, in *uploadInput) (*quoteOutput, error) {
	c := caller(ctx)
	mt, _, _ := mime.ParseMediaType(in.req.Header.Get("Content-Type"))
	var (
		q   *service.Quote
		err error
	)
	switch mt {
	case "application/json":
		url, opts, perr := a.readURLBody(in.req)
		if perr != nil {
			return nil, perr
		}
		q, err = a.svc.Jobs.QuoteURL(ctx, c, url, service.SubmitRequest{JobOptions: opts.submission()})
	case "multipart/form-data":
		up, req, ferr := a.receiveForm(ctx, in.req)
		if ferr != nil {
			return nil, ferr
		}
		q, err = a.svc.Jobs.QuoteUpload(ctx, c, up, req)
	default:
		return nil, newProblem(http.StatusUnsupportedMediaType, "send the document as multipart/form-data (as POST /translate) or a URL as application/json (as POST /translate-url)")
	}
	if err != nil {
		return nil, a.fail(err)
	}
	return &quoteOutput{Body: QuoteBody(q, c.Account.Limits().Name)}, nil
}

const maxJSONBody = 1 << 20 // huma's default, which POST /translate-url has

// readURLBody reads the JSON form of a quote: POST /translate-url's body,
// checked against its schema, so that it answers the same problems (400
// for JSON that does not parse, 422 naming the field for an unknown one or
// a wrong type, a missing url or a mode out of the enum).
func (a *API) readURLBody(r *http.Request) (string, JobOptions, error) {
	var body struct {
		URL string `json:"url"`
		JobOptions
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "", body.JobOptions, a.bodyError(err)
	case err != nil:
		return "", body.JobOptions, newProblem(http.StatusBadRequest, "the request body could not be read")
	case len(data) > maxJSONBody: // as huma answers POST /translate-url
		return "", body.JobOptions, newProblem(http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is too large limit=%d bytes", maxJSONBody))
	}
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return "", body.JobOptions, newProblem(http.StatusBadRequest, "validation failed", &huma.ErrorDetail{Location: "body", Message: err.Error()})
	}
	reg := a.api.OpenAPI().Components.Schemas
	pb := huma.NewPathBuffer(make([]byte, 0, 64), 0)
	pb.Push("body")
	res := &huma.ValidateResult{}
	huma.Validate(reg, reg.Map()["TranslateURLInputBody"], pb, huma.ModeWriteToServer, raw, res)
	if len(res.Errors) > 0 {
		return "", body.JobOptions, newProblem(http.StatusUnprocessableEntity, "validation failed", res.Errors...)
	}
	if err := json.Unmarshal(data, &body); err != nil { // valid by the schema: cannot fail
		return "", body.JobOptions, newProblem(http.StatusBadRequest, "validation failed", &huma.ErrorDetail{Location: "body", Message: err.Error()})
	}
	return body.URL, body.JobOptions, nil
}

// QuoteBody is the JSON of a quote, as POST /v1/quote answers it (the
// dashboard shows the same).
func QuoteBody(q *service.Quote, plan string) QuoteOut {
	out := QuoteOut{Documents: q.Documents, Words: q.Words, Segments: q.Segments, Targets: []TargetQuoteOut{},
		ChargedWords: q.ChargedWords, EstimatedSeconds: round1(q.Seconds),
		Quota: QuoteQuota{PlanName: plan, LimitWords: q.LimitWords, UsedWords: q.UsedWords, LeftAfter: q.LeftAfter, Fits: q.Fits()}}
	if q.Source != nil {
		out.SourceLang = &q.Source.Name
	}
	for _, t := range q.Targets {
		to := TargetQuoteOut{TargetLang: t.Target.Name, SegmentsInMemory: t.InMemory, EngineCharacters: t.Chars,
			Route: []QuoteLegOut{}, EstimatedSeconds: round1(t.Seconds), EstimateBasis: "measured"}
		if !t.Measured {
			to.EstimateBasis = "default"
		}
		for _, l := range t.Legs {
			to.Route = append(to.Route, QuoteLegOut{Engine: l.Engine, SourceLang: language.NameOf(l.Source), TargetLang: language.NameOf(l.Target),
				EngineCharacters: l.Chars, Exact: l.Exact, CharsPerSecond: round1(l.CharsPerSecond)})
		}
		out.Targets = append(out.Targets, to)
	}
	return out
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
