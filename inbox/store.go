package inbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults of Options.
const (
	DefaultRetention    = 30 * 24 * time.Hour
	DefaultCompactAbove = 4 << 20
	DefaultClaimLease   = 30 * time.Minute
)

// StoreEnv names the environment variable that overrides the store's path.
const StoreEnv = "RFA_STORE"

// DefaultPath is where the store lives unless told otherwise: $RFA_STORE
// when set (getenv is os.Getenv, or a test's stand-in), else
// reviews-for-agent/reviews.jsonl in the user's configuration directory.
func DefaultPath(getenv func(string) string) (string, error) {
	if p := getenv(StoreEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the configuration directory for the review store (set %s to choose a path): %w", StoreEnv, err)
	}
	return filepath.Join(dir, "reviews-for-agent", "reviews.jsonl"), nil
}

// Options tune a Store; the zero value is ready to use.
type Options struct {
	Now func() time.Time // time.Now when nil
	// Retention is how long resolved and cancelled reviews are kept;
	// DefaultRetention when 0.
	Retention time.Duration
	// CompactAbove is the size in bytes past which a write also compacts
	// the store, when enough of it would go; DefaultCompactAbove when 0,
	// never when negative.
	CompactAbove int64
	// ClaimLease is how long a claim holds without being renewed, so that
	// an agent that died does not hold a review for ever;
	// DefaultClaimLease when 0.
	ClaimLease time.Duration
}

// Store is the durable record of local reviews: an append-only JSONL file
// that any number of processes share. Every change takes an exclusive lock
// on path+".lock", folds the file, checks the change against the state
// machine, and appends one line with fsync before it returns. Readers take
// no lock: a line is appended in one write, and a partial last line is
// ignored. Diffs are kept beside the file, in path+".d/<id>.diff".
type Store struct {
	path, lockPath, diffDir string
	now                     func() time.Time
	retention, lease        time.Duration
	compactAbove            int64
}

// Open prepares the store at path, creating its directory; the file itself
// is created by the first write.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, fail("open store", "", ErrInvalidInput, "no path given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("resolve the review store path %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("create the review store directory: %w", err)
	}
	s := &Store{path: abs, lockPath: abs + ".lock", diffDir: abs + ".d", now: opts.Now,
		retention: opts.Retention, lease: opts.ClaimLease, compactAbove: opts.CompactAbove}
	if s.now == nil {
		s.now = time.Now
	}
	if s.retention <= 0 {
		s.retention = DefaultRetention
	}
	if s.lease <= 0 {
		s.lease = DefaultClaimLease
	}
	if s.compactAbove == 0 {
		s.compactAbove = DefaultCompactAbove
	}
	return s, nil
}

// Path is the store file's absolute path.
func (s *Store) Path() string { return s.path }

func (s *Store) clock() time.Time { return s.now().UTC() }

// Load folds the store as it is now. It takes no lock.
func (s *Store) Load(ctx context.Context) (*Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return fold(nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the review store %s: %w", s.path, err)
	}
	snap := fold(data)
	s.expireClaims(snap)
	return snap, nil
}

// Get returns one record.
func (s *Store) Get(ctx context.Context, id string) (Record, error) {
	snap, err := s.Load(ctx)
	if err != nil {
		return Record{}, err
	}
	r, ok := snap.Get(id)
	if !ok {
		return Record{}, s.missing("get", id)
	}
	return r, nil
}

// Create records a new open review of unified, the diff under review, and
// returns it with its new id.
func (s *Store) Create(ctx context.Context, req Request, unified string) (Record, error) {
	var out Record
	err := s.locked(ctx, func(snap *Snapshot) error {
		id, err := s.newID(snap)
		if err != nil {
			return err
		}
		sum := sha256.Sum256([]byte(unified))
		req.DiffSHA256, req.DiffBytes = hex.EncodeToString(sum[:]), len(unified)
		// The diff goes first: a crash before the record is appended
		// leaves an orphan file that compaction removes, never a record
		// without its diff.
		if err := s.writeDiff(id, unified); err != nil {
			return err
		}
		now := s.clock()
		out = Record{V: FormatVersion, ID: id, Kind: KindReview, Status: StatusOpen, CreatedAt: now, UpdatedAt: now, Request: &req}
		return s.append(snap, out)
	})
	return out, err
}

// Renew gives an open review a new diff to show and a new request (the
// page's server and token among them), keeping its id and its draft: the
// start command run again in the same repository goes on with the review
// the person began, under the id it already printed, rather than making
// another. A review no longer open is refused: its comments are in, or it
// was withdrawn.
func (s *Store) Renew(ctx context.Context, id string, req Request, unified string) (Record, error) {
	var out Record
	err := s.locked(ctx, func(snap *Snapshot) error {
		cur, ok := snap.Get(id)
		if !ok {
			return s.missing("renew", id)
		}
		if cur.kind() != KindReview || cur.Status != StatusOpen {
			return fail("renew", id, ErrInvalidState, "only an open review takes a new diff; this one is "+string(cur.Status))
		}
		sum := sha256.Sum256([]byte(unified))
		req.DiffSHA256, req.DiffBytes = hex.EncodeToString(sum[:]), len(unified)
		// The record's digest names the old diff until the line below is
		// appended: a crash in between leaves a review whose diff reads as
		// damaged, which the next start renews again.
		if err := s.writeDiff(id, unified); err != nil {
			return err
		}
		p := Record{V: FormatVersion, ID: id, Kind: cur.Kind, UpdatedAt: s.clock(), Request: &req}
		cur.merge(p)
		out = cur
		return s.append(snap, p)
	})
	return out, err
}

