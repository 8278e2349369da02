package benchmark

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// ResultCache keeps each PR's result under Dir, keyed by the PR, its golden
// comments, the model, the judge and every setting that changes the
// result. A result that failed is not kept, so a repeated run retries it.
type ResultCache struct {
	Dir string
	// Refresh runs every PR again and overwrites what is kept.
	Refresh bool
}

// cacheVersion changes whenever the meaning of a kept result does.
const cacheVersion = 2

// engineKey is what the key holds of the engine's settings: those a run
// chooses, under the names the key has always had them, so the results kept
// before stay valid.
type engineKey struct{ ProblemThreshold, BlockingThreshold, Retries int }

// cacheKey is the hash of everything a PR's result depends on.
func (r *runner) cacheKey(c Case) string {
	model := r.opt.Model
	if r.opt.Client != nil {
		model = r.opt.Client.Model()
	}
	data, _ := json.Marshal(struct {
		Version    int
		Set, PR    string
		Golden     []Golden
		Model      string
		JudgeModel string
		Engine     engineKey
		Method     Method
	}{cacheVersion, r.opt.Set.Name(), c.URL, c.Golden, model, r.opt.JudgeModel, engineKey(engineRecord(r.opt.Engine)), r.opt.Method})
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
	res.Cached = true
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
