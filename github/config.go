package github

import (
	"context"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// SnapshotWithConfig is Snapshot that also reads the repository's config
// file at the PR's base commit (and at its head, to tell whether the PR
// changes it) and the learnings issue, in the same paged query. base and
// head are the commits the event names, "" when it names none: when they
// are the PR's, the file comes with the first page; otherwise with the next.
func (c *Client) SnapshotWithConfig(ctx context.Context, repo snapshot.Repo, number int, base, head string) (snapshot.Snapshot, error) {
	return c.snapshot(ctx, repo, number, snapshotRead{config: true, base: base, head: head})
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
	// The rules for reviewers at the base (snapshot.RulesPaths), and the
	// head commit's statuses, ride along the same way.
	AgentsMd  *blobObject `graphql:"agentsMd: object(expression: $agentsMd) @include(if: $withConfig)"`
	ClaudeMd  *blobObject `graphql:"claudeMd: object(expression: $claudeMd) @include(if: $withConfig)"`
	CopilotMd *blobObject `graphql:"copilotMd: object(expression: $copilotMd) @include(if: $withConfig)"`
	// The base's git attributes mark generated and vendored files.
	Attributes *blobObject `graphql:"attributes: object(expression: $attributes) @include(if: $withConfig)"`
	HeadCommit *struct {
		Commit struct {
			Status *struct {
				Contexts []struct {
					Context     string
					State       string
					Description *string
					TargetURL   *string `graphql:"targetUrl"`
				}
			}
		} `graphql:"... on Commit"`
	} `graphql:"headCommit: object(expression: $headCommit) @include(if: $withConfig)"`
}

var configKeys = []string{"baseYml", "baseYaml", "headYml", "headYaml", "agentsMd", "claudeMd", "copilotMd", "attributes", "headCommit"}

func noConfig(vars map[string]any) {
	vars["withConfig"] = githubv4.Boolean(false)
	for _, k := range configKeys {
		vars[k] = githubv4.String("")
	}
}

func askConfig(vars map[string]any, base, head string) {
	vars["withConfig"] = githubv4.Boolean(true)
	vars["baseYml"] = githubv4.String(base + ":" + snapshot.ConfigPaths[0])
	vars["baseYaml"] = githubv4.String(base + ":" + snapshot.ConfigPaths[1])
	vars["headYml"] = githubv4.String(head + ":" + snapshot.ConfigPaths[0])
	vars["headYaml"] = githubv4.String(head + ":" + snapshot.ConfigPaths[1])
	for i, k := range []string{"agentsMd", "claudeMd", "copilotMd"} {
		vars[k] = githubv4.String(base + ":" + snapshot.RulesPaths[i])
	}
	vars["attributes"] = githubv4.String(base + ":" + snapshot.AttributesPath)
	vars["headCommit"] = githubv4.String(head)
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
	for i, o := range []*blobObject{o.AgentsMd, o.ClaudeMd, o.CopilotMd} {
		if o != nil && o.Blob.Text != nil && *o.Blob.Text != "" {
			cf.Rules = append(cf.Rules, snapshot.RulesFile{Path: snapshot.RulesPaths[i], Text: *o.Blob.Text})
		}
	}
	if o.Attributes != nil && o.Attributes.Blob.Text != nil {
		cf.Attributes = *o.Attributes.Blob.Text
	}
	if o.HeadCommit != nil && o.HeadCommit.Commit.Status != nil {
		for _, c := range o.HeadCommit.Commit.Status.Contexts {
			s := snapshot.Status{Context: c.Context, State: strings.ToLower(c.State)}
			if c.Description != nil {
				s.Description = *c.Description
			}
			if c.TargetURL != nil {
				s.TargetURL = *c.TargetURL
			}
			cf.HeadStatuses = append(cf.HeadStatuses, s)
		}
	}
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
