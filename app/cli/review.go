package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/openapi/client"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// reviewCommand: dragoman review JOB_ID [--all] [--kind K] [--json], and
// dragoman review edit JOB_ID SEGMENT_ID TARGET.
func reviewCommand() *cobra.Command {
	var all bool
	var kinds []string
	cmd := &cobra.Command{
		Use:   "review JOB_ID [--all] [--kind KIND]... [--json]",
		Short: "print the sentences of a translation to check, and why",
		Long: `review prints the sentences of a completed job's translation to check, the
most likely to need a correction first: each with where it is, the original,
the translation and the reasons (flags) to check it. --all prints every
sentence in document order; --kind keeps those with a flag of that kind
(` + kindNames() + `). Correct one with
"dragoman review edit JOB_ID SEGMENT_ID TARGET", which makes a new revision
of the document (download it again with "dragoman jobs download").`,
		Args: cobra.ArbitraryArgs,
	}
	cf := addClientFlags(cmd, true)
	cmd.ValidArgsFunction = completeJobs(cf)
	cmd.Flags().BoolVar(&all, "all", false, "every sentence, in document order, not only those to check")
	cmd.Flags().StringSliceVar(&kinds, "kind", nil, "only sentences with a flag of this kind (repeatable)")
	cmdline.Complete(cmd, "kind", kindNamesList()...)
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) != 1 {
			return cmdline.UsageError{Msg: "dragoman review JOB_ID [--all] [--kind KIND]... [--json]"}
		}
		q := client.SegmentQuery{Kinds: kinds, ToCheck: !all, ByScore: !all, Limit: 500}
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			return printReview(ctx, cl, args[0], q, cf.json, c.OutOrStdout())
		})
	}
	var revision int
	edit := &cobra.Command{
		Use:   "edit JOB_ID SEGMENT_ID TARGET [--revision N]",
		Short: "correct one sentence of a translation (a new revision of the document)",
		Long: `edit sets a sentence's translation. TARGET keeps the inline tags of the
original as "dragoman review --json" shows them (<g id="1">…</g>, <x id="2"/>;
a "<" or "&" of the text written &lt; &amp;). --revision is the revision you
reviewed: the edit is refused if the job has moved on since.`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeJobs(cf),
	}
	edit.Flags().IntVar(&revision, "revision", -1, "the job's revision the edit was made on (refused if the job has moved on)")
	edit.RunE = func(c *cobra.Command, args []string) error {
		if len(args) != 3 {
			return cmdline.UsageError{Msg: "dragoman review edit JOB_ID SEGMENT_ID TARGET [--revision N]"}
		}
		return cf.do(func(ctx context.Context, cl *client.Client) error {
			res, err := cl.EditSegment(ctx, args[0], args[1], args[2], revision)
			if err != nil {
				return err
			}
			if cf.json {
				return printJSON(c.OutOrStdout(), res)
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "segment %s edited: revision %d of job %s\n", res.Segment.Id, res.Revision, args[0])
			printSegment(w, &res.Segment)
			return nil
		})
	}
	cmd.AddCommand(edit)
	return cmd
}

func kindNamesList() []string {
	out := make([]string, len(review.Kinds))
	for i, k := range review.Kinds {
		out[i] = string(k)
	}
	return out
}

func kindNames() string { return strings.Join(kindNamesList(), ", ") }

// printReview prints every page of the job's segments the query selects.
func printReview(ctx context.Context, cl *client.Client, id string, q client.SegmentQuery, asJSON bool, w io.Writer) error {
	segs := []client.Segment{}
	var last *client.SegmentList
	for {
		page, err := cl.Segments(ctx, id, q)
		if err != nil {
			return err
		}
		segs = append(segs, deref(page.Segments)...)
		last = page
		q.Cursor = deref(page.NextCursor)
		if q.Cursor == "" {
			break
		}
	}
	if asJSON {
		return printJSON(w, map[string]any{"job_id": id, "revision": last.Revision, "review": last.Review, "segments": segs})
	}
	if r := last.Review; r.Summary != "" {
		fmt.Fprintf(w, "job %s, revision %d: %s\n", id, last.Revision, r.Summary)
		for _, f := range deref(r.Document) {
			fmt.Fprintf(w, "  document: %s\n", f.Message)
		}
	}
	if len(segs) == 0 {
		fmt.Fprintln(w, "no sentence to show")
	}
	for i := range segs {
		fmt.Fprintln(w)
		printSegment(w, &segs[i])
	}
	return nil
}

// printSegment prints one sentence: where it is, the original, the
// translation and its flags, the tags as the API gives them.
func printSegment(w io.Writer, s *client.Segment) {
	edited := ""
	if s.Edited {
		edited = ", edited"
	}
	fmt.Fprintf(w, "#%s (%s, paragraph %d, score %.2f%s)\n", s.Id, s.Location, s.Paragraph, s.Score, edited)
	fmt.Fprintf(w, "  original:    %s\n", oneLine(s.Source))
	fmt.Fprintf(w, "  translation: %s\n", oneLine(s.Target))
	for _, f := range deref(s.Flags) {
		fmt.Fprintf(w, "  [%s, %s] %s\n", f.Kind, f.Severity, f.Message)
	}
}

// oneLine keeps a sentence on one line; its tags stay, so an edit can
// copy them.
func oneLine(s string) string {
	if strings.TrimSpace(tagged.Plain(s)) == "" {
		return s
	}
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
}
