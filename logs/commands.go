package logs

import (
	"slices"
	"strings"
	"sync"
)

// This file decides what a shell command from a Bash tool call does, for the
// outcomes of SPEC §7: does it run tests, build, commit, push, open a pull request?
// It is pure string work on the command text (standard library only): a small
// shell lexer that respects quotes, escapes, heredocs and $(…), then one table of
// patterns matched against each simple command. Nothing here runs a command or
// reads a file, and no input makes it fail: an unbalanced quote or a stray
// parenthesis just ends the word or the command where it stands.

// CommandKind is one thing a shell command can do that outcomes care about.
type CommandKind uint8

// The kinds of commandPatterns.
const (
	CommandTest   CommandKind = iota + 1 // runs a test suite
	CommandBuild                         // compiles, bundles or packages
	CommandCommit                        // git commit, except --dry-run
	CommandPush                          // git push, except --dry-run / -n
	CommandPROpen                        // gh pr create
)

// String returns the kind's name as it appears in answers.
func (k CommandKind) String() string {
	switch k {
	case CommandTest:
		return "test"
	case CommandBuild:
		return "build"
	case CommandCommit:
		return "commit"
	case CommandPush:
		return "push"
	case CommandPROpen:
		return "pr_open"
	}
	return "unknown"
}

// commandPattern is one row of the table: a program (the base name of argv[0],
// lower-cased, without .exe/.cmd/.bat) and a test on its arguments.
type commandPattern struct {
	kind     CommandKind
	programs []string
	// match reports whether the arguments after argv[0] are this kind; nil
	// means any arguments. prog is the matched program name.
	match func(prog string, args []string) bool
}

// commandPatterns is the table of SPEC §7 Outcomes. A simple command is one
// program with its arguments; in a compound command (&&, ||, ;, |, newlines,
// subshells, `bash -c '…'`) each simple command is matched on its own. Before a
// simple command is matched, what only sets up its environment is peeled off:
// VAR=value assignments and the wrappers of peelWrapper (env, time, timeout,
// nice, nohup, command, exec, uv run, uvx, poetry/pipenv/pdm run, npx, bunx,
// pnpm exec/dlx, npm exec, yarn/pnpm/bun <binary>, bundle exec, python -m).
// Words inside quotes, heredoc bodies and $(…) are data, never commands, so
// `echo "go test"` and `git commit -m "make build"` run no test and no build.
// Within one simple command, kinds come in the order of this table.
var commandPatterns = []commandPattern{
	// Tests.
	{CommandTest, []string{"go"}, subcommand("test", "-C")},          // go test ./..., go test -run X ./pkg
	{CommandTest, []string{"pytest", "py.test"}, nil},                // pytest -q; python -m pytest via the wrappers
	{CommandTest, packageManagers, packageScript("test")},            // npm test, pnpm run test:unit, yarn test, bun test
	{CommandTest, []string{"cargo"}, cargoSubcommand("test", "t")},   // cargo test, cargo +nightly test
	{CommandTest, []string{"cargo"}, cargoSubcommand("nextest", "")}, // cargo nextest run
	{CommandTest, []string{"jest"}, nil},                             // jest, npx jest --ci
	{CommandTest, []string{"vitest"}, nil},                           // vitest run, npx vitest run
	{CommandTest, []string{"mvn", "mvnw"}, operandIs(mavenValued, "test")},
	{CommandTest, []string{"gradle", "gradlew"}, operandIs(gradleValued, "test")}, // gradle test, ./gradlew :app:test
	{CommandTest, []string{"make", "gmake"}, makeRunsTests},                       // make test, make test-unit
	{CommandTest, []string{"dotnet"}, subcommand("test")},                         // dotnet test
	{CommandTest, []string{"rspec"}, nil},                                         // rspec, bundle exec rspec
	{CommandTest, []string{"phpunit"}, nil},                                       // phpunit, vendor/bin/phpunit

	// Builds.
	{CommandBuild, []string{"go"}, subcommand("build", "-C")},        // go build ./...
	{CommandBuild, packageManagers, packageScript("build")},          // npm run build, pnpm build, bun build
	{CommandBuild, []string{"cargo"}, cargoSubcommand("build", "b")}, // cargo build --release
	{CommandBuild, []string{"make", "gmake"}, makeBuilds},            // make, make -C dir, make all (any target but test*)
	{CommandBuild, []string{"tsc"}, nil},                             // tsc, tsc --noEmit, npx tsc
	{CommandBuild, []string{"mvn", "mvnw"}, operandIs(mavenValued, "package", "install")},
	{CommandBuild, []string{"gradle", "gradlew"}, operandIs(gradleValued, "build")},
	{CommandBuild, []string{"docker"}, dockerBuild},         // docker build ., docker buildx build
	{CommandBuild, []string{"dotnet"}, subcommand("build")}, // dotnet build

	// Git and GitHub.
	{CommandCommit, []string{"git"}, gitSubcommand("commit", "--dry-run")}, // git commit -m …, git commit --amend
	{CommandPush, []string{"git"}, gitSubcommand("push", "--dry-run", "-n")},
	{CommandPROpen, []string{"gh"}, ghPRCreate}, // gh pr create (alias gh pr new)
}

