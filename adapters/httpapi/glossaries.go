package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// GlossaryEntry is one term and its translation.
type GlossaryEntry struct {
	Source string `json:"source" doc:"Source term (at most 200 characters)"`
	Target string `json:"target" doc:"Target term (at most 200 characters)"`
}

// Glossary describes a glossary; entries only when one glossary is read.
type Glossary struct {
	GlossaryID string          `json:"glossary_id" doc:"Pass it as glossary_id to POST /translate or /translate-url"`
	Name       string          `json:"name"`
	SourceLang string          `json:"source_lang" doc:"Language name"`
	TargetLang string          `json:"target_lang" doc:"Language name"`
	EntryCount int             `json:"entry_count"`
	CreatedAt  time.Time       `json:"created_at"`
	Entries    []GlossaryEntry `json:"entries,omitempty" doc:"The entries, in the order given (GET /glossaries/{glossary_id} only)"`
}

// GlossaryList lists the caller's glossaries.
type GlossaryList struct {
	Glossaries []Glossary `json:"glossaries" doc:"Oldest first, without entries"`
}

// GlossaryJSON creates a glossary from a list of entries.
type GlossaryJSON struct {
	Name       string          `json:"name" doc:"Name of the glossary"`
	SourceLang string          `json:"source_lang" doc:"Source language name or code (not auto)"`
	TargetLang string          `json:"target_lang" doc:"Target language name or code"`
	Entries    []GlossaryEntry `json:"entries" doc:"At most 10,000 entries; source terms unique"`
}

// DoNotTranslate is the account's do-not-translate list.
type DoNotTranslate struct {
	Terms []string `json:"terms" maxItems:"1000" doc:"Terms the professional mode keeps as written (case-sensitive, whole words; at most 1,000 of at most 200 characters, unique)"`
}

type glossaryIDInput struct {
	APIKey     string `header:"X-API-Key" required:"false" doc:"API key"`
	GlossaryID string `path:"glossary_id" maxLength:"64" doc:"Glossary id"`
}

type glossaryOutput struct {
	Location string `header:"Location"`
	Body     Glossary
}
type glossaryGetOutput struct{ Body Glossary }
type glossaryListOutput struct{ Body GlossaryList }
type keyInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
}
type dntInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	Body   DoNotTranslate
}
type dntOutput struct{ Body DoNotTranslate }

var glossaryLimits = fmt.Sprintf("Limits: at most %d entries, terms of at most %d characters, a file or body of at most %d bytes (%d MiB).",
	glossary.MaxEntries, glossary.MaxTermChars, glossary.MaxBytes, glossary.MaxBytes>>20)

const glossaryIDDoc = "One of the account's glossaries (POST /glossaries) for this job's pair: its terms are enforced whatever the engine. Needs source_lang (not auto); a glossary of another pair is 422."

const glossaryEnforcement = "On a job, every occurrence of a source term is replaced by its target term whatever the engine and mode: " +
	"the term is hidden from the engine as a code it keeps in place and the target term is written there, inside the same formatting. " +
	"Terms match case-sensitively (a term written in lower case also matches with a capital first letter, and its target is then capitalised) " +
	"on word boundaries (never inside a longer word; in Chinese, Japanese and Thai, which have no spaces, anywhere), longest term first. " +
	"In professional mode terms inside URLs, paths and the other protected spans are left alone; a protected span that is exactly a term takes the glossary's target. " +
	"The job's `warnings` say how many terms were applied and name any the engine dropped (those are appended to the end of their sentence)."

