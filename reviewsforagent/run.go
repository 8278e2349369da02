package reviewsforagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// baseURL is the address of a server listening on ln. It names 127.0.0.1,
// the address bound, not localhost: a browser tries [::1] first for
// localhost, where another program may listen.
func baseURL(ln net.Listener) string {
	return "http://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// DefaultPort is the first port Run tries.
const DefaultPort = 4000

// portAttempts is how many ports after the first one Listen tries when the
// port is not strict.
const portAttempts = 100

// Listen binds 127.0.0.1 at port. Unless strict, a taken port makes it try
// the following ones. Port 0 picks any free port.
func Listen(port int, strict bool) (net.Listener, error) {
	last := port
	if !strict && port != 0 {
		last = min(port+portAttempts-1, 65535)
	}
	var err error
	for p := port; p <= last; p++ {
		var ln net.Listener
		ln, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err == nil {
			return ln, nil
		}
	}
	if port == last {
		return nil, fmt.Errorf("listen on 127.0.0.1 port %d: %w", port, err)
	}
	return nil, fmt.Errorf("listen on 127.0.0.1 ports %d-%d: all taken or refused, last error: %w", port, last, err)
}

// RunOptions configure Run.
type RunOptions struct {
	Dir        string // any directory inside the repository
	Source     Source // which changes; the uncommitted ones when zero
	Port       int    // first port to try; see Listen
	StrictPort bool   // fail rather than try the next port
	Out        io.Writer
	// Open shows the page to the person, usually in their browser; nil
	// leaves it to them. Its failure is reported, not fatal.
	Open func(url string) error
	// Ready, when set, is called with the page's URL, token included,
	// once the server accepts connections.
	Ready func(pageURL string)
	Now   func() time.Time
	// Store, when set, records the review in the inbox too, so the agent
	// can fetch the comments from there. A review not submitted by the
	// time the run ends is cancelled.
	Store *inbox.Store
}

// shutdownGrace is how long requests in flight get when the run ends. The
// slowest, a submission, writes two small files.
const shutdownGrace = 2 * time.Second

// Run loads the changes under o.Dir, serves the review page until ctx is
// done (the CLI cancels it on Ctrl+C or SIGTERM), and then shuts the server
// down gracefully.
func Run(ctx context.Context, o RunOptions) error {
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	changes, err := LoadSource(ctx, o.Dir, o.Source)
	if err != nil {
		return err
	}
	if len(changes.Files) == 0 {
		// Nothing to review is not a failure: say so and end, with no
		// server and no browser to close.
		if o.Source.Kind == "" || o.Source.Kind == inbox.DiffUncommitted {
			fmt.Fprintf(out, "No uncommitted changes in %s against %s: nothing to review.\n", changes.Root, changes.Base)
		} else {
			fmt.Fprintf(out, "No changes in %s: %s is empty, nothing to review.\n", changes.Root, changes.Reviewed.Phrase())
		}
		return nil
	}
	if err := announce(out, changes, o.Store); err != nil {
		return err
	}
	ln, err := Listen(o.Port, o.StrictPort)
	if err != nil {
		return err
	}
	base := baseURL(ln)
	token := NewToken()
	opts := Options{Now: o.Now, Log: out, Store: o.Store, Token: token}
	if o.Store != nil {
		retain(ctx, o.Store, out)
		id, err := record(ctx, o, changes, base, token, out)
		if err != nil {
			ln.Close()
			return err
		}
		opts.ReviewID = id
		defer keepOrCancel(o.Store, id, out)
	}
	handler := NewServer(changes, opts)
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	invite(o, handler, base, WithToken(base+"/review", token), out)
	select {
	case err := <-served:
		return fmt.Errorf("serve %s: %w", base, err)
	case <-ctx.Done():
	}
	return shutdown(srv, served, base, out)
}

// ErrNowhereToWrite is returned by Run when neither the repository nor an
// inbox can keep a submission: a page whose comments would be lost is not
// started.
var ErrNowhereToWrite = errors.New("nowhere to keep the comments")

// announce says what is up for review, and where comments will go when the
// repository cannot take a submission; with no inbox either, it refuses.
func announce(out io.Writer, changes Changes, store *inbox.Store) error {
	note, err := destination(changes.Root, writable(changes.Root), store != nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Reviewing %d changed %s in %s: %s.\n", len(changes.Files), plural(len(changes.Files), "file", "files"), changes.Root, changes.Reviewed.Phrase())
	if note != "" {
		fmt.Fprintln(out, note)
	}
	return nil
}

// destination says where a submission can go, given whether the
// repository can be written (repoErr) and whether there is an inbox.
func destination(root string, repoErr error, inbox bool) (note string, err error) {
	switch {
	case repoErr == nil:
		return "", nil
	case inbox:
		return fmt.Sprintf("Note: %s cannot be written (%v), so submitted comments are kept in the inbox only, not in %s/.", root, repoErr, OutputDir), nil
	default:
		return "", fmt.Errorf("%w: %s cannot be written (%v) and there is no inbox", ErrNowhereToWrite, root, repoErr)
	}
}

// record enters the review in the inbox and returns its id. When an
// earlier start in the same repository left an open review with unsent
// comments, it goes on with that review, under the same id: an agent told
// that id finds the review the person finishes.
func record(ctx context.Context, o RunOptions, changes Changes, base, token string, out io.Writer) (string, error) {
	req := requestOf(ctx, changes, o.Dir, nil, "", base)
	req.Token = token
	req.Origin = inbox.OriginStart
	id, ok := resume(ctx, o.Store, changes, req, out)
	if !ok {
		rec, err := o.Store.Create(ctx, req, changes.Diff)
		if err != nil {
			return "", err
		}
		id = rec.ID
	}
	fmt.Fprintf(out, "Recorded as review %s in the inbox: once you submit, your agent reads it with `reviews-for-agent inbox get %s`.\n", id, id)
	return id, nil
}

// invite tells the person where the page is, opening it for them when o
// says how, and then calls o.Ready.
func invite(o RunOptions, handler *Server, base, page string, out io.Writer) {
	fmt.Fprintf(out, "Listening on %s\n", base)
	if o.Open != nil {
		// The browser's command line is for every local user to read: it
		// gets a code that works once, not the token.
		if err := o.Open(WithCode(base+"/review", handler.NewCode())); err != nil {
			fmt.Fprintf(out, "Could not open a browser (%v): open %s yourself.\n", err, page)
		} else {
			fmt.Fprintf(out, "Opened the review in your browser; it is also at %s\n", page)
		}
	} else {
		fmt.Fprintf(out, "Open %s in your browser.\n", page)
	}
	fmt.Fprintln(out, "Press Ctrl+C to stop.")
	if o.Ready != nil {
		o.Ready(page)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writable checks that the files of a submission can be written under
// root: rfa/ itself when it exists, else root.
func writable(root string) error {
	dir := filepath.Join(root, OutputDir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = root
	}
	f, err := os.CreateTemp(dir, ".rfa-probe-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
