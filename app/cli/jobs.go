package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// listFlags are the flags of `jobs list` (and of `jobs` alone, which lists).
type listFlags struct {
	status, cursor string
	limit          int
	all            bool
}

func addListFlags(cmd *cobra.Command) *listFlags {
	l := &listFlags{}
	fs := cmd.Flags()
	fs.StringVar(&l.status, "status", "", "only jobs in this status (pending, processing, completed, failed)")
	fs.IntVar(&l.limit, "limit", 20, "jobs per page")
	fs.StringVar(&l.cursor, "cursor", "", "next_cursor of the previous page")
	fs.BoolVar(&l.all, "all", false, "every page")
	cmdline.Complete(cmd, "status", "pending", "processing", "completed", "failed")
	return l
}

// jobsCommand: dragoman jobs [list|get|download|cancel].
func jobsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jobs [list|get|batch|download|confirm|cancel] [JOB_ID...] [--status S] [--all]",
		Short: "list, show, download, confirm or cancel the account's jobs (alone: list)",
		Args:  cobra.ArbitraryArgs,
	}
	cf := addClientFlags(cmd, true)
	listCmd := func(c *cobra.Command, l *listFlags) func(*cobra.Command, []string) error {
		return func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdline.Usagef("unknown jobs command %q: list, get, batch, download, confirm or cancel", args[0])
			}
			return cf.do(func(ctx context.Context, cl *client.Client) error {
				return listJobs(ctx, cl, l, cf.json, c.OutOrStdout())
			})
		}
	}
	cmd.RunE = listCmd(cmd, addListFlags(cmd))
	list := &cobra.Command{Use: "list [--status S] [--limit N] [--cursor C] [--all]", Short: "list jobs, newest first", Args: cobra.ArbitraryArgs}
	list.RunE = listCmd(list, addListFlags(list))
	cmd.AddCommand(list)
	for _, sub := range []struct{ name, short string }{
		{"get", "show jobs"},
		{"batch", "show batches (BATCH_ID...): each job of a submission with several targets or documents"},
		{"download", "download the translations of completed jobs"},
		{"confirm", "start jobs submitted with --hold (or hold: true)"},
		{"cancel", "cancel running jobs (words given back) or delete finished ones"},
	} {
		c := &cobra.Command{Use: sub.name + " JOB_ID...", Short: sub.short, Args: cobra.ArbitraryArgs, ValidArgsFunction: completeJobs(cf)}
		out := "."
		if sub.name == "download" {
			c.Flags().StringVar(&out, "out", ".", "folder to write into")
			cmdline.CompleteDirs(c, "out")
		}
		c.RunE = func(c *cobra.Command, ids []string) error {
			if len(ids) == 0 {
				return cmdline.UsageError{Msg: "dragoman jobs " + sub.name + " JOB_ID..."}
			}
			return cf.do(func(ctx context.Context, cl *client.Client) error {
				for _, id := range ids {
					if err := jobAction(ctx, cl, sub.name, id, out, cf.json, c.OutOrStdout()); err != nil {
						return err
					}
				}
				return nil
			})
		}
		cmd.AddCommand(c)
	}
	return cmd
}

// completeJobs offers the account's latest jobs to shell completion.
func completeJobs(cf *clientFlags) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		cl, err := cf.client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		page, err := cl.Jobs(ctx, "", "", 50)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var ids []string
		for _, j := range deref(page.Jobs) {
			ids = append(ids, fmt.Sprintf("%s\t%s, %s", j.JobId, j.OriginalName, j.Status))
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	}
}

