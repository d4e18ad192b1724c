package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
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

// translateUsage is the synopsis printed after a wrong translate command line.
const translateUsage = "usage: dragoman translate FILE... --to LANG[,LANG...] [--from LANG] [--mode M] [--pdf] [--bilingual] [--hold] [--out DIR] [--url URL] [--glossary FILE | --glossary-id ID] [--server URL] [--key KEY] [--local] [--json]"

// translateFlags are translate's own flags.
type translateFlags struct {
	to, from, mode, out, pluginDir, engines, glossaryFile, glossaryID string
	pdf, local, hold, bilingual                                       bool
	urls                                                              []string
}

// translateCommand: dragoman translate FILE... --to LANG [--from LANG]
// [--mode M] [--out DIR] [--url URL] [--glossary FILE | --glossary-id ID]
// [--server URL] [--key KEY] [--local] [--json]. It prints its own errors
// as "dragoman translate: …" and exits 2 for a wrong command line, 1 when
// a document failed, 130 when interrupted.
func translateCommand(newLocal NewLocal) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "translate FILE... --to LANG [--from LANG] [--mode M] [--out DIR] [--url URL] [--local]",
		Short: "translate documents, with a progress bar per file",
		Args:  cobra.ArbitraryArgs,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return extensions(), cobra.ShellCompDirectiveFilterFileExt
		},
	}
	cf := addClientFlags(cmd, false)
	f := &translateFlags{}
	fs := cmd.Flags()
	fs.StringVar(&f.to, "to", "", "target language name or ISO code (required); several, comma-separated (--to Spanish,Urdu), make one job per target from one upload, as a batch")
	fs.StringVar(&f.from, "from", "", "source language; default: detected")
	fs.StringVar(&f.mode, "mode", "", modeHelp())
	fs.BoolVar(&f.pdf, "pdf", false, "also write a PDF rendition of each translation beside it (NAME.<code>.pdf); a few seconds more per document, no words")
	fs.BoolVar(&f.bilingual, "bilingual", false, "also write the bilingual document beside each translation (NAME.<code>.bilingual.docx): the source beside the translation, each in its own direction")
	fs.StringVar(&f.out, "out", "", "folder for the translations; default: beside each file (the working folder for --url)")
	fs.BoolVar(&f.local, "local", false, "run the pipeline in this process with the installed plugins: no server, no key")
	fs.StringVar(&f.pluginDir, "plugin-dir", cmdline.DefaultPluginDir(), "--local: plugin binaries")
	fs.StringVar(&f.engines, "engines", "apertium", "--local: translation engines in priority order")
	fs.StringVar(&f.glossaryFile, "glossary", "", "--local: a glossary for the --from/--to pair, as CSV or TSV (source and target per line) or TBX; its terms are enforced as the API's glossaries are")
	fs.StringVar(&f.glossaryID, "glossary-id", "", "one of the account's glossaries on the server (POST /v1/glossaries) for the --from/--to pair")
	fs.BoolVar(&f.hold, "hold", false, "submit and hold the jobs (nothing charged) instead of translating: print their ids and quote; start them with `dragoman jobs confirm JOB_ID`")
	fs.StringArrayVar(&f.urls, "url", nil, "HTTPS address of a document for the server to fetch (repeatable)")
	cmdline.BindNonEmpty(fs, "engines", "DRAGOMAN_ENGINES")
	completeLanguages(cmd, "to")
	completeLanguages(cmd, "from")
	cmdline.Complete(cmd, "mode", translation.Names()...)
	cmdline.CompleteDirs(cmd, "out")
	cmdline.CompleteDirs(cmd, "plugin-dir")
	cmdline.CompleteFiles(cmd, "glossary", "csv", "tsv", "tbx")
	refuse := func(c *cobra.Command, err error) error {
		fmt.Fprintln(c.ErrOrStderr(), "dragoman translate:", err)
		fmt.Fprintln(c.ErrOrStderr(), translateUsage)
		return cmdline.ExitError{Code: 2}
	}
	cmd.SetFlagErrorFunc(refuse)
	cmd.RunE = func(c *cobra.Command, files []string) error {
		if err := f.check(files); err != nil {
			return refuse(c, err)
		}
		if code := translate(c, cf, f, files, newLocal); code != 0 {
			return cmdline.ExitError{Code: code}
		}
		return nil
	}
	return cmd
}

// check refuses a command line that cannot work.
func (f *translateFlags) check(files []string) error {
	switch {
	case f.to == "":
		return cmdline.UsageError{Msg: "--to LANG is required"}
	case len(files)+len(f.urls) == 0:
		return cmdline.UsageError{Msg: "nothing to translate: give FILE... or --url URL"}
	case f.local && len(f.urls) > 0:
		return cmdline.UsageError{Msg: "--url needs a server: it cannot be combined with --local"}
	case f.local && f.hold:
		return cmdline.UsageError{Msg: "--hold needs a server: it cannot be combined with --local"}
	case f.local && hasZip(files):
		return cmdline.UsageError{Msg: "a .zip of documents is a batch on a server: unzip it for --local"}
	}
	return glossaryFlags(f.glossaryFile, f.glossaryID, f.from, f.local)
}

