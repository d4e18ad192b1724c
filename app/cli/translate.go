package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// Translator runs one document through a server or in-process.
type Translator interface {
	TranslateFile(ctx context.Context, path string, opts client.Options) (*client.Result, error)
	TranslateURL(ctx context.Context, url string, opts client.Options) (*client.Result, error)
}

// Local is a Translator running the pipeline in this process (translate
// --local).
type Local interface {
	Translator
	// AddGlossary stores a glossary file for the pair and returns its id.
	AddGlossary(ctx context.Context, path, from, to string) (string, error)
	Close() error
}

// NewLocal starts a Local with the plugins of pluginDir; the composition
// root (package main) provides it, as it wires the pipeline.
type NewLocal func(ctx context.Context, pluginDir, engines string, stderr io.Writer) (Local, error)

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// Translate: dragoman translate FILE... --to LANG [--from LANG] [--mode M]
// [--out DIR] [--url URL] [--glossary FILE | --glossary-id ID] [--server URL]
// [--key KEY] [--local] [--json].
func Translate(args []string, stdout, stderr io.Writer, newLocal NewLocal) int {
	cf := newClientFlags("translate")
	to := cf.fs.String("to", "", "target language name or ISO code (required)")
	from := cf.fs.String("from", "", "source language; default: detected")
	mode := cf.fs.String("mode", "", "professional (default), full, literal or extreme")
	pdf := cf.fs.Bool("pdf", false, "also write a PDF rendition of each translation beside it (NAME.<code>.pdf); a few seconds more per document, no words")
	out := cf.fs.String("out", "", "folder for the translations; default: beside each file (the working folder for --url)")
	local := cf.fs.Bool("local", false, "run the pipeline in this process with the installed plugins: no server, no key")
	pluginDir := cf.fs.String("plugin-dir", cmdline.DefaultPluginDir(), "--local: plugin binaries")
	engines := cf.fs.String("engines", envOr("DRAGOMAN_ENGINES", "apertium"), "--local: translation engines in priority order (env DRAGOMAN_ENGINES)")
	glossaryFile := cf.fs.String("glossary", "", "--local: a glossary for the --from/--to pair, as CSV or TSV (source and target per line) or TBX; its terms are enforced as the API's glossaries are")
	glossaryID := cf.fs.String("glossary-id", "", "one of the account's glossaries on the server (POST /v1/glossaries) for the --from/--to pair")
	var urls multiFlag
	cf.fs.Var(&urls, "url", "HTTPS address of a document for the server to fetch (repeatable)")
	files, err := cf.parse(args)
	if err == nil && *to == "" {
		err = cmdline.UsageError{Msg: "--to LANG is required"}
	}
	if err == nil && len(files)+len(urls) == 0 {
		err = cmdline.UsageError{Msg: "nothing to translate: give FILE... or --url URL"}
	}
	if err == nil && *local && len(urls) > 0 {
		err = cmdline.UsageError{Msg: "--url needs a server: it cannot be combined with --local"}
	}
	if err == nil {
		err = glossaryFlags(*glossaryFile, *glossaryID, *from, *local)
	}
	if err != nil {
		fmt.Fprintln(stderr, "dragoman translate:", err)
		fmt.Fprintln(stderr, "usage: dragoman translate FILE... --to LANG [--from LANG] [--mode M] [--pdf] [--out DIR] [--url URL] [--glossary FILE | --glossary-id ID] [--server URL] [--key KEY] [--local] [--json]")
		return 2
	}
	ctx, cancel := interruptible()
	defer cancel()

	var (
		tr       Translator
		clientOf *client.Client
	)
	if *local {
		l, err := newLocal(ctx, *pluginDir, *engines, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "dragoman translate --local:", err)
			return 1
		}
		defer l.Close()
		if *glossaryFile != "" {
			if *glossaryID, err = l.AddGlossary(ctx, *glossaryFile, *from, *to); err != nil {
				fmt.Fprintf(stderr, "dragoman translate --local: glossary %s: %v\n", *glossaryFile, err)
				return 1
			}
		}
		tr = l
	} else {
		c, err := cf.client()
		if err != nil {
			fmt.Fprintln(stderr, "dragoman translate:", err)
			return 1
		}
		tr = c
		clientOf = c
	}
	return runTranslations(ctx, tr, clientOf, files, urls, client.Options{To: *to, From: *from, Mode: *mode, PDF: *pdf, OutDir: *out, GlossaryID: *glossaryID}, *cf.json, stdout, stderr)
}

