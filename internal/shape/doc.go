// Package shape keeps the project's production code readable: its test walks
// every production Go file of the module and fails, naming file, line and
// function, when a function is longer than a screen (60 lines, signature to
// closing brace) or its cyclomatic complexity is over 20. What it leaves out
// (tests, the fakes, generated files) is listed in the test.
package shape
