package inbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The concurrency test runs this test binary again as a worker process:
// with workerEnv set, TestMain runs worker instead of the tests.
const workerEnv = "INBOX_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		if err := worker(); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// worker creates reviews and races for claims on the store named in its
// environment, printing "created ID", "won ID" or "lost ID" per operation.
func worker() error {
	s, err := Open(os.Getenv("INBOX_TEST_STORE"), Options{})
	if err != nil {
		return err
	}
	name := os.Getenv(workerEnv)
	n, _ := strconv.Atoi(os.Getenv("INBOX_TEST_CREATES"))
	claims := strings.Fields(os.Getenv("INBOX_TEST_CLAIMS"))
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := range max(n, len(claims)) {
		if i < len(claims) {
			_, err := s.Claim(ctx, claims[i], name, false)
			switch {
			case err == nil:
				fmt.Fprintln(out, "won", claims[i])
			case errors.Is(err, ErrConflict):
				fmt.Fprintln(out, "lost", claims[i])
			default:
				return err
			}
		}
		if i < n {
			r, err := s.Create(ctx, testRequest(fmt.Sprintf("%s-%d.go", name, i)), testDiff)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, "created", r.ID)
		}
	}
	return nil
}

// Two processes write the same store at once: every create lands, and
// every contested claim goes to exactly one of them, the one the store
// then names. Nothing is lost to an interleaved read-modify-write.
func TestConcurrentProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx := context.Background()
	s := testStore(t, Options{})
	const contested, creates = 25, 60
	var ids []string
	for range contested {
		ids = append(ids, reviewIn(t, s, StatusSubmitted).ID)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"alpha", "beta"}
	outputs := make([]string, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+name, "INBOX_TEST_STORE="+s.Path(),
			"INBOX_TEST_CREATES="+strconv.Itoa(creates), "INBOX_TEST_CLAIMS="+strings.Join(ids, " "))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if err := cmd.Wait(); err != nil {
				t.Errorf("worker %s: %v\n%s", name, err, &stderr)
			}
			outputs[i] = stdout.String()
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Torn || len(snap.Malformed) > 0 {
		t.Fatalf("store after concurrent writes: torn %v, malformed %v", snap.Torn, snap.Malformed)
	}
	winners := map[string][]string{}
	created := 0
	for i, out := range outputs {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			verb, id, _ := strings.Cut(line, " ")
			switch verb {
			case "won":
				winners[id] = append(winners[id], names[i])
			case "created":
				created++
				if r, ok := snap.Get(id); !ok || r.Status != StatusOpen || !strings.HasPrefix(r.Request.Files[0], names[i]) {
					t.Errorf("created review %s reads %+v", id, r)
				}
			}
		}
	}
	if created != 2*creates || snap.Len() != contested+2*creates {
		t.Errorf("%d creates reported, %d records stored; want %d and %d", created, snap.Len(), 2*creates, contested+2*creates)
	}
	for _, id := range ids {
		r, _ := snap.Get(id)
		if len(winners[id]) != 1 || r.Status != StatusClaimed || r.Claim.ClaimedBy != winners[id][0] {
			t.Errorf("review %s: won by %v, stored as %s by %+v", id, winners[id], r.Status, r.Claim)
		}
	}
}