// glossaryFlags checks --glossary and --glossary-id: a file is read by
// --local (a server keeps its glossaries: --glossary-id names one), and a
// glossary is for one pair, so like the API it needs the source language.
func glossaryFlags(file, id, from string, local bool) error {
	switch {
	case file == "" && id == "":
		return nil
	case file != "" && id != "":
		return cmdline.UsageError{Msg: "give --glossary FILE or --glossary-id ID, not both"}
	case file != "" && !local:
		return cmdline.UsageError{Msg: "--glossary FILE needs --local; with a server, create the glossary (POST /v1/glossaries) and pass --glossary-id ID"}
	case id != "" && local:
		return cmdline.UsageError{Msg: "--glossary-id names a glossary on a server: with --local, give the file with --glossary FILE"}
	case from == "" || strings.EqualFold(from, "auto"):
		return cmdline.UsageError{Msg: "a glossary is for one language pair: give its source language with --from LANG (auto-detection cannot be checked against the glossary's pair)"}
	}
	return nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// outcome is one document's end, as --json prints it.
type outcome struct {
	Input  string      `json:"input"`
	Output string      `json:"output,omitempty"`
	PDF    string      `json:"pdf,omitempty"`
	Job    *client.Job `json:"job,omitempty"`
	Error  string      `json:"error,omitempty"`
}

func runTranslations(ctx context.Context, tr Translator, c *client.Client, files, urls []string, opts client.Options, asJSON bool, stdout, stderr io.Writer) int {
	type item struct {
		input, name string
		isURL       bool
	}
	var items []item
	for _, f := range files {
		items = append(items, item{f, filepath.Base(f), false})
	}
	for _, u := range urls {
		items = append(items, item{u, u, true})
	}
	progressOut := stdout
	if asJSON {
		progressOut = stderr
	}
	d := newDisplay(progressOut, isTerminal(progressOut))
	if c != nil {
		c.OnRateLimit = func(wait time.Duration) { d.note(fmt.Sprintf("rate limited: waiting %s as the server asks", wait)) }
	}
	outcomes := make([]outcome, len(items))
	errs := make([]error, len(items))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, it := range items {
		track := d.track(it.name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := opts
			o.Progress = track.update
			var res *client.Result
			var err error
			if it.isURL {
				res, err = tr.TranslateURL(ctx, it.input, o)
			} else {
				res, err = tr.TranslateFile(ctx, it.input, o)
			}
			outcomes[i] = outcome{Input: it.input}
			if res != nil {
				outcomes[i].Output, outcomes[i].Job, outcomes[i].PDF = res.Path, res.Job, res.PDFPath
			}
			if err != nil {
				outcomes[i].Error = err.Error()
			}
			errs[i] = err
			track.finish(err)
		}()
	}
	wg.Wait()
	d.wait()

	failed := 0
	for i, o := range outcomes {
		if errs[i] != nil {
			failed++
		}
		if asJSON {
			continue
		}
		if errs[i] != nil {
			fmt.Fprintf(stdout, "%s: failed: %s\n", items[i].name, errorText(errs[i]))
		} else {
			fmt.Fprintf(stdout, "%s → %s\n", items[i].name, o.Output)
			if o.PDF != "" {
				fmt.Fprintf(stdout, "%s → %s\n", items[i].name, o.PDF)
			}
		}
		if o.Job != nil {
			printFidelity(stdout, "  ", o.Job)
		}
	}
	if asJSON {
		_ = printJSON(stdout, map[string]any{"results": outcomes})
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "dragoman translate: interrupted; the jobs started were cancelled")
		return 130
	}
	if failed > 0 {
		if !asJSON {
			fmt.Fprintf(stdout, "%d of %d failed\n", failed, len(items))
		}
		return 1
	}
	return 0
}

