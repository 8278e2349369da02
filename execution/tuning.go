package execution

// Tuning are the settings a repository may set in .github/rmc.yml (or as
// inputs) beyond the thresholds and ignore_paths.
type Tuning struct {
	Passes       []string // review passes that run, by name; empty = all
	MaxInline    int      // inline comments per review; 0 = the review's default
	MaxRunTokens int      // prompt + completion tokens the run may spend; 0 = no ceiling
	Language     string   // what the bot writes in; "" = English
}