func (a *API) registerGlossaries() {
	tags := []string{"Glossaries"}
	huma.Register(a.api, huma.Operation{
		OperationID: "createGlossary", Method: http.MethodPost, Path: "/glossaries", Tags: tags,
		Summary: "Create a glossary",
		Description: "A named glossary for one language pair, either as `multipart/form-data` with `file` (DeepL's CSV or TSV format: " +
			"`source,target` or `source<TAB>target` per line, further columns ignored; or TBX) and the fields `name`, `source_lang`, `target_lang`, " +
			"or as JSON `{name, source_lang, target_lang, entries: [{source, target}]}`. " + glossaryLimits +
			" An empty, duplicate or over-long term is refused with 422 naming its line (file) or `entries[i]` (JSON). " + glossaryEnforcement,
		DefaultStatus: http.StatusCreated, Security: security, BodyReadTimeout: -1, MaxBodyBytes: -1,
		Errors: []int{401, 403, 413, 422, 429, 503},
	}, a.createGlossary)
	a.glossaryBody()
	huma.Register(a.api, huma.Operation{
		OperationID: "listGlossaries", Method: http.MethodGet, Path: "/glossaries", Tags: tags,
		Summary: "List glossaries", Description: "The caller's glossaries, oldest first, without their entries.",
		Security: security, Errors: []int{401, 403, 429, 503},
	}, a.listGlossaries)
	huma.Register(a.api, huma.Operation{
		OperationID: "getGlossary", Method: http.MethodGet, Path: "/glossaries/{glossary_id}", Tags: tags,
		Summary: "Get a glossary", Description: "The glossary with its entries. Another account's glossary is 404.",
		Security: security, Errors: []int{401, 403, 404, 429, 503},
	}, a.getGlossary)
	huma.Register(a.api, huma.Operation{
		OperationID: "deleteGlossary", Method: http.MethodDelete, Path: "/glossaries/{glossary_id}", Tags: tags,
		Summary: "Delete a glossary", Description: "Jobs submitted with it and not yet translated fail, saying the glossary was deleted. Another account's glossary is 404.",
		DefaultStatus: http.StatusNoContent, Security: security, Errors: []int{401, 403, 404, 429, 503},
	}, a.deleteGlossary)
	huma.Register(a.api, huma.Operation{
		OperationID: "getDoNotTranslate", Method: http.MethodGet, Path: "/account/do-not-translate", Tags: tags,
		Summary:     "Read the do-not-translate list",
		Description: "The account's terms that the `professional` mode keeps exactly as written (product names, brands).",
		Security:    security, Errors: []int{401, 403, 429},
	}, a.getDoNotTranslate)
	huma.Register(a.api, huma.Operation{
		OperationID: "putDoNotTranslate", Method: http.MethodPut, Path: "/account/do-not-translate", Tags: tags,
		Summary: "Replace the do-not-translate list",
		Description: "Replaces the account's list; `{\"terms\": []}` clears it. In `professional` mode (the default) each term is matched " +
			"case-sensitively as a whole word and hidden from the engine, so it comes out exactly as written; other modes ignore the list. " +
			"An empty, duplicate or over-long term is refused with 422 naming `terms[i]`.",
		Security: security, Errors: []int{401, 403, 422, 429},
	}, a.putDoNotTranslate)
}

// glossaryBody declares the two request bodies in the contract; the body
// itself is read by createGlossary.
func (a *API) glossaryBody() {
	op := a.api.OpenAPI().Paths["/glossaries"].Post
	str := func(doc string) *huma.Schema { return &huma.Schema{Type: "string", Description: doc} }
	jsonSchema := a.api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(GlossaryJSON{}), true, "")
	op.RequestBody = &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		"multipart/form-data": {Schema: &huma.Schema{
			Type:     "object",
			Required: []string{"file", "name", "source_lang", "target_lang"},
			Properties: map[string]*huma.Schema{
				"file":        {Type: "string", Format: "binary", Description: "DeepL CSV or TSV (source and target per line), or TBX; UTF-8"},
				"name":        str("Name of the glossary"),
				"source_lang": str("Source language name or code (not auto)"),
				"target_lang": str("Target language name or code"),
			},
		}},
		"application/json": {Schema: jsonSchema},
	}}
}

func glossaryOut(g *glossary.Glossary) Glossary {
	out := Glossary{
		GlossaryID: g.ID, Name: g.Name, SourceLang: language.NameOf(g.SourceLang), TargetLang: language.NameOf(g.TargetLang),
		EntryCount: g.EntryCount, CreatedAt: g.CreatedAt,
	}
	for _, e := range g.Entries {
		out.Entries = append(out.Entries, GlossaryEntry(e))
	}
	return out
}

