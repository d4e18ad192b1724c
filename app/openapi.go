package main

import (
	"io"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/service"
)

// printOpenAPI writes the contract as the server generates it; the copies
// under openapi/ are made with it (make openapi).
func printOpenAPI(args []string, stdout io.Writer) error {
	f := cmdline.NewFlags("openapi")
	asYAML := f.Bool("yaml", false, "YAML instead of JSON")
	v30 := f.Bool("openapi-3.0", false, "downgraded to OpenAPI 3.0.3 (JSON), for code generators")
	if err := f.Parse(args); err != nil {
		return err
	}
	o := httpapi.New(&service.Service{}, nil).OpenAPI()
	if *v30 {
		b, err := httpapi.Contract30(o)
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		return err
	}
	b, err := httpapi.Contract(o, *asYAML)
	if err != nil {
		return err
	}
	_, err = stdout.Write(b)
	return err
}
