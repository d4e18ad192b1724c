// Command dragoman-provider-apertium is the Apertium translation engine as
// a Dragoman plugin. It needs the apertium command and its language pairs
// (Debian: apt-get install apertium apertium-eng-spa …).
//
// Settings (environment):
//
//	DRAGOMAN_APERTIUM_BIN   the apertium command (default "apertium" on PATH)
//	DRAGOMAN_APERTIUM_DIR   a directory of modes to use instead of the installed ones
//	DRAGOMAN_APERTIUM_PROCESSES  apertium pipelines run at once (default: the
//	                        number of CPUs); a large batch is split across them
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

func main() {
	procs := 0
	if v := os.Getenv(envProcesses); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "%s=%q: want a positive number\n", envProcesses, v)
			os.Exit(2)
		}
		procs = n
	}
	sdk.ServeProvider(newEngineProcs(os.Getenv("DRAGOMAN_APERTIUM_BIN"), os.Getenv("DRAGOMAN_APERTIUM_DIR"), procs))
}

// envProcesses bounds the apertium pipelines running at once.
const envProcesses = "DRAGOMAN_APERTIUM_PROCESSES"