// errorText is an error for a person: the server's message without the
// library's prefix.
func errorText(err error) string {
	var ae *client.APIError
	if errors.As(err, &ae) {
		return fmt.Sprintf("%s (HTTP %d %s)", ae.Message, ae.Status, ae.Code)
	}
	var jf *client.JobFailedError
	if errors.As(err, &jf) {
		return jf.Message
	}
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	return err.Error()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// display shows the progress of every document: bars on a terminal,
// one plain line per change elsewhere.
type display struct {
	mu  sync.Mutex
	w   io.Writer
	tty bool
	p   *mpb.Progress
}

func newDisplay(w io.Writer, tty bool) *display {
	d := &display{w: w, tty: tty}
	if tty {
		d.p = mpb.New(mpb.WithOutput(w), mpb.WithWidth(32))
	}
	return d
}

func (d *display) note(msg string) {
	if d.tty {
		return // the bars say it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintln(d.w, msg)
}

func (d *display) wait() {
	if d.p != nil {
		d.p.Wait()
	}
}

// tracker is one document's progress.
type tracker struct {
	d     *display
	name  string
	bar   *mpb.Bar
	mu    sync.Mutex
	state string
	last  string
}

const barTotal = 100

func (d *display) track(name string) *tracker {
	t := &tracker{d: d, name: name, state: "queued"}
	if d.tty {
		t.bar = d.p.AddBar(barTotal,
			mpb.PrependDecorators(
				decor.Name(name, decor.WC{C: decor.DSyncWidthR}),
				decor.Any(func(decor.Statistics) string { return t.text() }, decor.WC{W: 24, C: decor.DSyncWidthR}),
			),
			mpb.AppendDecorators(decor.Percentage(decor.WC{W: 5})),
		)
	}
	return t
}

func (t *tracker) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return " " + t.state
}

// update maps a step to a share of the bar: upload 0-15, the stages
// 15-75, download 75-100.
func (t *tracker) update(p client.Progress) {
	var pos int64
	var state string
	switch p.Phase {
	case client.PhaseUpload:
		state = "uploading"
		if p.Total > 0 {
			pos = 15 * p.Done / p.Total
		}
	case client.PhaseWaiting:
		state = fmt.Sprintf("rate limited, waiting %s", p.Wait)
	case client.PhaseProcess:
		state = strings.ReplaceAll(p.Stage, "_", " ")
		if state == "" {
			state = "queued"
		}
		for i, s := range client.Stages {
			if s == p.Stage {
				pos = 15 + int64(i)*10
			}
		}
	case client.PhaseDownload:
		state = "downloading"
		pos = 75
		if p.Total > 0 {
			pos += 25 * p.Done / p.Total
		}
	case client.PhaseDone:
		state, pos = "done", barTotal
	}
	t.mu.Lock()
	t.state = state
	changed := state != t.last
	t.last = state
	t.mu.Unlock()
	if t.bar != nil {
		if pos > 0 && pos < barTotal {
			t.bar.SetCurrent(pos)
		}
		return
	}
	if changed {
		line := t.name + ": " + state
		if p.Phase == client.PhaseProcess && p.JobID != "" {
			line += " (job " + p.JobID + ")"
		}
		t.d.note(line)
	}
}

func (t *tracker) finish(err error) {
	if t.bar != nil {
		t.mu.Lock()
		if err != nil {
			t.state = "failed"
		} else {
			t.state = "done"
		}
		t.mu.Unlock()
		if err != nil {
			t.bar.Abort(false)
		} else {
			t.bar.SetCurrent(barTotal)
		}
		return
	}
	if err != nil {
		t.d.note(t.name + ": failed")
	}
}
