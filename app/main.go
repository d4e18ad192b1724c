// Command dragoman is the Dragoman service and the composition root: `dragoman
// serve` wires the API and the pipeline with fx (serve.go, observe.go) and
// runs them; `dragoman fidelity SRC OUT` compares a source and a translated
// package. The client commands are package cli, the operator's `dragoman
// admin …` package admincli; the end-to-end tests, which run the built
// binaries, are package e2e.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dragoman-translate/dragoman/app/admincli"
	"github.com/dragoman-translate/dragoman/app/cli"
	"github.com/dragoman-translate/dragoman/app/cmdline"
)

const usage = `dragoman: document translation service

Usage:
  dragoman serve [flags]                  run the API and the pipeline
  dragoman admin account create --plan free|starter|pro|enterprise [--name NAME]
  dragoman admin account suspend --account ID
  dragoman admin account resume --account ID
  dragoman admin account set-plan --account ID --plan P [--limit-words N] [--requests-per-minute N]
  dragoman admin key create --account ID
  dragoman admin key revoke --key KEY_ID
  dragoman admin user create --account ID --email E [--password-file F]
  dragoman admin user list --account ID
  dragoman admin user disable --account ID --user ID|EMAIL
  dragoman fidelity SRC OUT               compare a source and a translated .docx
  dragoman openapi [--yaml|--openapi-3.0] print the OpenAPI contract
  dragoman pairs [--engines LIST]         the language pairs the installed engines serve

Client commands (server and key from --server/--key or DRAGOMAN_URL/DRAGOMAN_KEY; --json for scripts):
  dragoman translate FILE... --to LANG [--from LANG] [--mode M] [--out DIR] [--url URL] [--local]
  dragoman jobs [list|get|download|cancel] [JOB_ID...] [--status S] [--all]
  dragoman usage
  dragoman languages [--from LANG]
  dragoman webhooks [add URL|list|test ID|deliveries ID|delete ID]
  dragoman verify-signature --secret S [--signature SIG] < body

Every command takes --data-dir DIR (or DRAGOMAN_DATA_DIR); run a command with -h for its flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(args[1:], stderr)
	case "admin":
		err = admincli.Run(args[1:], stdout)
	case "fidelity":
		return fidelityCmd(args[1:], stdout, stderr)
	case "openapi":
		err = printOpenAPI(args[1:], stdout)
	case "pairs":
		err = pairsCmd(args[1:], stdout)
	case "translate":
		return cli.Translate(args[1:], stdout, stderr, startLocal)
	case "jobs":
		err = cli.Jobs(args[1:], stdout)
	case "usage":
		err = cli.Usage(args[1:], stdout)
	case "languages":
		err = cli.Languages(args[1:], stdout)
	case "webhooks":
		err = cli.Webhooks(args[1:], stdout)
	case "verify-signature":
		err = cli.VerifySignature(args[1:], os.Stdin, stdout)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "dragoman: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "dragoman:", cli.ErrorText(err))
		var ue cmdline.UsageError
		if cmdline.AsUsage(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}