// Submit records the person's comments on an open review; its draft goes.
func (s *Store) Submit(ctx context.Context, id string, sub Submission) (Record, error) {
	r, err := s.update(ctx, "submit", id, func(r Record) (Record, bool, error) {
		p, err := submitTransition(r, sub, s.clock())
		return p, err == nil, err
	})
	if err == nil {
		s.dropDraft(id)
	}
	return r, err
}

// Cancel withdraws an open review; cancelling it again changes nothing.
func (s *Store) Cancel(ctx context.Context, id string) (Record, error) {
	r, err := s.update(ctx, "cancel", id, func(r Record) (Record, bool, error) {
		return cancelTransition(r, s.clock())
	})
	if err == nil {
		s.dropDraft(id)
	}
	return r, err
}

// Claim marks a submitted review as taken by an agent. A repeat by the
// same agent changes nothing; a claim held by another is a conflict unless
// force takes it over.
func (s *Store) Claim(ctx context.Context, id, by string, force bool) (Record, error) {
	return s.update(ctx, "claim", id, func(r Record) (Record, bool, error) {
		return claimTransition(r, by, force, s.clock())
	})
}

// Resolve closes a submitted or claimed review, recording who did; a
// claimed one only by its claimant unless forced. Resolving it again
// changes nothing.
func (s *Store) Resolve(ctx context.Context, id string, o ResolveOptions) (Record, error) {
	return s.update(ctx, "resolve", id, func(r Record) (Record, bool, error) {
		return resolveTransition(r, o, s.clock())
	})
}

// update applies one transition to the record with id under the lock.
func (s *Store) update(ctx context.Context, op, id string, next func(Record) (Record, bool, error)) (Record, error) {
	var out Record
	err := s.locked(ctx, func(snap *Snapshot) error {
		cur, ok := snap.Get(id)
		if !ok {
			return s.missing(op, id)
		}
		if cur.kind() != KindReview {
			return fail(op, id, ErrNotFound, "no such review in "+s.path)
		}
		p, write, err := next(cur)
		if err != nil || !write {
			out = cur
			return err
		}
		cur.merge(p)
		out = cur
		return s.append(snap, p)
	})
	return out, err
}

// locked runs fn with the store locked and folded. fn may append.
func (s *Store) locked(ctx context.Context, fn func(*Snapshot) error) error {
	unlock, err := lockFile(ctx, s.lockPath)
	if err != nil {
		return err
	}
	defer unlock()
	snap, err := s.Load(ctx)
	if err != nil {
		return err
	}
	if err := fn(snap); err != nil {
		return err
	}
	if s.compactAbove > 0 && snap.size > s.compactAbove && s.worthCompacting(snap) {
		// The change is already durable; a failed compaction only means
		// the file stays large until the next try.
		_, _ = s.compactLocked(snap)
	}
	return nil
}

// append writes one line and syncs it. A torn tail left by a crash is cut
// off first, so the new line does not fuse with it.
func (s *Store) append(snap *Snapshot, r Record) error {
	line, err := encodeLine(r)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(s.path)
	created := errors.Is(statErr, fs.ErrNotExist)
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the review store %s: %w", s.path, err)
	}
	defer f.Close()
	if snap.Torn {
		if err := f.Truncate(snap.validEnd); err != nil {
			return fmt.Errorf("cut the torn last line of %s: %w", s.path, err)
		}
		snap.Torn, snap.size = false, snap.validEnd
	}
	if snap.needsNL {
		line = append([]byte{'\n'}, line...)
		snap.needsNL = false
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("append to the review store %s: %w", s.path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync the review store %s: %w", s.path, err)
	}
	if created {
		atomicfile.SyncDir(filepath.Dir(s.path))
	}
	snap.apply(r, nil)
	snap.lines++
	snap.size += int64(len(line))
	snap.validEnd = snap.size
	return nil
}

// idEncoding spells ids in lower-case base32: short, unambiguous to read
// aloud, and safe in a URL path and a file name.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns 8 random characters not yet used in the store.
func (s *Store) newID(snap *Snapshot) (string, error) {
	for range 10 {
		var b [5]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("make a review id: %w", err)
		}
		id := idEncoding.EncodeToString(b[:])
		if _, taken := snap.Get(id); !taken {
			return id, nil
		}
	}
	return "", errors.New("make a review id: every try was taken")
}

// validLocalID reports whether id could name a local review, so that it
// is safe as a file name.
func validLocalID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	return strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
}

func (s *Store) diffPath(id string) string { return filepath.Join(s.diffDir, id+".diff") }

func (s *Store) writeDiff(id, unified string) error {
	if err := os.MkdirAll(s.diffDir, 0o700); err != nil {
		return fmt.Errorf("create the diff directory %s: %w", s.diffDir, err)
	}
	if err := atomicfile.Write(s.diffPath(id), []byte(unified)); err != nil {
		return fmt.Errorf("store the diff of review %s: %w", id, err)
	}
	return nil
}

// Diff returns the diff a review was requested for, checked against the
// digest its record holds.
func (s *Store) Diff(ctx context.Context, r Record) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if r.Request == nil || !validLocalID(r.ID) {
		return "", fail("read diff", r.ID, ErrInvalidInput, "not a local review")
	}
	b, err := os.ReadFile(s.diffPath(r.ID))
	if err != nil {
		return "", fmt.Errorf("read the diff of review %s: %w", r.ID, err)
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != r.Request.DiffSHA256 {
		return "", fmt.Errorf("read the diff of review %s: %s does not match the digest recorded with the request", r.ID, s.diffPath(r.ID))
	}
	return string(b), nil
}
