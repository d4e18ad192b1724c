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
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// pairsCommand: dragoman pairs [--plugin-dir DIR] [--engines LIST] prints
// the language pairs the enabled engines serve (make run shows it), and how
// to add an engine when none produces a right-to-left language.
func pairsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pairs [--engines LIST]",
		Short: "the language pairs the installed engines serve",
		Args:  cmdline.NoArgs,
	}
	fs := cmd.Flags()
	pluginDir := fs.String("plugin-dir", cmdline.DefaultPluginDir(), "directory of plugin binaries")
	engines := fs.String("engines", "apertium", "translation engines in priority order (plugin names)")
	cmdline.Bind(fs, "plugin-dir")
	cmdline.Bind(fs, "engines")
	cmdline.CompleteDirs(cmd, "plugin-dir")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return pairs(*pluginDir, *engines, cmd.OutOrStdout()) }
	return cmd
}

func pairs(pluginDir, engines string, stdout io.Writer) error {
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
	rtl := false
	name := func(code string) string {
		if l, ok := language.ByCode(code); ok {
			return l.Name
		}
		return code
	}
	for _, e := range es {
		if e.Caps.AnyToAny {
			fmt.Fprintf(stdout, "%s: every pair of the %d registry languages\n", e.Name, len(language.All()))
			rtl = true
			continue
		}
		var pairs []string
		for _, p := range e.Caps.Pairs {
			pairs = append(pairs, name(p.Source)+" → "+name(p.Target))
			if l, ok := language.ByCode(p.Target); ok && l.IsRTL() {
				rtl = true
			}
		}
		sort.Strings(pairs)
		fmt.Fprintf(stdout, "%s: %d pairs\n", e.Name, len(pairs))
		for _, p := range pairs {
			fmt.Fprintln(stdout, "  "+p)
		}
	}
	if len(es) == 0 {
		fmt.Fprintf(stdout, "no engine of %q is installed in %s\n", engines, pluginDir)
	}
	if !rtl {
		fmt.Fprint(stdout, strings.TrimLeft(`
No enabled engine translates into a right-to-left language (Arabic, Hebrew,
Persian, Urdu). Add one in front of Apertium, e.g.:
  DRAGOMAN_ENGINES=apertium,openai DRAGOMAN_OPENAI_API_KEY=… make run
  DRAGOMAN_ENGINES=apertium,deepl DRAGOMAN_DEEPL_API_KEY=… make run
  DRAGOMAN_ENGINES=apertium,libretranslate DRAGOMAN_LIBRETRANSLATE_BASE_URL=http://localhost:5000 make run
or DRAGOMAN_ENGINES=pseudo to try the right-to-left layout without a vendor.
`, "\n"))
	}
	return nil
}
