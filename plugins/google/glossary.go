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
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// Cloud Translation v3 applies a glossary resource named in translateText's
// glossaryConfig; a glossary is made from a file in Cloud Storage. With
// DRAGOMAN_GOOGLE_GLOSSARY_BUCKET set the plugin makes one per glossary
// content: it uploads the entries as TSV to
// gs://<bucket>/dragoman-glossaries/dragoman-<version>.tsv (Storage JSON
// API, same access token), creates projects/<p>/locations/<l>/glossaries/
// dragoman-<version> for the pair (a long-running operation it polls), and
// keeps the name in memory; after a restart it finds the glossary by that
// deterministic name (GET), so a glossary is made once, not once per job.

const (
	operationPollEvery = 500 * time.Millisecond
	operationPollFor   = 2 * time.Minute
)

// refuser names Google in a refused glossary's warning (INVALID_ARGUMENT,
// e.g. a pair it has no glossaries for).
const refuser = "google: Cloud Translation"

// withGlossary runs call with the resource name of the glossary for g on
// src→tgt (Google codes), finding or creating it the first time.
func (e *engine) withGlossary(ctx context.Context, g *sdk.Glossary, src, tgt string, call func(name string) error) ([]string, error) {
	// The version covers the host's pair and entries.
	id := "dragoman-" + strings.ToLower(g.Version)
	name := e.parent + "/glossaries/" + id
	return e.glossaries.Use(ctx, name, func(ctx context.Context) (string, error) {
		exists, err := e.glossaryExists(ctx, name)
		if err == nil && !exists {
			err = e.createGlossary(ctx, id, name, g.Entries, src, tgt)
		}
		return name, err
	}, call)
}

// glossaryExists asks for the glossary by name: 200 or 404.
func (e *engine) glossaryExists(ctx context.Context, name string) (bool, error) {
	err := e.client.Do(ctx, e.newRequest(http.MethodGet, e.base+"/v3/"+name, "", nil), classifyGlossary,
		func(httpengine.Response) error { return nil })
	var he *httpengine.Error
	if errors.As(err, &he) && he.Status == http.StatusNotFound {
		return false, nil
	}
	return err == nil, err
}

type operation struct {
	Name  string `json:"name"`
	Done  bool   `json:"done"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// createGlossary uploads the entries and creates the glossary from them,
// waiting for the operation to finish.
func (e *engine) createGlossary(ctx context.Context, id, name string, entries []sdk.GlossaryEntry, src, tgt string) error {
	var tsv strings.Builder
	// Google matches case-sensitively: the variants the host also matches.
	for _, en := range terms.WithCapitalised(entries) { // the host's terms hold no tab or line break
		tsv.WriteString(en.Source + "\t" + en.Target + "\n")
	}
	object := "dragoman-glossaries/" + id + ".tsv"
	upload := e.storage + "/upload/storage/v1/b/" + url.PathEscape(e.bucket) + "/o?" + url.Values{"uploadType": {"media"}, "name": {object}}.Encode()
	err := e.client.Do(ctx, e.newRequest(http.MethodPost, upload, "text/tab-separated-values; charset=utf-8", []byte(tsv.String())), classifyGlossary,
		func(httpengine.Response) error { return nil })
	if err != nil {
		return fmt.Errorf("uploading the glossary to gs://%s/%s: %w", e.bucket, object, err)
	}
	body, err := json.Marshal(map[string]any{
		"name":         name,
		"languagePair": map[string]string{"sourceLanguageCode": src, "targetLanguageCode": tgt},
		"inputConfig":  map[string]any{"gcsSource": map[string]string{"inputUri": "gs://" + e.bucket + "/" + object}},
	})
	if err != nil {
		return err
	}
	var op operation
	err = e.client.Do(ctx, e.newRequest(http.MethodPost, e.base+"/v3/"+e.parent+"/glossaries", "application/json; charset=utf-8", body), classifyGlossary,
		func(resp httpengine.Response) error {
			if err := json.Unmarshal(resp.Body, &op); err != nil {
				return err
			}
			if op.Name == "" {
				return fmt.Errorf("no operation in %s", resp.Body)
			}
			return nil
		})
	var he *httpengine.Error
	switch {
	case errors.As(err, &he) && he.Status == http.StatusConflict:
		return e.awaitGlossary(ctx, name) // another process is making it
	case errors.As(err, &he) && he.Status == http.StatusBadRequest:
		return &httpengine.GlossaryRefused{Vendor: refuser, Msg: he.Msg}
	case err != nil:
		return err
	}
	return e.awaitOperation(ctx, op)
}

// awaitOperation polls a long-running operation until it is done.
func (e *engine) awaitOperation(ctx context.Context, op operation) error {
	err := httpengine.Poll(ctx, operationPollEvery, operationPollFor, func() (bool, error) {
		if op.Done {
			return true, nil
		}
		return false, e.client.Do(ctx, e.newRequest(http.MethodGet, e.base+"/v3/"+op.Name, "", nil), classifyGlossary,
			func(resp httpengine.Response) error { return json.Unmarshal(resp.Body, &op) })
	})
	if errors.Is(err, httpengine.ErrNotDone) {
		return fmt.Errorf("google: creating the glossary (%s) did not finish in %s", op.Name, operationPollFor)
	}
	if err != nil {
		return err
	}
	if op.Error != nil {
		if op.Error.Code == 3 { // INVALID_ARGUMENT: the file or the pair
			return &httpengine.GlossaryRefused{Vendor: refuser, Msg: op.Error.Message}
		}
		return fmt.Errorf("google: creating the glossary failed (code %d): %s", op.Error.Code, op.Error.Message)
	}
	return nil
}

// awaitGlossary waits for a glossary another process is creating.
func (e *engine) awaitGlossary(ctx context.Context, name string) error {
	err := httpengine.Poll(ctx, operationPollEvery, operationPollFor, func() (bool, error) {
		return e.glossaryExists(ctx, name)
	})
	if errors.Is(err, httpengine.ErrNotDone) {
		return fmt.Errorf("google: glossary %s did not appear in %s", name, operationPollFor)
	}
	return err
}

// classifyGlossary leaves 404 (absent), 409 (being made) and 400 to the
// caller and names the rest as for translations.
func classifyGlossary(r httpengine.Response) string {
	switch r.Status {
	case http.StatusNotFound, http.StatusConflict, http.StatusBadRequest:
		return ""
	}
	return classify(r)
}