var packageManagers = []string{"npm", "pnpm", "yarn", "bun"}

// Options of the package managers that take the next argument as their value.
var packageValued = []string{"--prefix", "-C", "--dir", "--filter", "-F", "-w", "--workspace", "--cwd"}

var mavenValued = []string{"-pl", "--projects", "-f", "--file", "-P", "--activate-profiles",
	"-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-T", "--threads",
	"-rf", "--resume-from", "-l", "--log-file", "-D", "--define"}

var gradleValued = []string{"-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file",
	"-g", "--gradle-user-home", "-x", "--exclude-task", "-I", "--init-script"}

var gitValued = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}

// maxShellDepth bounds nesting ($(…) in $(…), bash -c in bash -c, wrapper in
// wrapper), so hostile input costs bounded stack and time.
const maxShellDepth = 16

// ClassifyCommand returns what the shell command cmd does: every kind of
// commandPatterns that one of its simple commands matches, each once, in the
// order the simple commands appear (`go build ./... && go test ./...` is
// [build, test]). It returns nil for a command that is none of them.
func ClassifyCommand(cmd string) []CommandKind { return kindsOf(commandParts(cmd)) }

// kindsOf is ClassifyCommand over a command already split into parts.
func kindsOf(parts []commandPart) []CommandKind {
	var kinds []CommandKind
	for _, p := range parts {
		for _, k := range p.kinds {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	return kinds
}

// CommitMessage returns the message of the first `git commit` in cmd: its -m /
// --message texts joined by a blank line (as git joins them), or, for
// `-F -` / `--file=-`, the heredoc or here-string on its standard input (also
// `cat <<EOF … | git commit -F -`). A -m text that is `$(cat <<'EOF' … EOF)` —
// Claude Code's usual form — is the heredoc body. The result is trimmed of
// surrounding white space. ok is false when cmd has no git commit or the commit
// takes its message from elsewhere (an editor, a file, --no-edit, -C <commit>).
func CommitMessage(cmd string) (msg string, ok bool) {
	parts := commandParts(cmd)
	for i, p := range parts {
		if !slices.Contains(p.kinds, CommandCommit) {
			continue
		}
		stdin, hasStdin := p.stdin, p.hasStdin
		if !hasStdin && p.op == "|" && i > 0 {
			prev := parts[i-1]
			if prev.hasStdin && len(prev.argv) >= 1 && programName(prev.argv[0]) == "cat" &&
				(len(prev.argv) == 1 || (len(prev.argv) == 2 && prev.argv[1] == "-")) {
				stdin, hasStdin = prev.stdin, true
			}
		}
		_, args := gitSplit(p.argv[1:])
		return commitMessageArgs(args, stdin, hasStdin)
	}
	return "", false
}

// CommandTarget returns the normalized form of a test or build command by which
// two calls run "the same command" (a failing run and its re-run after a fix,
// the last outcome of each distinct command). Two commands are the same when
// their targets are equal. The rule:
//
//   - cmd is split into simple commands as the shell would split it (quotes,
//     escapes, heredocs and $(…) respected, subshells flattened);
//   - when some of them are tests or builds, only those are kept; otherwise all
//     are kept but `cd`, `pushd` and `popd` (unless nothing else is left);
//   - a kept test or build is written without the wrappers and VAR=value
//     assignments ClassifyCommand peels off, so `cd api && timeout 60 go test ./...`,
//     `GOFLAGS=-count=1 go test ./... 2>&1 | tail -20` and `go test ./...` are all
//     "go test ./..."; a kept other command is written without its leading
//     assignments;
//   - redirections are dropped; words are written after quote removal, one space
//     apart, in single quotes when they hold anything but letters, digits and
//     _@%+=:,./- (and a first word holding =); commands are joined by the
//     operator before each (" && ", " || ", " | ", " & ", "; ").
//
// The directory a `cd` went to is dropped on purpose: agents prefix the
// repository root they already are in (`cd /repo && go test ./...`), and that
// must match a bare re-run. It returns "" for a command with no words.
func CommandTarget(cmd string) string {
	var b strings.Builder
	writeTarget(&b, commandParts(cmd))
	return b.String()
}

// targetWriter is what writeTarget writes to: a strings.Builder for
// CommandTarget, a maphash.Hash for a key that needs no copy of the target.
type targetWriter interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

// writeTarget writes CommandTarget of a command already split into parts.
func writeTarget(b targetWriter, parts []commandPart) {
	keep := make([]bool, len(parts))
	some := false
	for i, p := range parts {
		if slices.Contains(p.kinds, CommandTest) || slices.Contains(p.kinds, CommandBuild) {
			keep[i], some = true, true
		}
	}
	if !some {
		for i, p := range parts {
			switch programName(p.argv[0]) {
			case "cd", "pushd", "popd":
			default:
				keep[i], some = true, true
			}
		}
	}
	wrote := false
	for i, p := range parts {
		if some && !keep[i] {
			continue
		}
		if wrote {
			switch p.op {
			case ";", "":
				b.WriteString("; ")
			default:
				b.WriteByte(' ')
				b.WriteString(p.op)
				b.WriteByte(' ')
			}
		}
		wrote = true
		writeWords(b, p.argv)
	}
}

// writeWords writes argv one space apart, each word quoted so that the lexer
// reads it back as the same one word.
func writeWords(b targetWriter, argv []string) {
	for j, w := range argv {
		if j > 0 {
			b.WriteByte(' ')
		}
		if shellSafe(w, j == 0) {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		for {
			k := strings.IndexByte(w, '\'')
			if k < 0 {
				break
			}
			b.WriteString(w[:k])
			b.WriteString(`'\''`)
			w = w[k+1:]
		}
		b.WriteString(w)
		b.WriteByte('\'')
	}
}

// shellSafe reports whether w reads back as itself without quotes: letters,
// digits and _@%+:,./- (and = after the first word).
func shellSafe(w string, first bool) bool {
	if w == "" || first && slices.Contains(shReserved, w) {
		return false // a program named like a reserved word (`X=1 do build`) is quoted to stay a program
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_@%+:,./-", c) >= 0:
		case c == '=' && !first:
		default:
			return false
		}
	}
	return true
}

// commandPart is one simple command of a command line, as classified.
type commandPart struct {
	op       string   // the operator before it: "", "&&", "||", ";", "|", "&"
	argv     []string // its words; for a matched command, what is left after the wrappers
	kinds    []CommandKind
	stdin    string // the body of its heredoc or here-string
	hasStdin bool
}

// commandParts splits cmd into simple commands and classifies each. Parts
// without words (a bare redirection, a lone assignment) are left out.
func commandParts(cmd string) []commandPart {
	return parseParts(cmd, 0)
}

// parseParts is the parts of a command line read at depth (a script a
// shell runs is read one deeper), by a parser from the pool: a read
// classifies every shell call, and a parser's commands were allocated
// anew for each (15 MB of a fresh usage_report's 315 at 4 GB).
func parseParts(src string, depth int) []commandPart {
	p, _ := shParsers.Get().(*shParser)
	if p == nil {
		p = &shParser{}
	}
	p.src, p.pos, p.depth = src, 0, depth
	parts := partsOf(p.script(false), depth)
	p.reset()
	shParsers.Put(p)
	return parts
}

var shParsers sync.Pool // *shParser

func partsOf(cmds []*shCommand, depth int) []commandPart {
	parts := make([]commandPart, 0, len(cmds))
	for _, c := range cmds {
		argv := c.argv()
		if len(argv) == 0 {
			continue
		}
		if script, ok := shellScript(argv); ok && depth < maxShellDepth {
			inner := parseParts(script, depth+1)
			if len(inner) > 0 {
				inner[0].op = c.op
				parts = append(parts, inner...)
				continue
			}
		}
		part := commandPart{op: c.op, argv: argv, stdin: c.stdin, hasStdin: c.hasStdin}
		if kinds, eff := classifyArgv(argv); len(kinds) > 0 {
			part.kinds, part.argv = kinds, eff
		}
		parts = append(parts, part)
	}
	return parts
}

// classifyArgv matches argv against the table, peeling one wrapper at a time
// until something matches or nothing is left to peel. eff is the argv that
// matched.
func classifyArgv(argv []string) (kinds []CommandKind, eff []string) {
	for range maxShellDepth {
		if len(argv) == 0 {
			return nil, nil
		}
		prog := programName(argv[0])
		for _, pat := range commandPatterns {
			if slices.Contains(pat.programs, prog) && (pat.match == nil || pat.match(prog, argv[1:])) {
				kinds = append(kinds, pat.kind)
			}
		}
		if len(kinds) > 0 {
			return kinds, argv
		}
		argv = peelWrapper(prog, argv[1:])
	}
	return nil, nil
}

// programName is the base name of argv0, lower-cased, without a Windows
// executable suffix: `/usr/local/go/bin/go` → go, `.\gradlew.bat` → gradlew.
func programName(argv0 string) string {
	if i := strings.LastIndexAny(argv0, `/\`); i >= 0 {
		argv0 = argv0[i+1:]
	}
	argv0 = strings.ToLower(argv0)
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		argv0 = strings.TrimSuffix(argv0, ext)
	}
	return argv0
}

// skipOptions returns the index of the first argument of args that is not an
// option. An option in valued takes the next argument as its value unless it is
// written --opt=value; "--" ends the options.
func skipOptions(args []string, valued ...string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i + 1
		}
		if len(a) < 2 || a[0] != '-' {
			return i
		}
		if slices.Contains(valued, a) {
			i++
		}
	}
	return len(args)
}

// operands returns the arguments of args that are not options or their values.
func operands(args []string, valued ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case len(a) >= 2 && a[0] == '-':
			if slices.Contains(valued, a) {
				i++
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// subcommand matches `prog <name> …` after prog's options.
func subcommand(name string, valued ...string) func(string, []string) bool {
	return func(_ string, args []string) bool {
		i := skipOptions(args, valued...)
		return i < len(args) && args[i] == name
	}
}

// cargoSubcommand matches `cargo [+toolchain] <name>` or its alias.
func cargoSubcommand(name, alias string) func(string, []string) bool {
	return func(_ string, args []string) bool {
		if len(args) > 0 && strings.HasPrefix(args[0], "+") {
			args = args[1:]
		}
		i := skipOptions(args, "-C", "--config", "-Z", "--color")
		return i < len(args) && (args[i] == name || (alias != "" && args[i] == alias))
	}
}

// operandIs matches a goal or task among the operands: `mvn clean test`,
// `./gradlew :app:test` (a task path ending in :name counts).
func operandIs(valued []string, names ...string) func(string, []string) bool {
	return func(_ string, args []string) bool {
		for _, o := range operands(args, valued...) {
			for _, n := range names {
				if o == n || strings.HasSuffix(o, ":"+n) {
					return true
				}
			}
		}
		return false
	}
}

// packageSubcommand returns a package manager's subcommand and what follows it,
// after its global options and `yarn workspace <name>`.
func packageSubcommand(prog string, args []string) (string, []string) {
	for range maxShellDepth {
		i := skipOptions(args, packageValued...)
		if i >= len(args) {
			return "", nil
		}
		if prog == "yarn" && args[i] == "workspace" && i+2 < len(args) {
			args = args[i+2:]
			continue
		}
		return args[i], args[i+1:]
	}
	return "", nil
}

// packageScript matches `npm|pnpm|yarn|bun test`, `… run <script>` (also
// run-script) where the script's name starts with name (`npm run test:unit`,
// `npm run build:prod`), and, for yarn, pnpm and bun, which run scripts without
// `run`, `<prog> <script>` likewise (`yarn test:e2e`, `pnpm build`; `bun build`
// is bun's bundler, a build too). npm has no build subcommand.
func packageScript(name string) func(string, []string) bool {
	return func(prog string, args []string) bool {
		sub, rest := packageSubcommand(prog, args)
		switch {
		case sub == "run" || sub == "run-script":
			j := skipOptions(rest)
			return j < len(rest) && strings.HasPrefix(rest[j], name)
		case sub == "test" && name == "test":
			return true
		case prog != "npm":
			return strings.HasPrefix(sub, name)
		}
		return false
	}
}

// makeTargets returns the targets of a make command line: operands that are not
// VAR=value and not the numbers after -j / -l.
func makeTargets(args []string) []string {
	valued := []string{"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir",
		"-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file", "--assume-new"}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			continue
		case a == "-j" || a == "-l" || a == "--jobs" || a == "--load-average":
			if i+1 < len(args) && isDigits(args[i+1]) {
				i++
			}
		case len(a) >= 2 && a[0] == '-':
			if slices.Contains(valued, a) {
				i++
			}
		case strings.Contains(a, "="):
		default:
			out = append(out, a)
		}
	}
	return out
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// makeRunsTests matches a make with a target starting with "test" (test,
// tests, test-unit).
func makeRunsTests(_ string, args []string) bool {
	return slices.ContainsFunc(makeTargets(args), func(t string) bool { return strings.HasPrefix(t, "test") })
}

// makeBuilds matches a bare make (the default target) or one with a target that
// does not start with "test": `make`, `make -C dir`, `make all`, `make build test`.
func makeBuilds(_ string, args []string) bool {
	targets := makeTargets(args)
	return len(targets) == 0 || slices.ContainsFunc(targets, func(t string) bool { return !strings.HasPrefix(t, "test") })
}

// dockerBuild matches `docker build` and `docker buildx|builder|image build`.
func dockerBuild(_ string, args []string) bool {
	i := skipOptions(args, "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	if i >= len(args) {
		return false
	}
	if args[i] == "build" {
		return true
	}
	switch args[i] {
	case "buildx", "builder", "image":
		rest := args[i+1:]
		j := skipOptions(rest)
		return j < len(rest) && rest[j] == "build"
	}
	return false
}

// gitSplit returns git's subcommand and its arguments, after git's own options
// (`git -C dir commit`).
func gitSplit(args []string) (string, []string) {
	i := skipOptions(args, gitValued...)
	if i >= len(args) {
		return "", nil
	}
	return args[i], args[i+1:]
}

// gitSubcommand matches `git <name>` unless one of the excluded options is
// given (a dry run changes nothing).
func gitSubcommand(name string, excluded ...string) func(string, []string) bool {
	return func(_ string, args []string) bool {
		sub, rest := gitSplit(args)
		if sub != name {
			return false
		}
		for _, a := range rest {
			if a == "--" {
				break
			}
			if slices.Contains(excluded, a) {
				return false
			}
		}
		return true
	}
}

// ghPRCreate matches `gh pr create` and its alias `gh pr new`.
func ghPRCreate(_ string, args []string) bool {
	i := skipOptions(args, "-R", "--repo")
	if i >= len(args) || args[i] != "pr" {
		return false
	}
	rest := args[i+1:]
	j := skipOptions(rest, "-R", "--repo")
	return j < len(rest) && (rest[j] == "create" || rest[j] == "new")
}

// peelWrapper returns the command a wrapper runs (args are what follows the
// wrapper's program prog), or nil when prog is no wrapper.
func peelWrapper(prog string, args []string) []string {
	from := func(i int) []string {
		if i >= len(args) {
			return nil
		}
		return args[i:]
	}
	switch prog {
	case "env":
		i := 0
		for i < len(args) {
			a := args[i]
			switch {
			case a == "--":
				return from(i + 1)
			case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" || a == "-S" || a == "--split-string":
				i += 2
			case strings.HasPrefix(a, "-") || isAssignment(a):
				i++
			default:
				return from(i)
			}
		}
		return nil
	case "time":
		return from(skipOptions(args, "-f", "--format", "-o", "--output"))
	case "timeout", "gtimeout":
		i := skipOptions(args, "-s", "--signal", "-k", "--kill-after")
		return from(i + 1) // the duration
	case "nice":
		return from(skipOptions(args, "-n", "--adjustment"))
	case "nohup":
		return from(skipOptions(args))
	case "command":
		if len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
			return nil
		}
		return from(skipOptions(args))
	case "exec":
		return from(skipOptions(args, "-a"))
	case "uv":
		if len(args) >= 1 && args[0] == "run" {
			return uvRun(args[1:])
		}
		if len(args) >= 2 && args[0] == "tool" && args[1] == "run" {
			return uvRun(args[2:])
		}
	case "uvx":
		return uvRun(args)
	case "poetry", "pipenv", "pdm", "bundle":
		verb := "run"
		if prog == "bundle" {
			verb = "exec"
		}
		i := skipOptions(args, "-C", "--directory", "-P", "--project", "--gemfile")
		if i < len(args) && args[i] == verb {
			return from(i + 1 + skipOptions(args[i+1:]))
		}
	case "npx", "bunx", "pnpx":
		return from(skipOptions(args, "-p", "--package", "--node-options"))
	case "npm", "pnpm", "yarn", "bun":
		sub, rest := packageSubcommand(prog, args)
		switch sub {
		case "":
			return nil
		case "exec", "x", "dlx", "run", "run-script":
			i := skipOptions(rest, "-p", "--package", "-c", "--call")
			if i >= len(rest) {
				return nil
			}
			return rest[i:]
		}
		if prog != "npm" { // yarn, pnpm and bun run a binary named as a subcommand: `yarn jest`
			return append([]string{sub}, rest...)
		}
	default:
		if isPython(prog) {
			return pythonModule(args)
		}
	}
	return nil
}

// uvRun returns the command of `uv run [options] <command>`; `-m <module>`
// runs a module.
func uvRun(args []string) []string {
	valued := []string{"--with", "--with-editable", "--with-requirements", "--python", "-p",
		"--directory", "--project", "--package", "--extra", "--group", "--only-group",
		"--env-file", "--index", "--default-index", "--index-url", "--extra-index-url", "--from"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case a == "-m" || a == "--module":
			if i+1 < len(args) {
				return args[i+1:]
			}
			return nil
		case len(a) >= 2 && a[0] == '-':
			if slices.Contains(valued, a) {
				i++
			}
		default:
			return args[i:]
		}
	}
	return nil
}

// isPython matches python, python3, python3.12 and py.
func isPython(prog string) bool {
	if prog == "py" {
		return true
	}
	v, ok := strings.CutPrefix(prog, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// pythonModule returns `<module> <args>` for `python [options] -m <module> <args>`.
func pythonModule(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m":
			if i+1 < len(args) {
				return args[i+1:]
			}
			return nil
		case strings.HasPrefix(a, "-m"):
			return append([]string{a[2:]}, args[i+1:]...)
		case a == "-X" || a == "-W" || a == "--check-hash-based-pycs":
			i++
		case len(a) >= 2 && a[0] == '-':
		default:
			return nil // a script, not a module
		}
	}
	return nil
}

// shellScript returns the script of `sh|bash|zsh|dash|ksh -c '<script>'`.
func shellScript(argv []string) (string, bool) {
	switch programName(argv[0]) {
	case "sh", "bash", "zsh", "dash", "ksh":
	default:
		return "", false
	}
	hasC := false
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		if a == "-o" || a == "+o" || a == "-O" || a == "+O" {
			i++
			continue
		}
		if a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], 'c') >= 0 {
			hasC = true
		}
	}
	if !hasC || i >= len(argv) {
		return "", false
	}
	return argv[i], true
}

// isAssignment reports whether w is NAME=value with a shell variable name.
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || (j > 0 && '0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}

// commitMessageArgs reads a commit message from git commit's arguments.
func commitMessageArgs(args []string, stdin string, hasStdin bool) (string, bool) {
	var msgs []string
	fromStdin := false
	valuedLong := []string{"--author", "--date", "--template", "--cleanup", "--trailer",
		"--reuse-message", "--reedit-message", "--fixup", "--squash", "--pathspec-from-file"}
	next := func(i int) (string, bool) {
		if i+1 < len(args) {
			return args[i+1], true
		}
		return "", false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i = len(args)
		case a == "--message" || a == "--file":
			if v, ok := next(i); ok {
				if a == "--message" {
					msgs = append(msgs, v)
				} else {
					fromStdin = v == "-" || v == "/dev/stdin"
				}
				i++
			}
		case strings.HasPrefix(a, "--message="):
			msgs = append(msgs, a[len("--message="):])
		case strings.HasPrefix(a, "--file="):
			v := a[len("--file="):]
			fromStdin = v == "-" || v == "/dev/stdin"
		case slices.Contains(valuedLong, a):
			i++
		case strings.HasPrefix(a, "--") || len(a) < 2 || a[0] != '-':
		default: // a cluster of short options: -am "msg", -mfoo, -F -
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'm', 'F', 'c', 'C', 't':
					v := a[j+1:]
					if v == "" {
						v, _ = next(i)
						i++
					}
					switch a[j] {
					case 'm':
						msgs = append(msgs, v)
					case 'F':
						fromStdin = v == "-" || v == "/dev/stdin"
					}
					j = len(a)
				case 'S', 'u': // optional values, attached
					j = len(a)
				}
			}
		}
	}
	if len(msgs) > 0 {
		return strings.TrimSpace(strings.Join(msgs, "\n\n")), true
	}
	if fromStdin && hasStdin {
		return strings.TrimSpace(stdin), true
	}
	return "", false
}

// The lexer. It knows enough of POSIX shell and bash to find simple commands
// and their words: blanks, operators, comments, line continuations, single and
// double quotes, backslashes, $'…', $(…), $((…)), ${…}, backticks, <(…),
// redirections and heredocs (<<, <<-, quoted or not, several on one line, read
// after the end of their line, also inside $(…)). Words come out after quote
// removal; expansions stay as their source text, except that
// $(cat <<'EOF' … EOF) becomes the heredoc's body (what bash would substitute).

// shWord is one word after quote removal.
type shWord struct {
	val string
	// plain is how many leading bytes of val came from unquoted literal text;
	// an assignment or a reserved word must be plain up to its end or its =.
	plain int
}

// shCommand is one simple command.
type shCommand struct {
	op       string
	words    []shWord
	stdin    string
	hasStdin bool
}

// argv returns the command's words after its leading assignments.
func (c *shCommand) argv() []string {
	if len(c.words) == 0 {
		return nil
	}
	out := make([]string, 0, len(c.words))
	for _, w := range c.words {
		if len(out) == 0 {
			if i := strings.IndexByte(w.val, '='); i > 0 && i < w.plain && isAssignment(w.val) {
				continue
			}
		}
		out = append(out, w.val)
	}
	return out
}

type shHeredoc struct {
	delim string
	strip bool // <<- strips leading tabs
	cmd   *shCommand
}

type shParser struct {
	src     string
	pos     int
	depth   int
	pending []shHeredoc   // heredocs whose bodies start after the current line
	blocks  [][]shCommand // the commands newCommand hands out, a few to a block, kept for the next parse
	used    int           // how many of them this parse has taken
}

// shBlock is how many commands a block holds, each with room for
// shBlockWords words; a pooled parser keeps at most shKeptBlocks blocks, and
// no command's list of more than shKeptWords words: a command line of
// thousands of commands or words leaves its lists to the collector.
const shBlock, shBlockWords, shKeptBlocks, shKeptWords = 4, 6, 64, 64

// reset readies p for another parse; what the last one read is garbage
// once its parts are made (they hold strings, not commands), and its
// commands' words are cleared so that the pool holds no text of it.
func (p *shParser) reset() {
	for k := range p.used {
		c := &p.blocks[k/shBlock][k%shBlock]
		*c = shCommand{words: recycledList(c.words, shKeptWords)}
	}
	if len(p.blocks) > shKeptBlocks {
		p.blocks = p.blocks[:shKeptBlocks:shKeptBlocks]
	}
	clear(p.pending)
	p.src, p.pending, p.used = "", p.pending[:0], 0
}

// Reserved words are not programs: `if go test; then make; fi` runs go test
// and make.
var shReserved = []string{"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "in", "esac"}

// script reads commands until the end of the input or, when sub is true, the
// ')' that closes a $(…) or a subshell.
func (p *shParser) script(sub bool) []*shCommand {
	var out []*shCommand
	cur := p.newCommand()
	op := ""
	finish := func(next string) {
		if len(cur.words) > 0 {
			cur.op = op
			out = append(out, cur)
			op = next
		} else if next != "" {
			op = next
		}
		if len(cur.words) > 0 || cur.hasStdin || p.heredocFor(cur) {
			cur = p.newCommand()
		}
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		var c1 byte
		if p.pos+1 < len(p.src) {
			c1 = p.src[p.pos+1]
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\\' && c1 == '\n':
			p.pos += 2
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '\n':
			p.pos++
			finish(";")
			p.readHeredocs(sub)
		case c == ';':
			p.pos++
			if c1 == ';' || c1 == '&' {
				p.pos++
			}
			finish(";")
		case c == '&' && c1 == '&':
			p.pos += 2
			finish("&&")
		case c == '&' && c1 == '>':
			p.redirect(cur)
		case c == '&':
			p.pos++
			finish("&")
		case c == '|' && c1 == '|':
			p.pos += 2
			finish("||")
		case c == '|':
			p.pos++
			if c1 == '&' {
				p.pos++
			}
			finish("|")
		case c == '(':
			finish("")
			p.pos++
			if p.depth >= maxShellDepth {
				p.skipParens()
				continue
			}
			p.depth++
			inner := p.script(true)
			p.depth--
			for i, ic := range inner {
				if i == 0 {
					ic.op = op
				}
				out = append(out, ic)
			}
			if len(inner) > 0 {
				op = ""
			}
		case c == ')':
			p.pos++
			if sub {
				finish("")
				return out
			}
			finish(";")
		case (c == '<' || c == '>') && c1 == '(':
			cur.words = append(cur.words, p.word())
		case c == '<' || c == '>':
			p.redirect(cur)
		default:
			w := p.word()
			if p.pos < len(p.src) && (p.src[p.pos] == '<' || p.src[p.pos] == '>') && w.plain == len(w.val) && isDigits(w.val) {
				p.redirect(cur) // 2>&1, 3<file
				continue
			}
			if len(cur.words) == 0 && w.plain == len(w.val) && slices.Contains(shReserved, w.val) {
				continue
			}
			cur.words = append(cur.words, w)
		}
	}
	finish("")
	return out
}

// newCommand returns an empty command, taken from a block allocated a few at
// a time with room for a few words each; the blocks stay with the parser,
// for its next parse.
func (p *shParser) newCommand() *shCommand {
	b, i := p.used/shBlock, p.used%shBlock
	if b == len(p.blocks) {
		cmds := make([]shCommand, shBlock)
		words := make([]shWord, 0, shBlock*shBlockWords)
		for k := range cmds {
			cmds[k].words = words[k*shBlockWords : k*shBlockWords : (k+1)*shBlockWords]
		}
		p.blocks = append(p.blocks, cmds)
	}
	p.used++
	return &p.blocks[b][i] // emptied by reset, or new
}

// heredocFor reports whether a pending heredoc belongs to c.
func (p *shParser) heredocFor(c *shCommand) bool {
	for _, h := range p.pending {
		if h.cmd == c {
			return true
		}
	}
	return false
}

// skipParens skips to the ')' matching an already consumed '(' without
// parsing, for input nested deeper than maxShellDepth.
func (p *shParser) skipParens() {
	for depth := 1; p.pos < len(p.src); p.pos++ {
		switch p.src[p.pos] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				p.pos++
				return
			}
		}
	}
}

// redirect reads a redirection operator and its target word.
func (p *shParser) redirect(cur *shCommand) {
	s := p.src[p.pos:]
	op := ""
	for _, o := range []string{"<<<", "<<-", "&>>", "<<", "&>", ">>", ">&", ">|", "<&", "<>", ">", "<"} {
		if strings.HasPrefix(s, o) {
			op = o
			break
		}
	}
	p.pos += len(op)
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.pos >= len(p.src) || strings.IndexByte("\n;&|()<>", p.src[p.pos]) >= 0 {
		return
	}
	w := p.word()
	switch op {
	case "<<", "<<-":
		p.pending = append(p.pending, shHeredoc{delim: w.val, strip: op == "<<-", cmd: cur})
	case "<<<":
		cur.stdin, cur.hasStdin = w.val+"\n", true
	}
}

// readHeredocs reads the bodies of the pending heredocs, which start at p.pos
// (just after a newline). Inside $(…) a line that starts with the delimiter
// and then ')' also ends the body, as bash allows.
func (p *shParser) readHeredocs(sub bool) {
	for _, h := range p.pending {
		var body strings.Builder
		for p.pos < len(p.src) {
			end := strings.IndexByte(p.src[p.pos:], '\n')
			next := len(p.src)
			if end >= 0 {
				end += p.pos
				next = end + 1
			} else {
				end = len(p.src)
			}
			line := p.src[p.pos:end]
			cmp := strings.TrimRight(line, "\r")
			if h.strip {
				cmp = strings.TrimLeft(cmp, "\t")
			}
			if cmp == h.delim {
				p.pos = next
				break
			}
			if sub && strings.HasPrefix(cmp, h.delim+")") {
				p.pos += strings.Index(line, h.delim+")") + len(h.delim)
				break
			}
			if h.strip {
				line = strings.TrimLeft(line, "\t")
			}
			body.WriteString(line)
			if next > end {
				body.WriteByte('\n')
			}
			p.pos = next
		}
		h.cmd.stdin, h.cmd.hasStdin = body.String(), true
	}
	p.pending = p.pending[:0]
}

// word reads one word at p.pos.
func (p *shParser) word() shWord {
	// Most words are plain text up to a blank or an operator: they are the
	// source itself, without a copy.
	i := p.pos
	for i < len(p.src) && !wordSpecial(p.src[i]) {
		i++
	}
	if i > p.pos && (i == len(p.src) || wordEnd(p.src[i])) {
		w := p.src[p.pos:i]
		p.pos = i
		return shWord{val: w, plain: len(w)}
	}
	var b strings.Builder
	b.WriteString(p.src[p.pos:i])
	p.pos = i
	plain := -1
	quoted := func() {
		if plain < 0 {
			plain = b.Len()
		}
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')':
			goto done
		case '<', '>':
			if p.pos+1 < len(p.src) && p.src[p.pos+1] == '(' && b.Len() == 0 && plain < 0 {
				quoted()
				start := p.pos
				p.pos++
				p.subst(&b, start)
				continue
			}
			goto done
		case '\\':
			if p.pos+1 >= len(p.src) {
				p.pos++
				continue
			}
			if p.src[p.pos+1] == '\n' {
				p.pos += 2
				continue
			}
			quoted()
			b.WriteByte(p.src[p.pos+1])
			p.pos += 2
		case '\'':
			quoted()
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				b.WriteString(p.src[p.pos+1:])
				p.pos = len(p.src)
			} else {
				b.WriteString(p.src[p.pos+1 : p.pos+1+end])
				p.pos += end + 2
			}
		case '"':
			quoted()
			p.pos++
			p.dquote(&b)
		case '$':
			quoted()
			p.dollar(&b)
		case '`':
			quoted()
			p.backtick(&b)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
done:
	if plain < 0 {
		plain = b.Len()
	}
	return shWord{val: b.String(), plain: plain}
}

// wordEnd reports whether c ends an unquoted word.
func wordEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// wordSpecial reports whether c ends a word or starts quoting or expansion.
func wordSpecial(c byte) bool {
	switch c {
	case '\\', '\'', '"', '$', '`':
		return true
	}
	return wordEnd(c)
}

// dquote reads the inside of a double-quoted string, after its opening quote.
func (p *shParser) dquote(b *strings.Builder) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case '"':
			p.pos++
			return
		case '\\':
			if p.pos+1 < len(p.src) {
				switch n := p.src[p.pos+1]; n {
				case '\n':
					p.pos += 2
					continue
				case '$', '`', '"', '\\':
					b.WriteByte(n)
					p.pos += 2
					continue
				}
			}
			b.WriteByte(c)
			p.pos++
		case '$':
			p.dollar(b)
		case '`':
			p.backtick(b)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// dollar reads an expansion starting at '$'.
func (p *shParser) dollar(b *strings.Builder) {
	start := p.pos
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "$(("):
		p.pos += 2 // past "$(", so skipParens counts the inner '(' too
		p.skipParens()
		b.WriteString(p.src[start:p.pos])
	case strings.HasPrefix(rest, "$("):
		p.pos++
		p.subst(b, start)
	case strings.HasPrefix(rest, "${"):
		depth := 0
		for p.pos < len(p.src) {
			c := p.src[p.pos]
			p.pos++
			if c == '{' {
				depth++
			} else if c == '}' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		b.WriteString(p.src[start:p.pos])
	case strings.HasPrefix(rest, "$'"):
		p.pos += 2
		p.ansiC(b)
	case strings.HasPrefix(rest, `$"`):
		p.pos += 2
		p.dquote(b)
	default:
		b.WriteByte('$')
		p.pos++
	}
}

// subst reads a command substitution whose '(' is at p.pos; start is where its
// source begins ($ or < or >). It writes the source text, or the heredoc body
// when the substitution is exactly `cat <<EOF … EOF`.
func (p *shParser) subst(b *strings.Builder, start int) {
	p.pos++ // the '('
	if p.depth >= maxShellDepth {
		p.skipParens()
		b.WriteString(p.src[start:p.pos])
		return
	}
	saved := p.pending
	p.pending = nil
	p.depth++
	cmds := p.script(true)
	p.depth--
	p.pending = saved
	if p.src[start] == '$' && len(cmds) == 1 && cmds[0].hasStdin {
		if argv := cmds[0].argv(); len(argv) == 1 && argv[0] == "cat" {
			b.WriteString(strings.TrimRight(cmds[0].stdin, "\n"))
			return
		}
	}
	b.WriteString(p.src[start:p.pos])
}

// backtick reads a `…` substitution as source text.
func (p *shParser) backtick(b *strings.Builder) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		if c == '\\' && p.pos < len(p.src) {
			p.pos++
			continue
		}
		if c == '`' {
			break
		}
	}
	b.WriteString(p.src[start:p.pos])
}

// ansiC reads the inside of $'…', decoding the common escapes.
func (p *shParser) ansiC(b *strings.Builder) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == '\'':
			return
		case c == '\\' && p.pos < len(p.src):
			n := p.src[p.pos]
			p.pos++
			switch n {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		default:
			b.WriteByte(c)
		}
	}
}
