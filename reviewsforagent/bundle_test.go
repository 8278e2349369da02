package reviewsforagent

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The page's modules join into one, each after what it imports, with no
// import or export left.
func TestPageModuleJoins(t *testing.T) {
	t.Parallel()
	js, err := pageModule()
	if err != nil {
		t.Fatalf("join the page's modules: %v", err)
	}
	text := string(js)
	for _, bad := range []string{"\nimport ", "\nexport "} {
		if strings.Contains(text, bad) {
			t.Errorf("the joined module still has %q", strings.TrimSpace(bad))
		}
	}
	if page, app := strings.Index(text, "// ---- page.js\n"), strings.Index(text, "// ---- app.js\n"); page < 0 || app < page {
		t.Errorf("page.js at %d, app.js at %d: the entry must come after what it imports", page, app)
	}
}

func TestJoinModules(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files   map[string]string
		want    string // the joined text
		wantErr string
	}{
		"in the order they run": {
			files: map[string]string{
				"a.js": "import { b } from './b.js';\nimport {\n  c\n} from './c.js';\nexport function a() { return b() + c; }\n",
				"b.js": "import { c } from './c.js';\nexport async function b() { return c; }\nconst own = 1;\n",
				"c.js": "export const c = 2;\n",
			},
			want: "// ---- c.js\nconst c = 2;\n\n// ---- b.js\nasync function b() { return c; }\nconst own = 1;\n\n// ---- a.js\nfunction a() { return b() + c; }\n\n",
		},
		"a cycle": {
			files: map[string]string{
				"a.js": "import { b } from './b.js';\nexport function a() { return b(); }\n",
				"b.js": "import { a } from './a.js';\nexport function b() { return 1; }\nexport function c() { return a(); }\n",
			},
			want: "// ---- b.js\nfunction b() { return 1; }\nfunction c() { return a(); }\n\n// ---- a.js\nfunction a() { return b(); }\n\n",
		},
		"one name twice": {
			files: map[string]string{
				"a.js": "import { b } from './b.js';\nlet frame = 0;\n",
				"b.js": "export function b() {}\nlet frame = 1;\n",
			},
			wantErr: "modules b.js and a.js both declare frame",
		},
		"a name not exported": {
			files: map[string]string{
				"a.js": "import { own } from './b.js';\n",
				"b.js": "function own() {}\n",
			},
			wantErr: "imports own from b.js, which does not export it",
		},
		"a renamed import": {
			files: map[string]string{
				"a.js": "import { b as c } from './b.js';\n",
				"b.js": "export function b() {}\n",
			},
			wantErr: `"b as c"`,
		},
		"another form": {
			files: map[string]string{
				"a.js": "export default function () {}\n",
			},
			wantErr: "cannot be joined",
		},
		"a missing module": {
			files:   map[string]string{"a.js": "import { b } from './b.js';\n"},
			wantErr: "read module b.js",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{}
			for n, body := range tt.files {
				fsys[n] = &fstest.MapFile{Data: []byte(body)}
			}
			got, err := joinModules(fsys, "a.js")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("joined:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
