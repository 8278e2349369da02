package benchmark

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/review-my-code-bot/rmc/review"
)

// ResultCache keeps each PR's result under Dir, keyed by the PR, its golden
// comments, the model, the judge and every setting that changes the
// result. A result that failed is not kept, so a repeated run retries it.
type ResultCache struct {
	Dir string
	// Refresh runs every PR again and overwrites what is kept.
	Refresh bool
}

// cacheVersion changes whenever the meaning of a kept result does: 3 keeps
// failed reviews and judge calls, and keys on the endpoints.
const cacheVersion = 3

// cacheKey is the hash of everything a PR's result depends on: the PR and
// its golden comments, the model and judge endpoints with every setting
// that can change an answer (Endpoint), the engine's settings and the
// method. Scoring (rule set, profile) is not in it: it is redone from the
// verdicts on every run.
func (r *runner) cacheKey(c Case) string {
	model, judge := r.opt.ModelEndpoint, r.opt.JudgeEndpoint
	if model.Model == "" {
		model.Model = r.opt.Model
		if r.opt.Client != nil {
			model.Model = r.opt.Client.Model()
		}
	}
	if judge.Model == "" {
		judge.Model = r.opt.JudgeModel
	}
	data, err := json.Marshal(struct {
		Version      int
		Set, PR      string
		Golden       []Golden
		Model, Judge any
		Engine       review.Settings
		Method       Method
	}{cacheVersion, r.opt.Set.Name(), c.URL, c.Golden, model.keyed(), judge.keyed(), r.opt.Engine, r.opt.Method})
	if err != nil {
		panic(fmt.Sprintf("bench: cache key: %v", err)) // every field is plain data
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (rc *ResultCache) path(c Case, key string) string {
	name := unsafeName.ReplaceAllString(fmt.Sprintf("%s_%s_%d", c.Ref.Owner, c.Ref.Name, c.Ref.Number), "_")
	return filepath.Join(rc.Dir, "results", name+"-"+key[:24]+".json")
}

// get returns the kept result; a file that does not read back as one is
// ignored (and later overwritten).
func (rc *ResultCache) get(c Case, key string) (PRResult, bool) {
	if rc == nil || rc.Refresh {
		return PRResult{}, false
	}
	data, err := os.ReadFile(rc.path(c, key))
	if err != nil {
		return PRResult{}, false
	}
	var res PRResult
	if json.Unmarshal(data, &res) != nil || res.URL != c.URL || res.Error != "" {
		return PRResult{}, false
	}
	res.Cached, res.Redone = true, false // what this run does with it
	return res, true
}

func (rc *ResultCache) put(c Case, key string, res PRResult) error {
	if rc == nil {
		return nil
	}
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return writeCache(rc.path(c, key), data)
}
