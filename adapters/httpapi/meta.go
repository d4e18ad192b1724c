package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

func jsonEncode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

type healthOutput struct {
	Body struct {
		OK bool `json:"ok" doc:"true when the service is up"`
	}
}

type languagesOutput struct {
	Body struct {
		Languages []string `json:"languages" doc:"Names accepted as target_lang (and as source_lang)"`
	}
}

type languagePair struct {
	Source  string   `json:"source" doc:"Source language name"`
	Target  string   `json:"target" doc:"Target language name"`
	Engine  string   `json:"engine" doc:"Engines of the route, each once, joined by \"+\" when legs use different engines"`
	Engines []string `json:"engines" doc:"Engine of each leg, in order"`
	Via     []string `json:"via" doc:"Languages the pair is translated through, in order (a chain of up to three served pairs); empty for a direct pair"`
}

type pairsOutput struct {
	Body struct {
		Pairs []languagePair `json:"pairs" doc:"Every source→target pair the configured engines serve"`
	}
}

type usageOutput struct {
	Body struct {
		UsedWords  int64  `json:"used_words" doc:"Words used in the current billing period (calendar month, UTC)"`
		LimitWords *int64 `json:"limit_words" nullable:"true" doc:"Words allowed in the period; null when unlimited"`
		PlanName   string `json:"plan_name" doc:"Name of the plan"`
	}
}

type authInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
}

type languagesInput struct {
	APIKey     string `header:"X-API-Key" required:"false" doc:"API key"`
	SourceLang string `query:"source_lang" maxLength:"64" doc:"Only the languages the engines reach from this source language, directly or over a chain of up to three served pairs"`
	Source     string `query:"source" required:"false" maxLength:"64" doc:"Same as source_lang"`
}

func (a *API) registerMeta() {
	huma.Register(a.api, huma.Operation{
		OperationID: "health", Method: http.MethodGet, Path: "/health", Tags: []string{"Service"},
		Summary: "Liveness check", Description: "No authentication.", Security: noSecurity,
	}, func(ctx context.Context, _ *struct{}) (*healthOutput, error) {
		out := &healthOutput{}
		out.Body.OK = true
		return out, nil
	})

	huma.Register(a.api, huma.Operation{
		OperationID: "languages", Method: http.MethodGet, Path: "/languages", Tags: []string{"Service"},
		Summary: "Languages",
		Description: "Language names the configured engines can translate into from at least one source, accepted as `target_lang`; " +
			"with `source_lang` (or `source`), only the targets reachable from that source. `source_lang` accepts the same names (or `auto`); " +
			"an unserved pair is refused at submission with 422, a detected one too (GET /languages/pairs lists every served pair). " +
			"Names are case-insensitive and ISO 639-1 codes are accepted as aliases.",
		Security: security, Errors: []int{401, 403, 422, 429, 503},
	}, func(ctx context.Context, in *languagesInput) (*languagesOutput, error) {
		source := in.SourceLang
		if source == "" {
			source = in.Source
		}
		names, err := a.svc.Languages.LanguagesFrom(ctx, source)
		if err != nil {
			return nil, a.fail(err)
		}
		out := &languagesOutput{}
		out.Body.Languages = names
		if out.Body.Languages == nil {
			out.Body.Languages = []string{}
		}
		return out, nil
	})

	huma.Register(a.api, huma.Operation{
		OperationID: "languagePairs", Method: http.MethodGet, Path: "/languages/pairs", Tags: []string{"Service"},
		Summary:     "Served language pairs",
		Description: "Every source→target pair the configured engines translate, directly or over a chain of up to three served pairs (shortest first, then engine priority), with the languages between and the engine of each leg.",
		Security:    security, Errors: []int{401, 403, 429, 503},
	}, func(ctx context.Context, _ *authInput) (*pairsOutput, error) {
		pairs, err := a.svc.Languages.LanguagePairs(ctx)
		if err != nil {
			return nil, a.fail(err)
		}
		out := &pairsOutput{}
		out.Body.Pairs = []languagePair{}
		for _, p := range pairs {
			via := p.Via
			if via == nil {
				via = []string{}
			}
			out.Body.Pairs = append(out.Body.Pairs, languagePair{Source: p.Source, Target: p.Target, Engine: distinct(p.Engines), Engines: p.Engines, Via: via})
		}
		return out, nil
	})

	huma.Register(a.api, huma.Operation{
		OperationID: "usage", Method: http.MethodGet, Path: "/usage", Tags: []string{"Service"},
		Summary:     "Usage in the current billing period",
		Description: "The billing period is the calendar month in UTC. Words are counted when a document's text is extracted, reserved while the job runs, and given back if it fails.",
		Security:    security, Errors: []int{401, 403, 429},
	}, func(ctx context.Context, _ *authInput) (*usageOutput, error) {
		u, err := a.svc.Accounts.Usage(ctx, caller(ctx))
		if err != nil {
			return nil, a.fail(err)
		}
		out := &usageOutput{}
		out.Body.UsedWords, out.Body.LimitWords, out.Body.PlanName = u.UsedWords, u.LimitWords, u.PlanName
		return out, nil
	})
}

// distinct joins names, each once, in order: a chain of one engine is that engine.
func distinct(names []string) string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return strings.Join(out, "+")
}
