package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// quoteCommand: dragoman quote FILE... --to LANG[,LANG...] [--from LANG]
// [--mode M] [--url URL] [--glossary-id ID]: what translating would cost,
// asked of the server (POST /v1/quote) without making a job.
func quoteCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "quote FILE... --to LANG[,LANG...] [--from LANG] [--mode M] [--url URL]",
		Short: "what translating documents would cost (words, engine characters, route, time, quota left), without translating",
		Args:  cobra.ArbitraryArgs,
	}
	cf := addClientFlags(cmd, false)
	var to, from, mode, glossaryID string
	var urls []string
	fs := cmd.Flags()
	fs.StringVar(&to, "to", "", "target language(s), comma-separated (required)")
	fs.StringVar(&from, "from", "", "source language; default: detected")
	fs.StringVar(&mode, "mode", "", "professional (default), full, literal or extreme")
	fs.StringVar(&glossaryID, "glossary-id", "", "one of the account's glossaries for the --from/--to pair")
	fs.StringArrayVar(&urls, "url", nil, "HTTPS address of a document for the server to fetch (repeatable)")
	completeLanguages(cmd, "to")
	completeLanguages(cmd, "from")
	cmdline.Complete(cmd, "mode", "professional", "full", "literal", "extreme")
	cmd.RunE = func(c *cobra.Command, files []string) error {
		targets := splitTargets(to)
		if len(targets) == 0 {
			return cmdline.UsageError{Msg: "--to LANG is required"}
		}
		if len(files)+len(urls) == 0 {
			return cmdline.UsageError{Msg: "nothing to quote: give FILE... or --url URL"}
		}
		opts := client.Options{From: from, Mode: mode, GlossaryID: glossaryID, Targets: targets}
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			var quotes []map[string]any
			for _, in := range append(files, urls...) {
				var q *client.Quote
				var err error
				if strings.Contains(in, "://") {
					q, err = cl.QuoteURL(ctx, in, opts)
				} else {
					q, err = cl.QuoteFile(ctx, in, opts)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", in, err)
				}
				if cf.json {
					quotes = append(quotes, map[string]any{"input": in, "quote": q})
					continue
				}
				printQuote(c.OutOrStdout(), filepath.Base(in), q)
			}
			if cf.json {
				return printJSON(c.OutOrStdout(), map[string]any{"quotes": quotes})
			}
			return nil
		})
	}
	return cmd
}

// printQuote prints a quote for people.
func printQuote(w io.Writer, name string, q *client.Quote) {
	src := "undetected"
	if q.SourceLang != nil {
		src = *q.SourceLang
	}
	fmt.Fprintf(w, "%s: %d words, %d segments (%s)", name, q.Words, q.Segments, src)
	if q.Documents > 1 {
		fmt.Fprintf(w, " in %d documents", q.Documents)
	}
	fmt.Fprintln(w)
	for _, t := range deref(q.Targets) {
		var legs []string
		for _, l := range deref(t.Route) {
			legs = append(legs, fmt.Sprintf("%s→%s %s", l.SourceLang, l.TargetLang, l.Engine))
		}
		route := strings.Join(legs, ", ")
		if route == "" {
			route = "nothing to send"
		}
		time := "no engine time"
		if t.EngineCharacters > 0 {
			time = fmt.Sprintf("~%s (%s rate)", seconds(t.EstimatedSeconds), t.EstimateBasis)
		}
		fmt.Fprintf(w, "  %s: %d engine characters, %d segments in memory, %s; route: %s\n",
			t.TargetLang, t.EngineCharacters, t.SegmentsInMemory, time, route)
	}
	left := "unlimited"
	if q.Quota.LeftAfter != nil {
		left = fmt.Sprintf("%d words left after", *q.Quota.LeftAfter)
	}
	fits := ""
	if !q.Quota.Fits {
		fits = " — does not fit: the submission would be refused"
	}
	fmt.Fprintf(w, "  charges %d words (%s plan: %s)%s\n", q.ChargedWords, q.Quota.PlanName, left, fits)
}

func seconds(s float64) string {
	if s < 60 {
		return fmt.Sprintf("%.0f s", max(s, 1))
	}
	return fmt.Sprintf("%.0f min", s/60)
}
