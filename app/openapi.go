package main

import (
	"io"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/core/service"
)

// printOpenAPI writes the contract as the server generates it; the copies
// under openapi/ are made with it (make openapi).
func printOpenAPI(args []string, stdout io.Writer) error {
	f := newFlags("openapi")
	asYAML := f.Bool("yaml", false, "YAML instead of JSON")
	if err := f.parse(args); err != nil {
		return err
	}
	b, err := httpapi.Contract(httpapi.New(&service.Service{}, nil).OpenAPI(), *asYAML)
	if err != nil {
		return err
	}
	_, err = stdout.Write(b)
	return err
}