func listJobs(ctx context.Context, c *client.Client, l *listFlags, asJSON bool, stdout io.Writer) error {
	jobs := []client.Job{}
	next := l.cursor
	for {
		page, err := c.Jobs(ctx, l.status, next, l.limit)
		if err != nil {
			return err
		}
		jobs = append(jobs, deref(page.Jobs)...)
		next = deref(page.NextCursor)
		if !l.all || next == "" {
			break
		}
	}
	if asJSON {
		return printJSON(stdout, map[string]any{"jobs": jobs, "next_cursor": nilIfEmpty(next)})
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tSTATUS\tSTAGE\tTARGET\tWORDS\tCREATED\tFILE")
	for _, j := range jobs {
		created := ""
		if j.CreatedAt != nil {
			created = j.CreatedAt.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.JobId, j.Status, j.Stage, deref(j.TargetLang), j.TotalWords, created, j.OriginalName)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if next != "" {
		fmt.Fprintf(stdout, "more: dragoman jobs list --cursor %s\n", next)
	}
	return nil
}

func jobAction(ctx context.Context, c *client.Client, sub, id, out string, asJSON bool, stdout io.Writer) error {
	switch sub {
	case "get":
		j, err := c.Job(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, j)
		}
		printJob(stdout, j)
	case "download":
		p, err := c.Download(ctx, id, out, nil)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, map[string]string{"job_id": id, "path": p})
		}
		fmt.Fprintln(stdout, p)
	case "batch":
		b, err := c.Batch(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, b)
		}
		fmt.Fprintf(stdout, "batch %s: %s, %d jobs\n", b.BatchId, b.Status, b.Total)
		for _, j := range deref(b.Jobs) {
			fmt.Fprintf(stdout, "  %s  %-10s %s → %s\n", j.JobId, j.Status, j.OriginalName, deref(j.TargetLang))
		}
	case "confirm":
		j, err := c.Confirm(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, j)
		}
		fmt.Fprintf(stdout, "%s: confirmed, %s\n", id, j.Status)
	case "cancel":
		j, err := c.Cancel(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			if j == nil {
				return printJSON(stdout, map[string]any{"job_id": id, "deleted": true})
			}
			return printJSON(stdout, j)
		}
		if j == nil {
			fmt.Fprintf(stdout, "%s: finished job deleted\n", id)
		} else {
			fmt.Fprintf(stdout, "%s: cancelled\n", id)
		}
	}
	return nil
}

func printJob(w io.Writer, j *client.Job) {
	fmt.Fprintf(w, "job %s: %s (stage %s)\n", j.JobId, j.Status, j.Stage)
	fmt.Fprintf(w, "  file %s, %s → %s, mode %s, %d words\n", j.OriginalName, deref(j.SourceLang), deref(j.TargetLang), j.TranslationMode, j.TotalWords)
	if j.Engine != nil {
		fmt.Fprintf(w, "  engine %s\n", *j.Engine)
	}
	if j.Error != nil {
		fmt.Fprintf(w, "  error: %s\n", *j.Error)
	}
	if j.HeldUntil != nil {
		fmt.Fprintf(w, "  held until %s: start it with dragoman jobs confirm %s\n", j.HeldUntil.Local().Format(time.DateTime), j.JobId)
	}
	if j.DownloadUrl != nil {
		fmt.Fprintf(w, "  download %s\n", *j.DownloadUrl)
	}
	if j.Review.Summary != "" {
		fmt.Fprintf(w, "  review: %s (dragoman review %s)\n", j.Review.Summary, j.JobId)
	}
	printFidelity(w, "  ", j)
}

// printFidelity prints a job's rtl_fidelity and warnings.
func printFidelity(w io.Writer, indent string, j *client.Job) {
	if j.RtlFidelity.Status != "" {
		fmt.Fprintf(w, "%srtl_fidelity: %s\n", indent, j.RtlFidelity.Status)
		for _, m := range deref(j.RtlFidelity.Warnings) {
			fmt.Fprintf(w, "%s  rtl warning: %s\n", indent, m)
		}
	}
	for _, m := range deref(j.Warnings) {
		fmt.Fprintf(w, "%swarning: %s\n", indent, m)
	}
}
