// Command extract writes the segment model of .docx files as JSON, so the
// translator's benchmarks use real documents without importing the DOCX
// adapter into the core. Run from the repository root:
//
//	go run ./testdata/engines/extract in.docx > testdata/engines/out.segments.json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/dragoman-translate/dragoman/adapters/docx"
)

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type blob struct {
	*os.File
	size int64
}

func (b blob) Size() int64 { return b.size }

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	doc, err := docx.ExtractReader(context.Background(), f, st.Size())
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}