func translate(c *cobra.Command, cf *clientFlags, f *translateFlags, files []string, newLocal NewLocal) int {
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	ctx, cancel := interruptible()
	defer cancel()
	var (
		tr       Translator
		clientOf *client.Client
	)
	if f.local {
		l, err := newLocal(ctx, f.pluginDir, f.engines, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "dragoman translate --local:", err)
			return 1
		}
		defer l.Close()
		if f.glossaryFile != "" {
			if f.glossaryID, err = l.AddGlossary(ctx, f.glossaryFile, f.from, f.to); err != nil {
				fmt.Fprintf(stderr, "dragoman translate --local: glossary %s: %v\n", f.glossaryFile, err)
				return 1
			}
		}
		tr = l
	} else {
		cl, err := cf.client()
		if err != nil {
			fmt.Fprintln(stderr, "dragoman translate:", err)
			return 1
		}
		tr, clientOf = cl, cl
	}
	opts := client.Options{From: f.from, Mode: f.mode, PDF: f.pdf, Bilingual: f.bilingual, OutDir: f.out, GlossaryID: f.glossaryID}
	targets := splitTargets(f.to)
	if f.hold {
		return holdAll(ctx, clientOf, files, f.urls, targets, opts, cf.json, stdout)
	}
	return runTranslations(ctx, tr, clientOf, planItems(files, f.urls, targets, clientOf != nil), opts, cf.json, stdout, stderr)
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

// outcome is one translation's end (a document to a target), as --json
// prints it.
type outcome struct {
	Input     string      `json:"input"`
	BatchID   string      `json:"batch_id,omitempty"`
	Output    string      `json:"output,omitempty"`
	PDF       string      `json:"pdf,omitempty"`
	Bilingual string      `json:"bilingual,omitempty"`
	Job       *client.Job `json:"job,omitempty"`
	Error     string      `json:"error,omitempty"`
	name      string
	err       error
}

func runTranslations(ctx context.Context, tr Translator, c *client.Client, items []item, opts client.Options, asJSON bool, stdout, stderr io.Writer) int {
	progressOut := stdout
	if asJSON {
		progressOut = stderr
	}
	d := newDisplay(progressOut, isTerminal(progressOut))
	if c != nil {
		c.OnRateLimit = func(wait time.Duration) { d.note(fmt.Sprintf("rate limited: waiting %s as the server asks", wait)) }
	}
	results := make([][]outcome, len(items))
	skipped := make([][]string, len(items))
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
			o.To, o.Targets = it.targets[0], nil
			if len(it.targets) > 1 || it.batch {
				o.To, o.Targets = "", it.targets
			}
			results[i], skipped[i] = it.run(ctx, tr, c, o)
			var err error
			for _, r := range results[i] {
				if r.err != nil {
					err = r.err
				}
			}
			track.finish(err)
		}()
	}
	wg.Wait()
	d.wait()

	var outcomes []outcome
	var left []leftOut
	failed := 0
	for i, rs := range results {
		if len(skipped[i]) > 0 {
			left = append(left, leftOut{Input: items[i].input, Entries: skipped[i]})
			if !asJSON {
				fmt.Fprintf(stdout, "%s: left out, not documents (.docx, .doc, .odt, .rtf; a .zip inside is not opened): %s\n", items[i].name, strings.Join(skipped[i], ", "))
			}
		}
		for _, o := range rs {
			outcomes = append(outcomes, o)
			if o.err != nil {
				failed++
			}
			if asJSON {
				continue
			}
			if o.err != nil {
				fmt.Fprintf(stdout, "%s: failed: %s\n", o.name, ErrorText(o.err))
			} else {
				fmt.Fprintf(stdout, "%s → %s\n", o.name, o.Output)
				for _, extra := range []string{o.PDF, o.Bilingual} {
					if extra != "" {
						fmt.Fprintf(stdout, "%s → %s\n", o.name, extra)
					}
				}
			}
			if o.Job != nil {
				printFidelity(stdout, "  ", o.Job)
			}
		}
	}
	if asJSON {
		out := map[string]any{"results": outcomes}
		if len(left) > 0 {
			out["skipped"] = left
		}
		_ = printJSON(stdout, out)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "dragoman translate: interrupted; the jobs started were cancelled")
		return 130
	}
	if failed > 0 {
		if !asJSON {
			fmt.Fprintf(stdout, "%d of %d failed\n", failed, len(outcomes))
		}
		return 1
	}
	return 0
}

// modeHelp lists the translation modes: "professional (default), full,
// literal or extreme".
func modeHelp() string {
	names := translation.Names()
	names[0] += " (default)" // translation.Modes starts with the default
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// extensions are the advertised formats' extensions without the dot, for
// completion.
func extensions() []string {
	var out []string
	for _, e := range docformat.Extensions() {
		out = append(out, strings.TrimPrefix(e, "."))
	}
	return out
}
