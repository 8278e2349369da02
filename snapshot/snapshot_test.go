package snapshot

import (
	"testing"
)

func TestParseRepo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]struct {
		repo Repo
		ok   bool
	}{
		"o/r":          {Repo{"o", "r"}, true},
		"octo-org/a.b": {Repo{"octo-org", "a.b"}, true},
		"o":            {},
		"/r":           {},
		"o/":           {},
		"o/r/x":        {},
		"":             {},
	} {
		if got, ok := ParseRepo(in); got != want.repo || ok != want.ok {
			t.Errorf("ParseRepo(%q) = %v, %v; want %v, %v", in, got, ok, want.repo, want.ok)
		}
	}
	if s := (Repo{"o", "r"}).String(); s != "o/r" {
		t.Errorf("String = %q", s)
	}
}

// A login is the same account whichever API spelled it; the kind of
// account is part of who it is.
func TestActor(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		login, typename string
		want            Actor
		rest            string
	}{
		"REST's bot":     {login: "github-actions[bot]", want: Actor{"github-actions", true}, rest: "github-actions[bot]"},
		"GraphQL's bot":  {login: "github-actions", typename: "Bot", want: Actor{"github-actions", true}, rest: "github-actions[bot]"},
		"a user":         {login: " octocat ", typename: "User", want: Actor{"octocat", false}, rest: "octocat"},
		"a mannequin":    {login: "ghost", typename: "Mannequin", want: Actor{"ghost", false}, rest: "ghost"},
		"no type, a bot": {login: "rmc-bot[bot]", want: Actor{"rmc-bot", true}, rest: "rmc-bot[bot]"},
	} {
		got := NewActor(tc.login, tc.typename)
		if got != tc.want || got.String() != tc.rest || got.Handle() != "@"+tc.want.Login {
			t.Errorf("%s: NewActor = %+v (%s, %s), want %+v (%s)", name, got, got, got.Handle(), tc.want, tc.rest)
		}
	}
	for name, tc := range map[string]struct {
		a, b Actor
		same bool
	}{
		"same login":            {Actor{"Alice", false}, Actor{"alice", false}, true},
		"the App and a user":    {Actor{"rmc-bot", true}, Actor{"rmc-bot", false}, false},
		"two bots":              {Actor{"rmc-bot", true}, Actor{"RMC-bot", true}, true},
		"another login":         {Actor{"alice", false}, Actor{"bob", false}, false},
		"nobody is nobody else": {Actor{}, Actor{}, false},
	} {
		if got := tc.a.Is(tc.b); got != tc.same {
			t.Errorf("%s: %+v.Is(%+v) = %v", name, tc.a, tc.b, got)
		}
	}
}

func TestRoleWrites(t *testing.T) {
	t.Parallel()
	for role, writes := range map[Role]bool{
		RoleAdmin: true, RoleMaintain: true, RoleWrite: true,
		RoleTriage: false, RoleRead: false, RoleNone: false, "": false,
	} {
		if got := role.Writes(); got != writes {
			t.Errorf("%q.Writes() = %v", role, got)
		}
	}
}

func TestCommentTrusted(t *testing.T) {
	t.Parallel()
	for assoc, trusted := range map[string]bool{
		"OWNER": true, "MEMBER": true, "COLLABORATOR": true,
		"CONTRIBUTOR": false, "FIRST_TIME_CONTRIBUTOR": false, "FIRST_TIMER": false, "NONE": false, "MANNEQUIN": false, "": false,
		"owner": false, // GitHub spells them in capitals; nothing else is read as one
	} {
		if got := (Comment{Association: assoc}).Trusted(); got != trusted {
			t.Errorf("%q: Trusted() = %v", assoc, got)
		}
	}
}

func TestThreadRoot(t *testing.T) {
	t.Parallel()
	if r := (Thread{}).Root(); r != nil {
		t.Errorf("an empty thread has root %+v", r)
	}
	th := Thread{Comments: []ReviewComment{{Comment: Comment{ID: 1}}, {Comment: Comment{ID: 2}, ReplyToID: 1}}}
	if r := th.Root(); r == nil || r.ID != 1 {
		t.Errorf("root %+v, want comment 1", r)
	}
}

func TestConfigFileName(t *testing.T) {
	t.Parallel()
	if n := (ConfigFile{}).Name(); n != ".github/rmc.yml" {
		t.Errorf("no file: %q, want where one would be added", n)
	}
	if n := (ConfigFile{Path: ".github/rmc.yaml"}).Name(); n != ".github/rmc.yaml" {
		t.Errorf("read file: %q", n)
	}
}

// Who the bot is: a configured login, its kind taken from the token's
// account when it is that account; else the token's account; else the
// workflow token's.
func TestBotIdentity(t *testing.T) {
	t.Parallel()
	app := Actor{"my-app", true}
	for name, tc := range map[string]struct {
		configured string
		viewer     Actor
		want       Actor
	}{
		"nothing known":               {want: DefaultBot},
		"the token's account":         {viewer: app, want: app},
		"configured with the suffix":  {configured: "my-app[bot]", want: app},
		"configured, the token's bot": {configured: "My-App", viewer: app, want: Actor{"My-App", true}},
		"configured, a PAT's owner":   {configured: "alice", viewer: Actor{"alice", false}, want: Actor{"alice", false}},
		"configured, another's token": {configured: "my-app", viewer: Actor{"other-app", true}, want: Actor{"my-app", false}},
		"configured, no viewer":       {configured: "rmc", want: Actor{"rmc", false}},
	} {
		if got := BotIdentity(tc.configured, tc.viewer); got != tc.want {
			t.Errorf("%s: BotIdentity(%q, %+v) = %+v, want %+v", name, tc.configured, tc.viewer, got, tc.want)
		}
	}
}
