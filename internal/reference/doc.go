// Package reference holds the test that generates the action's reference
// from the code's own tables: action.yml's inputs and outputs,
// rmc.schema.json's properties, docs/inputs.md, docs/outputs.md and
// docs/command-reference.md, from config.Inputs, config.Keys,
// outcome.Outputs and the command registry (state.Commands). `go test ./internal/reference` fails when a generated
// file differs from what the tables say; `-update` rewrites them.
package reference
