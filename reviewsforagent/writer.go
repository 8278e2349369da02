package reviewsforagent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/atomicfile"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// writtenFiles names the files of one submission, relative to the repository
// root and with forward slashes, as they are shown to the person and their
// agent.
type writtenFiles struct {
	Hash string // 8 hex characters
	JSON string // rfa/comments_<hash>.json
	MD   string // rfa/comments_<hash>.md
}

// Prompt is the line the person pastes into their coding agent.
func (w writtenFiles) Prompt() string {
	return "Address the review comments in " + w.MD
}

// submissionHash names a submission's files: 8 hex characters of SHA-256
// over the diff it was made on, its stored JSON and the time, so that two
// submissions never share a name and the same review of a different diff
// does not either.
func submissionHash(unified string, stored []byte, at time.Time) string {
	h := sha256.New()
	h.Write([]byte(unified))
	h.Write([]byte{0})
	h.Write(stored)
	h.Write([]byte{0})
	h.Write([]byte(at.UTC().Format(time.RFC3339Nano)))
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// writeSubmission writes the JSON and Markdown files of one submission to
// root/rfa. Each is written to a temporary file in the same directory and
// renamed into place, so a reader (or an agent) never sees half a file; if
// the second rename fails the first file is removed again, so a submission
// is written whole or not at all.
func writeSubmission(root, unified string, jsonData, mdData []byte, at time.Time) (writtenFiles, error) {
	w := planFiles(unified, jsonData, at)
	if err := writeFiles(root, w, jsonData, mdData); err != nil {
		return writtenFiles{}, err
	}
	return w, nil
}

// planFiles names the files of a submission before they are written.
func planFiles(unified string, jsonData []byte, at time.Time) writtenFiles {
	hash := submissionHash(unified, jsonData, at)
	return writtenFiles{
		Hash: hash,
		JSON: path.Join(OutputDir, "comments_"+hash+".json"),
		MD:   path.Join(OutputDir, "comments_"+hash+".md"),
	}
}

// writeFiles writes the planned files w, whole or not at all.
func writeFiles(root string, w writtenFiles, jsonData, mdData []byte) error {
	dir := filepath.Join(root, OutputDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	targets := []struct {
		rel  string
		data []byte
	}{{w.JSON, jsonData}, {w.MD, mdData}}

	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // already renamed, or a leftover to clean up
		}
	}()
	for _, t := range targets {
		dst := filepath.Join(root, filepath.FromSlash(t.rel))
		if _, err := os.Lstat(dst); err == nil {
			return fmt.Errorf("write %s: %w", t.rel, fs.ErrExist)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write %s: %w", t.rel, err)
		}
		tmp, err := writeTemp(dir, t.data)
		if err != nil {
			return fmt.Errorf("write %s: %w", t.rel, err)
		}
		temps = append(temps, tmp)
	}
	var renamed []string
	for i, t := range targets {
		dst := filepath.Join(root, filepath.FromSlash(t.rel))
		if err := os.Rename(temps[i], dst); err != nil {
			for _, r := range renamed {
				os.Remove(r)
			}
			return fmt.Errorf("write %s: %w", t.rel, err)
		}
		renamed = append(renamed, dst)
	}
	return nil
}

// writeTemp writes data to a new hidden temporary file in dir, flushed to
// disk, and returns its path.
func writeTemp(dir string, data []byte) (string, error) {
	name, err := atomicfile.Temp(dir, ".comments-*.tmp", data)
	if err != nil {
		return "", err
	}
	// CreateTemp makes the file private; the comments are meant to be read
	// like any other file in the work tree.
	if err := os.Chmod(name, 0o644); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// excludeOutput keeps rfa/ out of git for this clone: it adds "/rfa/" to
// .git/info/exclude (the clone's own ignore list, which is never committed)
// unless a line there already names it. The user's .gitignore is theirs
// and is left alone. It only ever adds; a failure leaves the files
// showing as untracked and is reported to the caller.
func excludeOutput(ctx context.Context, root string) error {
	out, err := git(ctx, root, "rev-parse", "--git-path", "info/exclude")
	if err != nil {
		return nil // not a repository (any more): there is no git to keep it out of
	}
	path := strings.TrimSpace(out)
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		switch strings.TrimSpace(line) {
		case OutputDir, OutputDir + "/", "/" + OutputDir, "/" + OutputDir + "/":
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	add := "# review comments for coding agents (reviews-for-agent)\n/" + OutputDir + "/\n"
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		add = "\n" + add
	}
	_, err = f.WriteString(add)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
