// Command dragoman-provider-apertium is the Apertium translation engine as
// a Dragoman plugin. It needs the apertium command and its language pairs
// (Debian: apt-get install apertium apertium-eng-spa …).
//
// Settings (environment):
//
//	DRAGOMAN_APERTIUM_BIN   the apertium command (default "apertium" on PATH)
//	DRAGOMAN_APERTIUM_DIR   a directory of modes to use instead of the installed ones
package main

import (
	"os"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

func main() {
	sdk.ServeProvider(newEngine(os.Getenv("DRAGOMAN_APERTIUM_BIN"), os.Getenv("DRAGOMAN_APERTIUM_DIR")))
}
