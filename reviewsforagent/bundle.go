package reviewsforagent

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sync"
)

// The review page's scripts are ES modules, one file per part. Loaded as
// they are, the browser fetches, compiles and runs each in a task of its
// own before the page can start; joined into one module, it is one fetch
// and one evaluation. The join is done here, once, from the embedded
// files, so there is no build step and no bundler: the modules are written
// to allow it (every import names the module's own exports; top-level
// names are unique across the modules), and joinModules refuses any that
// are not.

// pageEntry is the module the review page starts from; pageScript is
// where the joined module is served.
const (
	pageEntry  = "app.js"
	pageScript = "/assets/review.js"
)

var (
	importRe = regexp.MustCompile(`(?m)^import\s*\{([^}]*)\}\s*from\s*'\./([a-z-]+\.js)';[ \t]*\n`)
	// A top-level declaration starts in the first column: the modules
	// indent everything inside a block.
	declRe     = regexp.MustCompile(`(?m)^(export )?(?:async )?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)`)
	otherRe    = regexp.MustCompile(`(?m)^(?:import|export)\b.*$`)
	importName = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// module is one file read for the join: its text without its imports
// and export keywords, what it imports from which module, and its
// top-level names.
type module struct {
	name    string
	body    []byte
	deps    []string
	imports map[string][]string // module → names
	exports map[string]bool
	decls   []string
}

// joinModules joins entry and every module it imports, each after the
// modules it imports, in the order the browser would run them (the first
// import first; a module already on the way is not waited for, as in an
// import cycle), into one module's text.
func joinModules(assets fs.FS, entry string) ([]byte, error) {
	mods := map[string]*module{}
	var order []*module
	var visit func(name string) error
	visit = func(name string) error {
		if _, seen := mods[name]; seen {
			return nil
		}
		m, err := readModule(assets, name)
		if err != nil {
			return err
		}
		mods[name] = m
		for _, dep := range m.deps {
			if err := visit(dep); err != nil {
				return fmt.Errorf("%s imports %s: %w", name, dep, err)
			}
		}
		order = append(order, m)
		return nil
	}
	if err := visit(entry); err != nil {
		return nil, err
	}
	if err := checkJoin(mods, order); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, m := range order {
		fmt.Fprintf(&out, "// ---- %s\n", m.name)
		out.Write(m.body)
		out.WriteString("\n")
	}
	return out.Bytes(), nil
}

// readModule reads one module and takes its imports and export keywords
// out; any other import or export form is refused.
func readModule(assets fs.FS, name string) (*module, error) {
	src, err := fs.ReadFile(assets, name)
	if err != nil {
		return nil, fmt.Errorf("read module %s: %w", name, err)
	}
	m := &module{name: name, imports: map[string][]string{}, exports: map[string]bool{}}
	for _, im := range importRe.FindAllSubmatch(src, -1) {
		dep := path.Clean(string(im[2]))
		if _, dup := m.imports[dep]; !dup {
			m.deps = append(m.deps, dep)
		}
		for _, n := range bytes.Split(im[1], []byte(",")) {
			n = bytes.TrimSpace(n)
			if len(n) == 0 {
				continue
			}
			if !importName.Match(n) {
				return nil, fmt.Errorf("module %s: import %q from %s: only plain names can be joined", name, n, dep)
			}
			m.imports[dep] = append(m.imports[dep], string(n))
		}
	}
	body := importRe.ReplaceAll(src, nil)
	for _, d := range declRe.FindAllSubmatch(body, -1) {
		m.decls = append(m.decls, string(d[2]))
		if len(d[1]) > 0 {
			m.exports[string(d[2])] = true
		}
	}
	body = declRe.ReplaceAllFunc(body, func(d []byte) []byte { return bytes.TrimPrefix(d, []byte("export ")) })
	if other := otherRe.Find(body); other != nil {
		return nil, fmt.Errorf("module %s: %q cannot be joined", name, other)
	}
	m.body = body
	return m, nil
}

// checkJoin refuses a join in which two modules declare the same
// top-level name (one would hide the other) or a module imports a name
// its module does not export.
func checkJoin(mods map[string]*module, order []*module) error {
	owner := map[string]string{}
	for _, m := range order {
		for _, d := range m.decls {
			if o, dup := owner[d]; dup {
				return fmt.Errorf("modules %s and %s both declare %s at the top level", o, m.name, d)
			}
			owner[d] = m.name
		}
		for dep, names := range m.imports {
			for _, n := range names {
				if !mods[dep].exports[n] {
					return fmt.Errorf("module %s imports %s from %s, which does not export it", m.name, n, dep)
				}
			}
		}
	}
	return nil
}

// pageModule is the review page's modules joined, made once.
var pageModule = sync.OnceValues(func() ([]byte, error) {
	assets, err := fs.Sub(webFS, "web")
	if err != nil {
		return nil, fmt.Errorf("open the page's assets: %w", err)
	}
	return joinModules(assets, pageEntry)
})

func servePageModule(w http.ResponseWriter, r *http.Request) {
	js, err := pageModule()
	if err != nil {
		http.Error(w, "the page's script: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Write(js)
}
