package main

import (
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
)

// fidelityCmd compares a source and a translated package, prints the
// report and exits 1 when the output lost structure or formatting.
func fidelityCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: dragoman fidelity SRC OUT")
		return 2
	}
	r, err := structure.Compare(args[0], args[1])
	if err != nil {
		fmt.Fprintln(stderr, "dragoman fidelity:", err)
		return 2
	}
	r.Print(stdout)
	if r.Lost() {
		return 1
	}
	return 0
}
