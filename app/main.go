// Command dragoman is the Dragoman service and the composition root: `dragoman
// serve` wires the API and the pipeline with fx (graph.go, observe.go) and
// runs them (serve.go); `dragoman fidelity SRC OUT` compares a source and a
// translated package. The client commands are package cli, the operator's
// `dragoman admin …` package admincli, and what all commands share (cobra,
// flags bound to DRAGOMAN_ variables, exit statuses) package cmdline; the
// end-to-end tests, which run the built binaries, are package e2e.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/telemetry"
	"github.com/dragoman-translate/dragoman/app/admincli"
	"github.com/dragoman-translate/dragoman/app/cli"
	"github.com/dragoman-translate/dragoman/app/cmdline"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdline.Execute(rootCommand(), args, stdin, stdout, stderr)
}

// rootCommand is every command of the binary.
func rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "dragoman",
		Short: "document translation service",
		Long: `dragoman: document translation service

The client commands take the server and key from --server/--key or
DRAGOMAN_URL/DRAGOMAN_KEY (DRAGOMAN_CA: a PEM certificate to trust), and
print JSON for scripts with --json. Every flag of serve, admin and pairs
has a DRAGOMAN_ variable: --data-dir is DRAGOMAN_DATA_DIR.
Run "dragoman help COMMAND" or "dragoman COMMAND -h" for a command's flags,
and "dragoman completion bash|zsh|fish -h" to set up shell completion.`,
		Version: telemetry.Build().Version,
		Args:    cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprint(c.ErrOrStderr(), c.UsageString())
				return cmdline.ExitError{Code: 2}
			}
			return cmdline.UnknownCommand(c, args[0])
		},
	}
	root.SetVersionTemplate("dragoman {{.Version}}\n")
	root.AddGroup(&cobra.Group{ID: "service", Title: "Service and operator commands:"},
		&cobra.Group{ID: "client", Title: "Client commands (a server, or translate --local):"})
	for _, c := range []*cobra.Command{serveCommand(), admincli.Command(), pairsCommand(), openapiCommand(), fidelityCommand()} {
		c.GroupID = "service"
		root.AddCommand(c)
	}
	for _, c := range cli.Commands(startLocal) {
		c.GroupID = "client"
		root.AddCommand(c)
	}
	return root
}
