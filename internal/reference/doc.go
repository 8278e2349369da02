// Package reference holds the test that generates the action's reference
// from the code's own tables: action.yml's inputs and outputs, and
// docs/inputs.md and docs/outputs.md, from config.Inputs and
// outcome.Outputs. `go test ./internal/reference` fails when a generated
// file differs from what the tables say; `-update` rewrites them.
package reference
