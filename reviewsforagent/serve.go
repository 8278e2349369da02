package reviewsforagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// ServeOptions configure Serve.
type ServeOptions struct {
	Store      *inbox.Store
	Port       int // first port to try (see Listen); the command line's default is DefaultInboxPort
	StrictPort bool
	// Idle, when positive, stops the server once it has had no request
	// for that long while no review is open. 0 serves until ctx ends.
	Idle  time.Duration
	Out   io.Writer
	Ready func(baseURL string) // called once the server accepts connections
	Now   func() time.Time
	// Token is what requests must carry; when "", a fresh one, written
	// to the store's token file (RotateStoreToken) for its clients.
	Token string
	// RetainEvery is how often the store's retention runs while serving;
	// it also runs when the server starts. Daily when 0.
	RetainEvery time.Duration
}

// Serve runs the inbox server: the page of every open review in the store,
// by id, until ctx is done or it has been idle for o.Idle.
func Serve(ctx context.Context, o ServeOptions) error {
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	token := o.Token
	if token == "" {
		var err error
		if token, err = RotateStoreToken(o.Store); err != nil {
			return err
		}
	}
	retain(ctx, o.Store, out)
	ln, err := Listen(o.Port, o.StrictPort)
	if err != nil {
		return err
	}
	base := baseURL(ln)
	handler := NewInboxServer(o.Store, Options{Now: o.Now, Log: out, Token: token})
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	announceServe(out, o.Store, base)
	if o.Ready != nil {
		o.Ready(base)
	}

	every := o.RetainEvery
	if every <= 0 {
		every = 24 * time.Hour
	}
	retention := time.NewTicker(every)
	defer retention.Stop()
	var idle <-chan time.Time
	if o.Idle > 0 {
		t := time.NewTicker(min(max(o.Idle/4, 10*time.Millisecond), 30*time.Second))
		defer t.Stop()
		idle = t.C
	}
	for {
		select {
		case err := <-served:
			return fmt.Errorf("serve %s: %w", base, err)
		case <-ctx.Done():
			return shutdown(srv, served, base, out)
		case <-retention.C:
			retain(ctx, o.Store, out)
		case <-idle:
			if !handler.idleFor(o.Idle) {
				continue
			}
			if open, err := hasOpen(ctx, o.Store, now(o.Now)); err != nil || open {
				continue
			}
			fmt.Fprintf(out, "No review is open and no request came for %s.\n", o.Idle)
			return shutdown(srv, served, base, out)
		}
	}
}

// announceServe says where the server is. What it prints goes to a log
// file when request started it: the token stays in its own file, readable
// by its owner only, and out of the log.
func announceServe(out io.Writer, store *inbox.Store, base string) {
	fmt.Fprintf(out, "Serving the reviews in %s on %s/inbox; the token is in %s (`reviews-for-agent inbox get ID` prints a review's page with it).\n",
		store.Path(), base, tokenPath(store))
}

// retain runs the store's retention: resolved and cancelled reviews go
// once older than the retention window, with their stored diffs; open
// ones stay. A failure is reported, not fatal: the store works,
// only larger.
func retain(ctx context.Context, store *inbox.Store, out io.Writer) {
	res, err := store.Compact(ctx)
	if err != nil {
		fmt.Fprintf(out, "Retention of %s failed: %v\n", store.Path(), err)
		return
	}
	fmt.Fprintf(out, "Retention of %s: kept %d reviews, dropped %d; stored diffs: %d kept, %d removed.\n",
		store.Path(), res.Kept, res.Dropped, res.Diffs, res.DiffsRemoved)
}

// idleFor reports whether the last request is longer ago than d.
func (s *Server) idleFor(d time.Duration) bool {
	return s.now().Sub(time.Unix(0, s.lastActive.Load())) > d
}

// hasOpen reports whether a review is open that someone may still come
// to: one changed within the retention window. Open reviews outlive
// retention, but one nobody touched for that long does not keep an idle
// server up for ever.
func hasOpen(ctx context.Context, store *inbox.Store, now time.Time) (bool, error) {
	snap, err := store.Load(ctx)
	if err != nil {
		return false, err
	}
	for _, r := range snap.Records() {
		if r.Status == inbox.StatusOpen && r.Request != nil && now.Sub(r.UpdatedAt) <= store.Retention() {
			return true, nil
		}
	}
	return false, nil
}

func now(clock func() time.Time) time.Time {
	if clock == nil {
		return time.Now()
	}
	return clock()
}

// shutdown stops srv gracefully and waits for Serve to return.
func shutdown(srv *http.Server, served <-chan error, base string, out io.Writer) error {
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := srv.Shutdown(shutCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Browsers keep spare connections open that never carry a request,
		// and Shutdown waits for those as if they might. Nothing is lost
		// by closing them.
		err = srv.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) && err == nil {
		err = serveErr
	}
	if err != nil {
		return fmt.Errorf("shut down %s: %w", base, err)
	}
	fmt.Fprintln(out, "Stopped.")
	return nil
}

// Probe asks whatever listens on 127.0.0.1:port who it is, quickly. Only
// a server with the same token answers.
func Probe(ctx context.Context, port int, token string) (Health, error) {
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	u := "http://127.0.0.1:" + strconv.Itoa(port) + "/api/health"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Health{}, err
	}
	req.Header.Set(TokenHeader, token)
	client := http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return Health{}, fmt.Errorf("probe %s: %w", u, err)
	}
	defer resp.Body.Close()
	var h Health
	if resp.StatusCode != http.StatusOK {
		return h, fmt.Errorf("probe %s: answered %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&h); err != nil {
		return h, fmt.Errorf("probe %s: %w", u, err)
	}
	return h, nil
}

// portSearch is how many ports from the configured one findServer tries.
const portSearch = 20

// findServer finds the inbox server of q.Store, or a free port for one:
// the first port that either answers as that server or is free. Ports
// held by anything else (another program, a server of another store) are
// passed over.
func (q *Requester) findServer(ctx context.Context, token string) (base string, running bool, err error) {
	first := q.Port
	if first == 0 {
		first = DefaultInboxPort
	}
	last := min(first+portSearch-1, 65535)
	for p := first; p <= last; p++ {
		base := "http://127.0.0.1:" + strconv.Itoa(p)
		if h, err := Probe(ctx, p, token); err == nil {
			if h.App == AppName && h.Mode == "serve" && h.Store == q.Store.Path() {
				return base, true, nil
			}
			continue
		}
		if ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p))); err == nil {
			ln.Close()
			return base, false, nil
		}
	}
	return "", false, fmt.Errorf("find a port for the review server: %d-%d are all taken", first, last)
}

// start spawns a server at base and waits for it to answer. The server
// writes a fresh token when it starts: start returns that token, once the
// server answers to it.
func (q *Requester) start(ctx context.Context, base string) (string, error) {
	if q.Spawn == nil {
		return "", errors.New("no way to start a server here")
	}
	port, err := strconv.Atoi(portOf(base))
	if err != nil {
		return "", err
	}
	if err := q.Spawn(port); err != nil {
		return "", err
	}
	wait := q.ReadyWait
	if wait == 0 {
		wait = 5 * time.Second
	}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		token, err := StoreToken(q.Store)
		if err != nil {
			return "", err
		}
		if h, err := Probe(ctx, port, token); err == nil && h.Store == q.Store.Path() {
			return token, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("the server on port %d did not answer within %s", port, wait)
}

func portOf(base string) string { return base[strings.LastIndexByte(base, ':')+1:] }
