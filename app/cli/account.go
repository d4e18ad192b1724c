package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// usageCommand: dragoman usage.
func usageCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "usage", Short: "the words used this month and the plan's limit", Args: cmdline.NoArgs}
	cf := addClientFlags(cmd, false)
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			u, err := cl.Usage(ctx)
			if err != nil {
				return err
			}
			if cf.json {
				return printJSON(c.OutOrStdout(), u)
			}
			limit := "unlimited"
			if u.LimitWords != nil {
				limit = fmt.Sprint(*u.LimitWords)
			}
			fmt.Fprintf(c.OutOrStdout(), "%d of %s words used this month (%s plan)\n", u.UsedWords, limit, u.PlanName)
			return nil
		})
	}
	return cmd
}

// languagesCommand: dragoman languages [--from LANG].
func languagesCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "languages [--from LANG]", Short: "the languages documents can be translated into", Args: cmdline.NoArgs}
	cf := addClientFlags(cmd, false)
	from := cmd.Flags().String("from", "", "only languages this source language can be translated into")
	completeLanguages(cmd, "from")
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			names, err := cl.Languages(ctx, *from)
			if err != nil {
				return err
			}
			if cf.json {
				return printJSON(c.OutOrStdout(), map[string]any{"languages": nonNil(names)})
			}
			for _, n := range names {
				fmt.Fprintln(c.OutOrStdout(), n)
			}
			return nil
		})
	}
	return cmd
}

// completeLanguages offers the registry's language names (with their
// codes) to shell completion of flag.
func completeLanguages(cmd *cobra.Command, flag string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var names []string
		for _, l := range language.All() {
			names = append(names, l.Name+"\t"+l.Code)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	})
}
