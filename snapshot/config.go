package snapshot

// ConfigPaths are where a repository keeps its settings, in the order they
// are looked for: the first that exists wins.
var ConfigPaths = []string{".github/rmc.yml", ".github/rmc.yaml"}

// ConfigFile is the repository's settings file as the PR's base commit holds
// it. The base, never the head: the PR's author controls the head, and a PR
// must not choose the rules it is reviewed by.
type ConfigFile struct {
	Read bool   // the snapshot read it (false: not asked for)
	Path string // which of ConfigPaths held it; "" when the base has none
	Text string
	// ChangedByPR is set when the PR's head holds a different version (or
	// adds or removes the file): the review still uses the base's.
	ChangedByPR bool
	// Rules are the RulesPaths the base commit holds, in that order, read
	// in the same query as the file.
	Rules []RulesFile
	// HeadStatuses are the newest commit status of each context on the PR's
	// head commit, read in the same query as the file.
	HeadStatuses []Status
	// Attributes is the base commit's AttributesPath, read in the same
	// query as the file; "" when the base has none. The paths it marks
	// linguist-generated or linguist-vendored are not reviewed.
	Attributes string
}

// Name is the file as a message names it: the path the snapshot read, else
// the first of ConfigPaths, where a repository would add it.
func (cf ConfigFile) Name() string {
	if cf.Path != "" {
		return cf.Path
	}
	return ConfigPaths[0]
}

// AttributesPath is the repository's git attributes file, read at the PR's
// base commit (linguist-generated and linguist-vendored mark files there).
const AttributesPath = ".gitattributes"

// RulesPaths are the project's rules for reviewers, read at the PR's base
// commit so that a pull request cannot rewrite the rules it is judged by.
var RulesPaths = []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"}

// RulesFile is one of RulesPaths as the PR's base commit holds it.
type RulesFile struct{ Path, Text string }
