package inbox

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// The human-readable forms of results, shared by the command line and the
// MCP tools, so an agent reads the same text either way.

// WriteList writes a listing as a table.
func WriteList(w io.Writer, res ListResult, status string) {
	for _, m := range res.Warnings {
		fmt.Fprintln(w, "warning:", m)
	}
	if len(res.Items) == 0 {
		if status == "" {
			status = string(StatusSubmitted)
		}
		what := status + " reviews"
		if status == "all" {
			what = "reviews"
		}
		fmt.Fprintf(w, "No %s in the inbox.\n", what)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tWHEN\tCOMMENTS\tCLAIMED BY\tSUMMARY")
	for _, it := range res.Items {
		when := it.CreatedAt
		if it.SubmittedAt != nil {
			when = *it.SubmittedAt
		}
		summary := it.Summary
		if it.PR != "" {
			summary = it.PR + " " + summary
			if it.Blocking {
				summary += " [blocking]"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", it.ID, it.Status, stamp(when), it.CommentCount, dash(it.ClaimedBy), summary)
	}
	tw.Flush()
}

// WriteItem writes one item's state after a change such as a claim.
func WriteItem(w io.Writer, verb string, it Item) {
	fmt.Fprintf(w, "%s %s: %s", verb, it.ID, it.Status)
	switch {
	case it.Status == StatusResolved && it.ResolvedBy != "":
		fmt.Fprintf(w, " by %s", it.ResolvedBy)
	case it.Status == StatusClaimed && it.ClaimedBy != "":
		fmt.Fprintf(w, " by %s", it.ClaimedBy)
		if it.ClaimExpires != nil {
			fmt.Fprintf(w, " until %s", stamp(*it.ClaimExpires))
		}
	}
	fmt.Fprintln(w)
	if it.Note != "" {
		fmt.Fprintln(w, "Note:", it.Note)
	}
}

// WriteDetail writes an item's comments for the agent: the Markdown, after
// one line on where they come from.
func WriteDetail(w io.Writer, d Detail) {
	var where []string
	if d.PR != "" {
		where = append(where, d.PR)
	}
	if d.Root != "" {
		where = append(where, d.Root)
	}
	if d.Branch != "" {
		where = append(where, "branch "+d.Branch)
	}
	head := fmt.Sprintf("<!-- %s · %s", d.ID, d.Status)
	switch {
	case d.Status == StatusResolved && d.ResolvedBy != "" && d.Forced && d.ClaimedBy != "":
		head += " by " + d.ResolvedBy + " over " + d.ClaimedBy + "'s claim"
	case d.Status == StatusResolved && d.ResolvedBy != "":
		head += " by " + d.ResolvedBy
	case d.ClaimedBy != "":
		head += " by " + d.ClaimedBy
	}
	if len(where) > 0 {
		head += " · " + strings.Join(where, " · ")
	}
	fmt.Fprintln(w, head+" -->")
	if d.Message != "" {
		fmt.Fprintln(w, d.Message)
	}
	if d.Markdown != "" {
		if d.Message != "" {
			fmt.Fprintln(w)
		}
		io.WriteString(w, d.Markdown)
	}
}

// WriteRequest writes what a request answered.
func WriteRequest(w io.Writer, r RequestResult) {
	switch r.Source {
	case SourceGitHub:
		fmt.Fprintf(w, "Asked the review bot to review %s: %s\n", strings.TrimPrefix(r.ID, FindingPrefix), r.URL)
	default:
		fmt.Fprintf(w, "Requested review %s of %d changed %s.\n", r.ID, len(r.Files), plural(len(r.Files), "file", "files"))
		fmt.Fprintf(w, "The person reviews it at %s\n", r.URL)
	}
	for _, m := range r.Warnings {
		fmt.Fprintln(w, "warning:", m)
	}
	fmt.Fprintln(w, r.Hint)
}

// WriteCompact writes what a compaction did.
func WriteCompact(w io.Writer, path string, r CompactResult) {
	fmt.Fprintf(w, "Compacted %s: kept %d %s, dropped %d, %d -> %d bytes.\n", path, r.Kept, plural(r.Kept, "record", "records"),
		r.Dropped, r.BytesBefore, r.BytesAfter)
	fmt.Fprintf(w, "Stored diffs: %d kept, %d removed.\n", r.Diffs, r.DiffsRemoved)
	if r.SetAside > 0 {
		fmt.Fprintf(w, "Moved %d malformed %s to %s.malformed.\n", r.SetAside, plural(r.SetAside, "line", "lines"), path)
	}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
