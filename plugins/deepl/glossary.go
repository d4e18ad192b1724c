package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// DeepL glossaries (API v2, POST /v2/glossaries) are immutable and
// account-wide, so the plugin makes one per content: named
// "dragoman-<version>" after the host's glossary version (a hash of the
// pair and the entries), for DeepL's bare pair (EN, not EN-US: a glossary
// serves every variant of its target). It is kept in memory for the
// process's life and found again by name with GET /v2/glossaries after a
// restart, so a glossary is created once, not once per job.

// glossaryPoll bounds the wait for a glossary DeepL did not report ready.
const (
	glossaryPollEvery = 250 * time.Millisecond
	glossaryPollFor   = 30 * time.Second
)

// deeplGlossary names DeepL's glossary for one host glossary and pair.
type deeplGlossary struct {
	name     string
	src, tgt string // DeepL's glossary languages
}

// glossaryLang is DeepL's language of a glossary: the bare language of a
// source or target code (EN-US → EN, ZH-HANS → ZH).
func glossaryLang(code string) string {
	base, _, _ := strings.Cut(code, "-")
	return base
}

// withGlossary runs call with the id of DeepL's glossary for g on the pair
// src→tgt (DeepL codes), finding or creating it the first time.
func (e *engine) withGlossary(ctx context.Context, g *sdk.Glossary, src, tgt string, call func(id string) error) ([]string, error) {
	dg := deeplGlossary{name: "dragoman-" + g.Version, src: glossaryLang(src), tgt: glossaryLang(tgt)}
	return e.glossaries.Use(ctx, dg.name+" "+dg.src+">"+dg.tgt, func(ctx context.Context) (string, error) {
		found, err := e.findGlossary(ctx, dg)
		if err != nil {
			return "", err
		}
		if found == nil {
			if found, err = e.createGlossary(ctx, dg, g.Entries); err != nil {
				return "", err
			}
		}
		if !found.Ready {
			if err := e.awaitGlossary(ctx, found.ID); err != nil {
				return "", err
			}
		}
		return found.ID, nil
	}, call)
}

type glossaryInfo struct {
	ID         string `json:"glossary_id"`
	Name       string `json:"name"`
	Ready      bool   `json:"ready"`
	SourceLang string `json:"source_lang"`
	TargetLang string `json:"target_lang"`
	EntryCount int    `json:"entry_count"`
}

// findGlossary looks for the glossary by name and pair among the
// account's (GET /v2/glossaries); nil when there is none.
func (e *engine) findGlossary(ctx context.Context, vg deeplGlossary) (*glossaryInfo, error) {
	var found *glossaryInfo
	err := e.client.Do(ctx, e.newRequest(http.MethodGet, "/v2/glossaries", nil), classifyGlossary,
		func(resp httpengine.Response) error {
			var d struct {
				Glossaries []glossaryInfo `json:"glossaries"`
			}
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			found = nil
			for i, gi := range d.Glossaries {
				if gi.Name == vg.name && strings.EqualFold(gi.SourceLang, vg.src) && strings.EqualFold(gi.TargetLang, vg.tgt) {
					found = &d.Glossaries[i]
					if gi.Ready {
						break
					}
				}
			}
			return nil
		})
	return found, err
}

// createGlossary makes the glossary (POST /v2/glossaries, entries as TSV:
// the host's terms hold no tab or line break).
func (e *engine) createGlossary(ctx context.Context, vg deeplGlossary, entries []sdk.GlossaryEntry) (*glossaryInfo, error) {
	var tsv strings.Builder
	for _, en := range entries {
		tsv.WriteString(tsvPhrase(en.Source) + "\t" + tsvPhrase(en.Target) + "\n")
	}
	payload, err := json.Marshal(map[string]string{
		"name": vg.name, "source_lang": vg.src, "target_lang": vg.tgt,
		"entries": tsv.String(), "entries_format": "tsv",
	})
	if err != nil {
		return nil, err
	}
	var created glossaryInfo
	err = e.client.Do(ctx, e.newRequest(http.MethodPost, "/v2/glossaries", payload), classifyGlossary,
		func(resp httpengine.Response) error {
			if err := json.Unmarshal(resp.Body, &created); err != nil {
				return err
			}
			if created.ID == "" {
				return fmt.Errorf("no glossary_id in %s", resp.Body)
			}
			return nil
		})
	var he *httpengine.Error
	if errors.As(err, &he) && he.Status == http.StatusBadRequest {
		return nil, &httpengine.GlossaryRefused{Vendor: "deepl: DeepL", Msg: he.Msg}
	}
	return &created, err
}

// awaitGlossary polls GET /v2/glossaries/{id} until DeepL says ready.
func (e *engine) awaitGlossary(ctx context.Context, id string) error {
	err := httpengine.Poll(ctx, glossaryPollEvery, glossaryPollFor, func() (bool, error) {
		var info glossaryInfo
		err := e.client.Do(ctx, e.newRequest(http.MethodGet, "/v2/glossaries/"+url.PathEscape(id), nil), classifyGlossary,
			func(resp httpengine.Response) error { return json.Unmarshal(resp.Body, &info) })
		return info.Ready, err
	})
	if errors.Is(err, httpengine.ErrNotDone) {
		return fmt.Errorf("deepl: glossary %s was not ready after %s", id, glossaryPollFor)
	}
	return err
}

// classifyGlossary names the glossary endpoints' final errors: DeepL
// answers 456 when the account's glossary limit is reached.
func classifyGlossary(r httpengine.Response) string {
	if r.Status == 456 {
		return "glossary limit reached: the DeepL account cannot hold another glossary; delete unused ones (those named dragoman-… are this service's)" + message(r)
	}
	if r.Status == http.StatusBadRequest {
		return "glossary refused" + message(r)
	}
	return classify(r)
}

// tsvPhrase writes a phrase as DeepL reads glossary entries, with CSV's
// conventions: a phrase with a double quote is quoted and its quotes
// doubled; written bare, DeepL refuses the whole glossary (or drops the
// quotes of a phrase that starts with one).
func tsvPhrase(s string) string {
	if !strings.Contains(s, `"`) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
