package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// pairsCommand: dragoman pairs [--plugin-dir DIR] [--engines LIST]
// [--summary] prints the language pairs the enabled engines serve, the
// targets they reach from English over chains, the right-to-left targets,
// and how to enable Arabic, Hebrew and Persian when no engine produces
// them (make run shows the summary).
func pairsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pairs [--engines LIST] [--summary]",
		Short: "the language pairs the installed engines serve, and what they reach",
		Args:  cmdline.NoArgs,
	}
	fs := cmd.Flags()
	pluginDir := fs.String("plugin-dir", cmdline.DefaultPluginDir(), "directory of plugin binaries")
	engines := fs.String("engines", "apertium", "translation engines in priority order (plugin names)")
	summary := fs.Bool("summary", false, "print only what the engines reach, not every pair")
	cmdline.Bind(fs, "plugin-dir")
	cmdline.Bind(fs, "engines")
	cmdline.CompleteDirs(cmd, "plugin-dir")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return pairs(*pluginDir, *engines, *summary, cmd.OutOrStdout())
	}
	return cmd
}

func pairs(pluginDir, engines string, summary bool, stdout io.Writer) error {
	h, err := pluginhost.New(pluginDir, pluginhost.ParseEngines(engines), slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	es, err := h.Engines(ctx)
	if err != nil {
		return err
	}
	if len(es) == 0 {
		fmt.Fprintf(stdout, "no engine of %q is installed in %s\n", engines, pluginDir)
	}
	if !summary {
		printPairs(stdout, es)
	}
	printReach(stdout, es)
	return nil
}

// printPairs lists each engine's direct pairs.
func printPairs(w io.Writer, es []ports.Engine) {
	for _, e := range es {
		if e.Caps.AnyToAny {
			fmt.Fprintf(w, "%s: every pair of the registry's languages\n", e.Name)
			continue
		}
		var pairs []string
		for _, p := range e.Caps.Pairs {
			pairs = append(pairs, language.NameOf(p.Source)+" → "+language.NameOf(p.Target))
		}
		sort.Strings(pairs)
		fmt.Fprintf(w, "%s: %d pairs\n", e.Name, len(pairs))
		for _, p := range pairs {
			fmt.Fprintln(w, "  "+p)
		}
	}
}

// printReach says what the engines reach: from English, the languages in
// all, the right-to-left targets, and how to get the RTL languages missing.
func printReach(w io.Writer, es []ports.Engine) {
	names := func(ls []language.Language) string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return strings.Join(out, ", ")
	}
	fromEn := translate.Reachable(es, "en")
	fmt.Fprintf(w, "From English, %d targets (directly or over chains of up to %d pairs): %s\n", len(fromEn), translate.MaxLegs, names(fromEn))
	targets := translate.Targets(es)
	fmt.Fprintf(w, "All targets: %d languages (GET /v1/languages lists them; ?source= narrows to one source)\n", len(targets))
	var rtl, missing []string
	served := map[string]bool{}
	for _, t := range targets {
		served[t.Code] = true
	}
	for _, l := range language.All() {
		if !l.IsRTL() {
			continue
		}
		if !served[l.Code] {
			missing = append(missing, l.Name)
			continue
		}
		var from []string
		for _, s := range language.All() {
			if s.Code != l.Code && translate.Servable(es, s.Code, l.Code) {
				from = append(from, s.Name)
			}
		}
		if len(from) > 3 {
			from = append(from[:3], "…")
		}
		rtl = append(rtl, fmt.Sprintf("%s (from %s)", l.Name, strings.Join(from, ", ")))
	}
	if len(rtl) == 0 {
		rtl = []string{"none"}
	}
	fmt.Fprintf(w, "Right-to-left targets: %s\n", strings.Join(rtl, "; "))
	if len(missing) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: no enabled engine translates into them. Enable one in front of Apertium (README, \"What it translates\"):\n", strings.Join(missing, ", "))
	for _, e := range translate.Enablers {
		fmt.Fprintf(w, "  %s, with %s:\n    %s make run\n", e.Engine, e.Needs, e.Setting)
	}
	fmt.Fprintln(w, "  or DRAGOMAN_ENGINES=pseudo to try the right-to-left layout without a vendor.")
}
