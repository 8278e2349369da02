package github

import (
	"context"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// SnapshotWithConfig is Snapshot that also reads the repository's config
// file at the PR's base commit (and at its head, to tell whether the PR
// changes it) and the learnings issue, in the same paged query. base and
// head are the commits the event names, "" when it names none: when they
// are the PR's, the file comes with the first page; otherwise with the next.
func (c *Client) SnapshotWithConfig(ctx context.Context, repo snapshot.Repo, number int, base, head string) (snapshot.Snapshot, error) {
	return c.snapshot(ctx, repo, number, true, base, head)
}

// blobObject is a file at a commit: object(expression: "<sha>:<path>").
type blobObject struct {
	Blob struct {
		Text        *string
		IsTruncated bool
	} `graphql:"... on Blob"`
}

// configObjects read the config file at the PR's base and head commits; they
// ride along with the snapshot's second page (@include), since the
// expressions need the commits the first page returns.
type configObjects struct {
	BaseYml  *blobObject `graphql:"baseYml: object(expression: $baseYml) @include(if: $withConfig)"`
	BaseYaml *blobObject `graphql:"baseYaml: object(expression: $baseYaml) @include(if: $withConfig)"`
	HeadYml  *blobObject `graphql:"headYml: object(expression: $headYml) @include(if: $withConfig)"`
	HeadYaml *blobObject `graphql:"headYaml: object(expression: $headYaml) @include(if: $withConfig)"`
}

func noConfig(vars map[string]any) {
	vars["withConfig"] = githubv4.Boolean(false)
	for _, k := range []string{"baseYml", "baseYaml", "headYml", "headYaml"} {
		vars[k] = githubv4.String("")
	}
}

func askConfig(vars map[string]any, base, head string) {
	vars["withConfig"] = githubv4.Boolean(true)
	vars["baseYml"] = githubv4.String(base + ":" + snapshot.ConfigPaths[0])
	vars["baseYaml"] = githubv4.String(base + ":" + snapshot.ConfigPaths[1])
	vars["headYml"] = githubv4.String(head + ":" + snapshot.ConfigPaths[0])
	vars["headYaml"] = githubv4.String(head + ":" + snapshot.ConfigPaths[1])
}

// asked reports whether the config was asked for at these commits (the
// event's commits may be older than the PR's).
func asked(vars map[string]any, base, head string) bool {
	return vars["baseYml"] == githubv4.String(base+":"+snapshot.ConfigPaths[0]) && vars["headYml"] == githubv4.String(head+":"+snapshot.ConfigPaths[0])
}

// configFile picks the first config path the base holds and notes whether
// the head's first config file differs from it.
func (o configObjects) configFile() snapshot.ConfigFile {
	cf := snapshot.ConfigFile{Read: true}
	basePath, baseText, _ := firstBlob(o.BaseYml, o.BaseYaml)
	headPath, headText, _ := firstBlob(o.HeadYml, o.HeadYaml)
	cf.Path, cf.Text = basePath, baseText
	cf.ChangedByPR = basePath != headPath || baseText != headText
	return cf
}

func firstBlob(objs ...*blobObject) (path, text string, found bool) {
	for i, o := range objs {
		if o != nil && o.Blob.Text != nil {
			return snapshot.ConfigPaths[i], *o.Blob.Text, true
		}
	}
	return "", "", false
}
