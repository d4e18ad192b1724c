package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

// item is one submission of translate: a file or URL to its targets. With
// a server, a file to several targets, or a .zip of documents, is one
// batch; otherwise one job per target (--local runs each in turn).
type item struct {
	input, name string
	isURL       bool
	batch       bool
	targets     []string
}

// splitTargets reads --to: one language, or several comma-separated.
func splitTargets(to string) []string {
	var out []string
	for _, t := range strings.Split(to, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func isZip(path string) bool { return strings.EqualFold(filepath.Ext(path), ".zip") }

func hasZip(files []string) bool {
	for _, f := range files {
		if isZip(f) {
			return true
		}
	}
	return false
}

// planItems makes the submissions of a command line: with a server each
// file is one submission to every target (a batch when there are several
// or the file is a .zip); URLs, and files with --local, one per target.
func planItems(files, urls, targets []string, server bool) []item {
	var items []item
	for _, f := range files {
		if server {
			items = append(items, item{input: f, name: filepath.Base(f), targets: targets, batch: isZip(f) || len(targets) > 1})
			continue
		}
		for _, t := range targets {
			items = append(items, item{input: f, name: nameTo(filepath.Base(f), t, targets), targets: []string{t}})
		}
	}
	for _, u := range urls {
		for _, t := range targets {
			items = append(items, item{input: u, name: nameTo(u, t, targets), isURL: true, targets: []string{t}})
		}
	}
	return items
}

func nameTo(name, target string, targets []string) string {
	if len(targets) == 1 {
		return name
	}
	return name + " (" + target + ")"
}

// run translates one item and returns an outcome per job, and the entries
// of a .zip left out.
func (it item) run(ctx context.Context, tr Translator, c *client.Client, o client.Options) ([]outcome, []string) {
	if it.batch {
		res, err := c.TranslateBatch(ctx, it.input, o)
		if res == nil {
			return []outcome{failed(it.input, it.name, err)}, nil
		}
		var out []outcome
		for i, r := range res.Results {
			oc := outcome{Input: it.input, BatchID: res.BatchID, Output: r.Path, PDF: r.PDFPath, Bilingual: r.BilingualPath, Job: r.Job, name: it.name, err: res.Errors[i]}
			if r.Job != nil {
				oc.name = r.Job.OriginalName + " (" + deref(r.Job.TargetLang) + ")"
			}
			if oc.err != nil {
				oc.Error = oc.err.Error()
			}
			out = append(out, oc)
		}
		if err != nil {
			out = append(out, failed(it.input, it.name, err))
		}
		return out, res.Skipped
	}
	var res *client.Result
	var err error
	if it.isURL {
		res, err = tr.TranslateURL(ctx, it.input, o)
	} else {
		res, err = tr.TranslateFile(ctx, it.input, o)
	}
	oc := outcome{Input: it.input, name: it.name, err: err}
	if res != nil {
		oc.Output, oc.Job, oc.PDF, oc.Bilingual = res.Path, res.Job, res.PDFPath, res.BilingualPath
	}
	if err != nil {
		oc.Error = err.Error()
	}
	return []outcome{oc}, nil
}

// leftOut is what a .zip held besides documents, as --json prints it.
type leftOut struct {
	Input   string   `json:"input"`
	Entries []string `json:"entries"`
}

func failed(input, name string, err error) outcome {
	return outcome{Input: input, name: name, err: err, Error: err.Error()}
}

// holdAll submits every file held (translate --hold): nothing is charged
// until `dragoman jobs confirm`; it prints each job with the quote of its
// document.
func holdAll(ctx context.Context, c *client.Client, files, urls []string, targets []string, opts client.Options, asJSON bool, stdout io.Writer) int {
	opts.Hold, opts.Targets = true, targets
	type held struct {
		Input string        `json:"input"`
		Batch string        `json:"batch_id"`
		Jobs  []string      `json:"job_ids"`
		Quote *client.Quote `json:"quote,omitempty"`
		Error string        `json:"error,omitempty"`
	}
	var all []held
	code := 0
	for i, f := range append(files, urls...) {
		h := held{Input: f}
		quote, submit := c.QuoteFile, c.SubmitBatch
		if i >= len(files) { // the server fetches it
			quote, submit = c.QuoteURL, c.SubmitBatchURL
		}
		q, err := quote(ctx, f, opts)
		if err == nil {
			h.Quote = q
			var acc *client.BatchAccepted
			if acc, err = submit(ctx, f, opts); err == nil {
				h.Batch = acc.BatchId.String()
				for _, j := range deref(acc.Jobs) {
					h.Jobs = append(h.Jobs, j.JobId.String())
				}
			}
		}
		if err != nil {
			h.Error, code = ErrorText(err), 1
		}
		all = append(all, h)
		if asJSON {
			continue
		}
		if err != nil {
			fmt.Fprintf(stdout, "%s: failed: %s\n", filepath.Base(f), ErrorText(err))
			continue
		}
		printQuote(stdout, filepath.Base(f), q)
		fmt.Fprintf(stdout, "  held: %s (nothing charged until confirmed)\n", strings.Join(h.Jobs, " "))
		fmt.Fprintf(stdout, "  start: dragoman jobs confirm %s\n", strings.Join(h.Jobs, " "))
	}
	if asJSON {
		_ = printJSON(stdout, map[string]any{"held": all})
	}
	return code
}
