package main

import (
	"regexp"
	"strings"
)

// commandRe matches a workflow command line: ::name props::message.
var commandRe = regexp.MustCompile(`^::([a-zA-Z-]+)(?: [^:]*)?::(.*)$`)

// unescapeData undoes the escaping of a workflow command's message.
var unescapeData = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")

// plainLog turns the action's log into what a person reads on a terminal,
// the way the runner shows it: a group is a heading with its lines indented,
// annotations are labelled lines, and commands meant for the runner alone
// (masks, outputs, state) are not shown. Masked values never appear.
func plainLog(raw string) []string {
	var out []string
	prefix := ""
	for _, line := range strings.Split(strings.TrimRight(raw, "\n"), "\n") {
		m := commandRe.FindStringSubmatch(line)
		if m == nil {
			out = append(out, prefix+clean(line))
			continue
		}
		msg := strings.Split(clean(unescapeData.Replace(m[2])), "\n")
		label := ""
		switch m[1] {
		case "group":
			out = append(out, "▸ "+msg[0])
			prefix = "  "
			continue
		case "endgroup":
			prefix = ""
			continue
		case "error", "warning", "notice", "debug":
			label = m[1] + ": "
		default: // add-mask, set-output, save-state, echo, stop-commands…
			continue
		}
		out = append(out, prefix+label+msg[0])
		for _, l := range msg[1:] {
			out = append(out, prefix+strings.Repeat(" ", len(label))+l)
		}
	}
	return out
}

// log shows the action's own log of a run.
func (t *transcript) log(j job) {
	t.print("", t.st.bold("Action log")+t.st.dim(" (workflow commands shown as the runner shows them):"))
	t.print(indent(plainLog(j.log), "  ")...)
}
