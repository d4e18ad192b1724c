package main

import (
	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/service"
)

// openapiCommand writes the contract as the server generates it; the
// copies under openapi/ are made with it (make openapi).
func openapiCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "openapi [--yaml|--openapi-3.0]",
		Short: "print the OpenAPI contract",
		Args:  cmdline.NoArgs,
	}
	asYAML := cmd.Flags().Bool("yaml", false, "YAML instead of JSON")
	v30 := cmd.Flags().Bool("openapi-3.0", false, "downgraded to OpenAPI 3.0.3 (JSON), for code generators")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		o := httpapi.New(service.UseCases{}, nil).OpenAPI()
		var (
			b   []byte
			err error
		)
		if *v30 {
			b, err = httpapi.Contract30(o)
		} else {
			b, err = httpapi.Contract(o, *asYAML)
		}
		if err != nil {
			return err
		}
		_, err = cmd.OutOrStdout().Write(b)
		return err
	}
	return cmd
}
