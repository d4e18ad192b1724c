package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// webhooksCommand: dragoman webhooks [add URL|list|test ID|deliveries ID|delete ID].
func webhooksCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhooks [add URL|list|test ID|deliveries ID|delete ID]",
		Short: "register, list, test and delete webhooks (alone: list)",
		Args:  cobra.ArbitraryArgs,
	}
	cf := addClientFlags(cmd, true)
	list := func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return cmdline.Usagef("unknown webhooks command %q: add, list, test, deliveries or delete", args[0])
		}
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			ws, err := cl.Webhooks(ctx)
			if err != nil {
				return err
			}
			if cf.json {
				return printJSON(c.OutOrStdout(), map[string]any{"webhooks": nonNil(ws)})
			}
			tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "WEBHOOK\tACTIVE\tEVENTS\tURL")
			for _, w := range ws {
				fmt.Fprintf(tw, "%s\t%v\t%s\t%s\n", w.Id, w.IsActive, strings.Join(deref(w.Events), ","), w.Url)
			}
			return tw.Flush()
		})
	}
	cmd.RunE = list
	// one is a subcommand taking exactly one argument, named what.
	one := func(use, what, short string, run func(ctx context.Context, c *cobra.Command, cl *client.Client, arg string) error) *cobra.Command {
		c := &cobra.Command{Use: use + " " + what, Short: short, Args: cobra.ArbitraryArgs}
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdline.UsageError{Msg: "dragoman webhooks " + use + " " + what}
			}
			return cf.do(func(ctx context.Context, cl *client.Client) error { return run(ctx, c, cl, args[0]) })
		}
		return c
	}
	var events string
	var limit int
	add := one("add", "URL", "register a webhook (its secret is shown once)", func(ctx context.Context, c *cobra.Command, cl *client.Client, url string) error {
		w, err := cl.AddWebhook(ctx, url, strings.Split(events, ","))
		if err != nil {
			return err
		}
		if cf.json {
			return printJSON(c.OutOrStdout(), w)
		}
		fmt.Fprintf(c.OutOrStdout(), "webhook %s → %s (%s)\nsecret (shown only now): %s\n", w.Id, w.Url, strings.Join(deref(w.Events), ", "), w.Secret)
		return nil
	})
	add.Flags().StringVar(&events, "events", "job.completed,job.failed", "comma-separated event kinds")
	cmdline.Complete(add, "events", "job.completed,job.failed", "job.completed", "job.failed")
	test := one("test", "WEBHOOK_ID", "send a test event", func(ctx context.Context, c *cobra.Command, cl *client.Client, id string) error {
		r, err := cl.TestWebhook(ctx, id)
		if err != nil {
			return err
		}
		if cf.json {
			return printJSON(c.OutOrStdout(), r)
		}
		fmt.Fprintf(c.OutOrStdout(), "test event %s queued; see dragoman webhooks deliveries %s\n", r.EventId, id)
		return nil
	})
	deliveries := one("deliveries", "WEBHOOK_ID", "the latest delivery attempts", func(ctx context.Context, c *cobra.Command, cl *client.Client, id string) error {
		ds, err := cl.WebhookDeliveries(ctx, id, limit)
		if err != nil {
			return err
		}
		if cf.json {
			return printJSON(c.OutOrStdout(), map[string]any{"deliveries": nonNil(ds)})
		}
		tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "AT\tEVENT\tATTEMPT\tSTATE\tSTATUS\tLATENCY\tERROR")
		for _, d := range ds {
			st := "-"
			if d.ResponseStatus != nil {
				st = fmt.Sprint(*d.ResponseStatus)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.0f ms\t%s\n", d.AttemptedAt.Local().Format(time.DateTime), d.Event, d.Attempt, d.State, st, d.LatencyMs, deref(d.Error))
		}
		return tw.Flush()
	})
	deliveries.Flags().IntVar(&limit, "limit", 20, "at most this many attempts")
	del := one("delete", "WEBHOOK_ID", "delete a webhook", func(ctx context.Context, c *cobra.Command, cl *client.Client, id string) error {
		if err := cl.DeleteWebhook(ctx, id); err != nil {
			return err
		}
		if cf.json {
			return printJSON(c.OutOrStdout(), map[string]any{"id": id, "deleted": true})
		}
		fmt.Fprintf(c.OutOrStdout(), "webhook %s deleted\n", id)
		return nil
	})
	listCmd := &cobra.Command{Use: "list", Short: "list the account's webhooks", Args: cobra.ArbitraryArgs, RunE: list}
	cmd.AddCommand(add, listCmd, test, deliveries, del)
	return cmd
}