func (a *API) createGlossary(ctx context.Context, in *uploadInput) (*glossaryOutput, error) {
	r := in.req
	limit := int64(glossary.MaxBytes) + 64<<10 // the file or entries, and the fields around them
	tooLarge := newProblem(http.StatusRequestEntityTooLarge, fmt.Sprintf("the glossary is larger than %d bytes", glossary.MaxBytes))
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	body := http.MaxBytesReader(nil, r.Body, limit)
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var req service.GlossaryRequest
	switch {
	case mt == "application/json":
		var in GlossaryJSON
		if err := json.NewDecoder(body).Decode(&in); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, tooLarge
			}
			return nil, newProblem(http.StatusUnprocessableEntity, "the JSON body could not be read: "+err.Error())
		}
		req = service.GlossaryRequest{Name: in.Name, SourceLang: in.SourceLang, TargetLang: in.TargetLang}
		for _, e := range in.Entries {
			req.Entries = append(req.Entries, glossary.Entry(e))
		}
	case mt == "multipart/form-data" && params["boundary"] != "":
		var err error
		if req, err = readGlossaryForm(httpguard.NewMultipart(body, params["boundary"])); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, tooLarge
			}
			return nil, newProblem(http.StatusUnprocessableEntity, "the multipart body could not be read")
		}
		if !req.FromFile {
			return nil, newProblem(http.StatusUnprocessableEntity, "missing field: file", &huma.ErrorDetail{Location: "body.file", Message: "required"})
		}
	default:
		return nil, newProblem(http.StatusUnprocessableEntity, "send the glossary as multipart/form-data with a file field, or as application/json with entries")
	}
	g, err := a.svc.Glossaries.CreateGlossary(ctx, caller(ctx), req)
	if err != nil {
		return nil, a.fail(err)
	}
	return &glossaryOutput{Location: Prefix + "/glossaries/" + g.ID, Body: glossaryOut(g)}, nil
}

// readGlossaryForm reads the multipart fields of a glossary upload; the
// body is already capped.
func readGlossaryForm(mr *httpguard.Multipart) (service.GlossaryRequest, error) {
	var req service.GlossaryRequest
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return req, nil
		}
		if err != nil {
			return req, err
		}
		switch name := part.FormName(); name {
		case "file":
			if req.FromFile {
				break
			}
			req.FromFile = true
			if req.File, err = io.ReadAll(io.LimitReader(part, int64(glossary.MaxBytes)+1)); err != nil {
				return req, err
			}
		case "name", "source_lang", "target_lang":
			v, err := io.ReadAll(io.LimitReader(part, 4*glossary.MaxNameChars+1))
			if err != nil {
				return req, err
			}
			s := strings.TrimSpace(string(v))
			switch name {
			case "name":
				req.Name = s
			case "source_lang":
				req.SourceLang = s
			default:
				req.TargetLang = s
			}
		}
		if _, err := io.Copy(io.Discard, part); err != nil {
			return req, err
		}
		part.Close()
	}
}

func (a *API) listGlossaries(ctx context.Context, _ *keyInput) (*glossaryListOutput, error) {
	gs, err := a.svc.Glossaries.ListGlossaries(ctx, caller(ctx))
	if err != nil {
		return nil, a.fail(err)
	}
	out := &glossaryListOutput{Body: GlossaryList{Glossaries: []Glossary{}}}
	for _, g := range gs {
		out.Body.Glossaries = append(out.Body.Glossaries, glossaryOut(g))
	}
	return out, nil
}

func (a *API) getGlossary(ctx context.Context, in *glossaryIDInput) (*glossaryGetOutput, error) {
	g, err := a.svc.Glossaries.GetGlossary(ctx, caller(ctx), in.GlossaryID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &glossaryGetOutput{Body: glossaryOut(g)}, nil
}

func (a *API) deleteGlossary(ctx context.Context, in *glossaryIDInput) (*struct{}, error) {
	if err := a.svc.Glossaries.DeleteGlossary(ctx, caller(ctx), in.GlossaryID); err != nil {
		return nil, a.fail(err)
	}
	return &struct{}{}, nil
}

func (a *API) getDoNotTranslate(ctx context.Context, _ *keyInput) (*dntOutput, error) {
	terms, err := a.svc.Glossaries.DoNotTranslate(ctx, caller(ctx))
	if err != nil {
		return nil, a.fail(err)
	}
	return &dntOutput{Body: DoNotTranslate{Terms: terms}}, nil
}

func (a *API) putDoNotTranslate(ctx context.Context, in *dntInput) (*dntOutput, error) {
	terms, err := a.svc.Glossaries.SetDoNotTranslate(ctx, caller(ctx), in.Body.Terms)
	if err != nil {
		return nil, a.fail(err)
	}
	return &dntOutput{Body: DoNotTranslate{Terms: terms}}, nil
}
