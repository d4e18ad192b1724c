package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/app/cmdline"
)

// fidelityCommand compares a source and a translated package, prints the
// report and exits 1 when the output lost structure or formatting, 2 when
// it cannot compare them.
func fidelityCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "fidelity SRC OUT",
		Short: "compare a source and a translated .docx",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			stderr := cmd.ErrOrStderr()
			if len(args) != 2 {
				fmt.Fprintln(stderr, "usage: dragoman fidelity SRC OUT")
				return cmdline.ExitError{Code: 2}
			}
			r, err := structure.Compare(args[0], args[1])
			if err != nil {
				fmt.Fprintln(stderr, "dragoman fidelity:", err)
				return cmdline.ExitError{Code: 2}
			}
			r.Print(cmd.OutOrStdout())
			if r.Lost() {
				return cmdline.ExitError{Code: 1}
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"docx"}, cobra.ShellCompDirectiveFilterFileExt
		},
	}
}
