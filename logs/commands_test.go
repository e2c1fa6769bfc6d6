package logs

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const (
	kTest   = CommandTest
	kBuild  = CommandBuild
	kCommit = CommandCommit
	kPush   = CommandPush
	kPR     = CommandPROpen
)

// One positive and one negative case (at least) for every row of
// commandPatterns, every wrapper, and the lexer's traps.
var classifyCases = []struct {
	cmd  string
	want []CommandKind
}{
	// go test / go build
	{"go test ./...", []CommandKind{kTest}},
	{"go test -run X ./pkg", []CommandKind{kTest}},
	{"go test -race -count=1 -run 'TestA|TestB' ./internal/...", []CommandKind{kTest}},
	{"/usr/local/go/bin/go test ./...", []CommandKind{kTest}},
	{"go -C sub test ./...", []CommandKind{kTest}},
	{"go vet ./...", nil},
	{"go doc testing", nil},
	{"go build ./...", []CommandKind{kBuild}},
	{"go build -o bin/server ./cmd/server", []CommandKind{kBuild}},
	{"go run ./cmd/build", nil},
	{"go mod tidy", nil},
	{"go build ./... && go test ./...", []CommandKind{kBuild, kTest}},
	{"go test ./... && go build ./...", []CommandKind{kTest, kBuild}},
	{"go test ./a && go test ./b", []CommandKind{kTest}},

	// pytest
	{"pytest", []CommandKind{kTest}},
	{"pytest -q tests/test_api.py::test_health", []CommandKind{kTest}},
	{"py.test -x", []CommandKind{kTest}},
	{"python -m pytest -q", []CommandKind{kTest}},
	{"python3 -m pytest tests", []CommandKind{kTest}},
	{"python3.12 -u -m pytest", []CommandKind{kTest}},
	{"python -mpytest", []CommandKind{kTest}},
	{"python -m pip install pytest", nil},
	{"python test_script.py", nil},
	{"pip install pytest", nil},

	// npm | pnpm | yarn | bun test, run test*
	{"npm test", []CommandKind{kTest}},
	{"npm test -- --watch=false", []CommandKind{kTest}},
	{"pnpm test", []CommandKind{kTest}},
	{"yarn test", []CommandKind{kTest}},
	{"bun test", []CommandKind{kTest}},
	{"npm run test", []CommandKind{kTest}},
	{"npm run test:unit", []CommandKind{kTest}},
	{"npm run-script test", []CommandKind{kTest}},
	{"pnpm run test:e2e", []CommandKind{kTest}},
	{"yarn run test", []CommandKind{kTest}},
	{"yarn test:unit", []CommandKind{kTest}},
	{"npm --prefix web test", []CommandKind{kTest}},
	{"pnpm --filter web test", []CommandKind{kTest}},
	{"yarn workspace web test", []CommandKind{kTest}},
	{"npm run lint", nil},
	{"npm install", nil},
	{"npm install --save-dev jest", nil},
	{"yarn add -D vitest", nil},
	{"npm view jest version", nil},

	// npm | pnpm | yarn run build
	{"npm run build", []CommandKind{kBuild}},
	{"npm run build:prod", []CommandKind{kBuild}},
	{"pnpm run build", []CommandKind{kBuild}},
	{"yarn run build", []CommandKind{kBuild}},
	{"pnpm build", []CommandKind{kBuild}},
	{"yarn build", []CommandKind{kBuild}},
	{"bun run build", []CommandKind{kBuild}},
	{"bun build ./index.ts --outdir out", []CommandKind{kBuild}},
	{"npm build", nil}, // not a script runner
	{"npm run dev", nil},
	{"npm run lint && npm run build && npm test", []CommandKind{kBuild, kTest}},

	// cargo
	{"cargo test", []CommandKind{kTest}},
	{"cargo test --workspace -- --nocapture", []CommandKind{kTest}},
	{"cargo +nightly test", []CommandKind{kTest}},
	{"cargo t", []CommandKind{kTest}},
	{"cargo nextest run", []CommandKind{kTest}},
	{"cargo build --release", []CommandKind{kBuild}},
	{"cargo b", []CommandKind{kBuild}},
	{"cargo check", nil},
	{"cargo clippy -- -D warnings", nil},
	{"cargo install ripgrep", nil},

	// jest, vitest
	{"jest", []CommandKind{kTest}},
	{"jest --ci src/api", []CommandKind{kTest}},
	{"./node_modules/.bin/jest", []CommandKind{kTest}},
	{"vitest run", []CommandKind{kTest}},
	{"vitest", []CommandKind{kTest}},
	{"npx vitest run", []CommandKind{kTest}},
	{"npx jest --coverage", []CommandKind{kTest}},
	{"npx --yes vitest run", []CommandKind{kTest}},
	{"npx prettier --write .", nil},
	{"cat jest.config.js", nil},
	{"vim vitest.config.ts", nil},

	// mvn
	{"mvn test", []CommandKind{kTest}},
	{"mvn -q clean test", []CommandKind{kTest}},
	{"./mvnw -pl core test", []CommandKind{kTest}},
	{"mvn surefire:test", []CommandKind{kTest}},
	{"mvn package", []CommandKind{kBuild}},
	{"mvn -DskipTests clean install", []CommandKind{kBuild}},
	{"mvn clean", nil},
	{"mvn dependency:tree", nil},
	{"mvn -pl test compile", nil}, // "test" is a module here, not a goal

	// gradle
	{"gradle test", []CommandKind{kTest}},
	{"./gradlew test", []CommandKind{kTest}},
	{"./gradlew :app:test --info", []CommandKind{kTest}},
	{`'.\gradlew.bat' test`, []CommandKind{kTest}}, // a backslash outside quotes is an escape
	{"gradle build", []CommandKind{kBuild}},
	{"./gradlew build -x test", []CommandKind{kBuild}},
	{"./gradlew clean", nil},
	{"./gradlew tasks", nil},

	// make
	{"make", []CommandKind{kBuild}},
	{"make -C dir", []CommandKind{kBuild}},
	{"make -j4", []CommandKind{kBuild}},
	{"make all", []CommandKind{kBuild}},
	{"make build", []CommandKind{kBuild}},
	{"make test", []CommandKind{kTest}},
	{"make -j 8 test", []CommandKind{kTest}},
	{"make -C backend test-unit", []CommandKind{kTest}},
	{"make VERBOSE=1 test", []CommandKind{kTest}},
	{"make build test", []CommandKind{kTest, kBuild}},
	{"gmake", []CommandKind{kBuild}},
	{"echo make", nil},
	{"cmake -S . -B build", nil},
	{"makepkg -si", nil},

	// tsc
	{"tsc", []CommandKind{kBuild}},
	{"tsc --noEmit -p tsconfig.json", []CommandKind{kBuild}},
	{"npx tsc --noEmit", []CommandKind{kBuild}},
	{"cat tsconfig.json", nil},

	// docker
	{"docker build -t spacepilot .", []CommandKind{kBuild}},
	{"docker buildx build --platform linux/amd64 .", []CommandKind{kBuild}},
	{"docker --context remote build .", []CommandKind{kBuild}},
	{"docker run --rm spacepilot", nil},
	{"docker images build", nil},

	// dotnet
	{"dotnet test", []CommandKind{kTest}},
	{"dotnet test --filter Category=Unit", []CommandKind{kTest}},
	{"dotnet build -c Release", []CommandKind{kBuild}},
	{"dotnet restore", nil},

	// rspec, phpunit
	{"rspec", []CommandKind{kTest}},
	{"bundle exec rspec spec/models", []CommandKind{kTest}},
	{"bin/rspec", []CommandKind{kTest}},
	{"bundle install", nil},
	{"phpunit", []CommandKind{kTest}},
	{"vendor/bin/phpunit --filter UserTest", []CommandKind{kTest}},
	{"composer install", nil},

	// git commit
	{`git commit -m "Fix the limiter"`, []CommandKind{kCommit}},
	{`git commit -m "make build"`, []CommandKind{kCommit}},
	{`git commit -m "go test ./... passes"`, []CommandKind{kCommit}},
	{"git commit --amend -m 'Better message'", []CommandKind{kCommit}},
	{"git commit --amend --no-edit", []CommandKind{kCommit}},
	{"git commit", []CommandKind{kCommit}},
	{"git -C /home/dev/spacepilot commit -am wip", []CommandKind{kCommit}},
	{"git add -A && git commit -m wip", []CommandKind{kCommit}},
	{"git commit --dry-run", nil},
	{"git commit --dry-run -m 'x'", nil},
	{"git log --oneline -5", nil},
	{"git status", nil},
	{`echo "git commit -m x"`, nil},

	// git push
	{"git push", []CommandKind{kPush}},
	{"git push -u origin fix/ratelimit", []CommandKind{kPush}},
	{"git push --force-with-lease", []CommandKind{kPush}},
	{"git push --dry-run origin main", nil},
	{"git push -n", nil},
	{"git pull --rebase", nil},
	{`git commit -m "push it" && git push`, []CommandKind{kCommit, kPush}},

	// gh pr create
	{"gh pr create --fill", []CommandKind{kPR}},
	{`gh pr create --title "Fix" --body "done"`, []CommandKind{kPR}},
	{"gh pr new", []CommandKind{kPR}},
	{"git push -u origin HEAD && gh pr create --fill", []CommandKind{kPush, kPR}},
	{"gh pr view 42", nil},
	{"gh pr list --state open", nil},
	{"gh issue create", nil},

	// Prefixes and wrappers.
	{"cd x && go test ./...", []CommandKind{kTest}},
	{"cd /home/dev/spacepilot && go test ./...", []CommandKind{kTest}},
	{"cd x; go test ./...", []CommandKind{kTest}},
	{"cd x || exit 1; make", []CommandKind{kBuild}},
	{"(cd web && npm test)", []CommandKind{kTest}},
	{"pushd web && npm run build && popd", []CommandKind{kBuild}},
	{"cd x", nil},
	{"uv run pytest -q", []CommandKind{kTest}},
	{"uv run --with pytest-cov pytest --cov", []CommandKind{kTest}},
	{"uv run python -m pytest", []CommandKind{kTest}},
	{"uv run -m pytest", []CommandKind{kTest}},
	{"uvx pytest", []CommandKind{kTest}},
	{"uv run ruff check .", nil},
	{"uv pip install pytest", nil},
	{"poetry run pytest", []CommandKind{kTest}},
	{"poetry install", nil},
	{"pipenv run pytest", []CommandKind{kTest}},
	{"pnpm exec vitest run", []CommandKind{kTest}},
	{"pnpm dlx vitest run", []CommandKind{kTest}},
	{"npm exec -- jest", []CommandKind{kTest}},
	{"yarn jest --ci", []CommandKind{kTest}},
	{"pnpm vitest run", []CommandKind{kTest}},
	{"pnpm exec eslint .", nil},
	{"bunx vitest run", []CommandKind{kTest}},
	{"bunx prettier --check .", nil},
	{"bun x vitest", []CommandKind{kTest}},
	{"FOO=1 go test ./...", []CommandKind{kTest}},
	{"CGO_ENABLED=0 GOOS=linux go build -o app .", []CommandKind{kBuild}},
	{"FOO=1", nil},
	{"env GOFLAGS=-count=1 go test ./...", []CommandKind{kTest}},
	{"env -u GOPATH go build", []CommandKind{kBuild}},
	{"env", nil},
	{"timeout 60 go test ./...", []CommandKind{kTest}},
	{"timeout -k 5 300 make test", []CommandKind{kTest}},
	{"timeout 60 sleep 10", nil},
	{"time go test ./...", []CommandKind{kTest}},
	{"time -p make", []CommandKind{kBuild}},
	{"time sleep 1", nil},
	{"nice -n 10 cargo build", []CommandKind{kBuild}},
	{"nohup go test ./... > test.log 2>&1 &", []CommandKind{kTest}},
	{"command go test ./...", []CommandKind{kTest}},
	{"command -v go", nil},
	{"bash -c 'go test ./...'", []CommandKind{kTest}},
	{`sh -c "cd api && make"`, []CommandKind{kBuild}},
	{"bash -lc 'npm test'", []CommandKind{kTest}},
	{"bash -o pipefail -c 'go test ./... | tee out.txt'", []CommandKind{kTest}},
	{"bash scripts/test.sh", nil},
	{"bash -c 'echo go test'", nil},

	// Compound commands, pipes, redirections.
	{"go test ./... 2>&1 | tail -20", []CommandKind{kTest}},
	{"go test ./... || true", []CommandKind{kTest}},
	{"go vet ./... && go test ./... && git push", []CommandKind{kTest, kPush}},
	{"go build ./... >/dev/null 2>&1; echo $?", []CommandKind{kBuild}},
	{"go test ./...\ngo build ./...", []CommandKind{kTest, kBuild}},
	{"go test \\\n  ./...", []CommandKind{kTest}},
	{"if go test ./...; then git push; fi", []CommandKind{kTest, kPush}},
	{"! go test ./...", []CommandKind{kTest}},
	{"{ go build ./...; go test ./...; }", []CommandKind{kBuild, kTest}},
	{"for p in a b; do go test ./$p; done", []CommandKind{kTest}},
	{"ls | grep test", nil},
	{"cat <(go list ./...)", nil},
	{"golangci-lint run ./...", nil},

	// Quotes and escapes do not fool it.
	{`echo "go test"`, nil},
	{`echo 'go test ./...' && echo "make"`, nil},
	{`grep "go test" file`, nil},
	{`grep -rn "npm run build" .`, nil},
	{`rg 'cargo test' -g '*.md'`, nil},
	{`printf '%s\n' "make test"`, nil},
	{`echo go\ test`, nil},
	{`"go" test ./...`, []CommandKind{kTest}},
	{`go "test" ./...`, []CommandKind{kTest}},
	{`echo "a;go test"`, nil},
	{`echo 'a && make'`, nil},
	{"echo `go env GOPATH`", nil},
	{`X="$(go env GOPATH)" ls`, nil},
	{"# go test ./...\nls", nil},
	{"ls # && go test ./...", nil},
	{`echo "unterminated && go test`, nil},
	{`echo 'unterminated && go test`, nil},

	// Heredocs: the body is data.
	{"git commit -F - <<'EOF'\nmake build\ngo test ./...\nEOF", []CommandKind{kCommit}},
	{"git commit -m \"$(cat <<'EOF'\nRun go test in CI\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"", []CommandKind{kCommit}},
	{"cat > notes.md <<EOF\ngo test ./...\nEOF\ngo build ./...", []CommandKind{kBuild}},
	{"cat <<-EOF | wc -l\n\tmake test\n\tEOF", nil},
	{"cat <<EOF\nunterminated make", nil},

	{"", nil},
	{"   \n\t", nil},
}

func TestClassifyCommand(t *testing.T) {
	for _, c := range classifyCases {
		if got := ClassifyCommand(c.cmd); !slices.Equal(got, c.want) {
			t.Errorf("ClassifyCommand(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

// Every program of the table has a case that matches it.
func TestClassifyCommandCoversTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range classifyCases {
		for _, p := range commandParts(c.cmd) {
			for _, k := range p.kinds {
				seen[k.String()+" "+programName(p.argv[0])] = true
			}
		}
	}
	for _, pat := range commandPatterns {
		found := false
		for _, prog := range pat.programs {
			found = found || seen[pat.kind.String()+" "+prog]
		}
		if !found {
			t.Errorf("no case classifies %v as %s", pat.programs, pat.kind)
		}
	}
}

func TestCommandKindString(t *testing.T) {
	got := []string{kTest.String(), kBuild.String(), kCommit.String(), kPush.String(), kPR.String(), CommandKind(0).String()}
	want := []string{"test", "build", "commit", "push", "pr_open", "unknown"}
	if !slices.Equal(got, want) {
		t.Errorf("String() = %v, want %v", got, want)
	}
}

func TestCommitMessage(t *testing.T) {
	cases := []struct {
		cmd  string
		want string
		ok   bool
	}{
		{`git commit -m "Fix the limiter"`, "Fix the limiter", true},
		{`git commit -m "make build"`, "make build", true},
		{"git commit -m 'Single quoted'", "Single quoted", true},
		{"git commit -m unquoted", "unquoted", true},
		{`git commit -m "Subject" -m "Body line one." -m "Closes #4"`, "Subject\n\nBody line one.\n\nCloses #4", true},
		{`git commit -am "Both flags"`, "Both flags", true},
		{`git commit -mAttached`, "Attached", true},
		{`git commit --message="Long form"`, "Long form", true},
		{`git commit --message "Long form, separate"`, "Long form, separate", true},
		{`git commit --amend -m "Amended"`, "Amended", true},
		{`git commit -s -m "Signed" --author "A <a@b.c>"`, "Signed", true},
		{`git commit -m "  padded  "`, "padded", true},
		{`git commit -m "He said \"hi\" \$HOME"`, `He said "hi" $HOME`, true},
		{`git commit -m 'It'\''s fixed'`, "It's fixed", true},
		{`git add api/ && git commit -m "Add API" && git push`, "Add API", true},
		{`cd /home/dev/spacepilot && git -C . commit -m "In a dir"`, "In a dir", true},
		{`git commit -m "$TITLE"`, "$TITLE", true},
		// Claude Code's usual form: -m "$(cat <<'EOF' … EOF )".
		{"git commit -m \"$(cat <<'EOF'\nFix rate limiter refill\n\nThe bucket never refilled (it's fixed now).\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
			"Fix rate limiter refill\n\nThe bucket never refilled (it's fixed now).\n\nCo-Authored-By: Claude <noreply@anthropic.com>", true},
		{"git add a.go b.go && git commit -m \"$(cat <<'EOF'\nTwo files\nEOF\n)\" && git push origin main",
			"Two files", true},
		{"git commit -m \"$(cat <<\"EOF\"\nDouble-quoted delimiter\nEOF\n)\"", "Double-quoted delimiter", true},
		{"git commit -m \"$(cat <<EOF\nUnquoted delimiter\nEOF\n)\"", "Unquoted delimiter", true},
		{"git commit -m \"$(cat <<'EOF'\nDelimiter then paren\nEOF)\"", "Delimiter then paren", true},
		{"git commit -m \"$(cat <<'EOF'\n  Indented body\n\n  - item\nEOF\n)\"", "Indented body\n\n  - item", true},
		{"git commit -m \"$(cat <<'EOF'\nWith body that says EOF inline and `make`\nEOF\n)\"", "With body that says EOF inline and `make`", true},
		{"git commit -m \"$(cat <<'EOF'\r\nCRLF lines\r\nEOF\r\n)\"", "CRLF lines", true},
		{"git commit -m \"$(printf 'x')\"", "$(printf 'x')", true},
		{"git commit -m \"$(cat <<'EOF'\nSubject\nEOF\n)\" -m \"Trailer: yes\"", "Subject\n\nTrailer: yes", true},
		// -F - with a heredoc or here-string on stdin.
		{"git commit -F - <<'EOF'\nFrom stdin\n\nmake build is in the body\nEOF", "From stdin\n\nmake build is in the body", true},
		{"git commit --file=- <<EOF\nLong file option\nEOF\n", "Long file option", true},
		{"git commit -F- <<'MSG'\nCustom delimiter\nMSG", "Custom delimiter", true},
		{"git commit -F - <<-EOF\n\tTabs stripped\n\tEOF", "Tabs stripped", true},
		{`git commit -F - <<< "Here string"`, "Here string", true},
		{"cat <<'EOF' | git commit -F -\nPiped from cat\nEOF", "Piped from cat", true},
		{"git commit -F /dev/stdin <<'EOF'\nDev stdin\nEOF", "Dev stdin", true},
		// No message on the command line.
		{"git commit", "", false},
		{"git commit --amend --no-edit", "", false},
		{"git commit -F msg.txt", "", false},
		{"git commit -C HEAD", "", false},
		{"git commit -F -", "", false},
		{"git commit --dry-run -m 'x'", "", false},
		{`echo "git commit -m x"`, "", false},
		{"git log -m", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := CommitMessage(c.cmd)
		if got != c.want || ok != c.ok {
			t.Errorf("CommitMessage(%q) = %q, %v; want %q, %v", c.cmd, got, ok, c.want, c.ok)
		}
	}
}

func TestCommandTarget(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"go test ./...", "go test ./..."},
		{"  go   test\t./...  ", "go test ./..."},
		{"cd x && go test ./...", "go test ./..."},
		{"cd /home/dev/spacepilot && go test ./...", "go test ./..."},
		{"cd x; go test ./...", "go test ./..."},
		{"timeout 60 go test ./...", "go test ./..."},
		{"FOO=1 go test ./...", "go test ./..."},
		{"GOFLAGS=-count=1 go test ./... 2>&1 | tail -20", "go test ./..."},
		{"go test -run 'TestA|TestB' ./pkg", "go test -run 'TestA|TestB' ./pkg"},
		{`go test -run "TestA|TestB" ./pkg`, "go test -run 'TestA|TestB' ./pkg"},
		{"go test -run X ./pkg", "go test -run X ./pkg"},
		{"uv run pytest -q", "pytest -q"},
		{"python -m pytest -q", "pytest -q"},
		{"npx vitest run", "vitest run"},
		{"bash -c 'cd api && go test ./...'", "go test ./..."},
		{"go build ./... && go test ./...", "go build ./... && go test ./..."},
		{"go vet ./... && go build ./... || echo failed", "go build ./..."},
		{"(cd web && npm test) ; make", "npm test; make"},
		{"make -C dir", "make -C dir"},
		{"git status", "git status"},
		{"cd /repo && git push -u origin main 2>&1", "git push -u origin main"},
		{"cd /repo", "cd /repo"},
		{"git add . && git commit -m \"$(cat <<'EOF'\nFix\nEOF\n)\"", "git add . && git commit -m Fix"},
		{"echo 'a b' | wc -l", "echo 'a b' | wc -l"},
		{"echo \"it's\"", `echo 'it'\''s'`},
		{"sleep 1 & wait", "sleep 1 & wait"},
		{"'FOO=1' ./run", "'FOO=1' ./run"},
		{"", ""},
	}
	for _, c := range cases {
		if got := CommandTarget(c.cmd); got != c.want {
			t.Errorf("CommandTarget(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// A target is a command: read back, it is the same target and runs the same
// tests and builds.
func TestCommandTargetRoundTrip(t *testing.T) {
	for _, c := range classifyCases {
		checkTargetRoundTrip(t, c.cmd)
	}
}

func checkTargetRoundTrip(t *testing.T, cmd string) {
	t.Helper()
	target := CommandTarget(cmd)
	if again := CommandTarget(target); again != target {
		t.Errorf("CommandTarget(%q) = %q, but CommandTarget of that = %q", cmd, target, again)
	}
	testsAndBuilds := func(ks []CommandKind) []CommandKind {
		return slices.DeleteFunc(ks, func(k CommandKind) bool { return k != kTest && k != kBuild })
	}
	if a, b := testsAndBuilds(ClassifyCommand(cmd)), testsAndBuilds(ClassifyCommand(target)); !slices.Equal(a, b) {
		t.Errorf("ClassifyCommand(%q) tests and builds = %v, of its target %q = %v", cmd, a, target, b)
	}
}

// Hostile input: deep nesting and long lines stay bounded and never panic.
func TestClassifyCommandHostile(t *testing.T) {
	inputs := []string{
		strings.Repeat("$(", 10000) + "go test",
		strings.Repeat("(", 10000) + "go test" + strings.Repeat(")", 10000),
		strings.Repeat("bash -c '", 50),
		strings.Repeat(`"$(`, 5000),
		strings.Repeat("timeout 1 ", 1000) + "go test",
		strings.Repeat("<<EOF ", 1000) + "\n",
		strings.Repeat("a && ", 100000) + "go test ./...",
		"$(((((((",
		"${${${",
		"`",
		"\\",
		"$'\\",
		"git commit -m",
		"git commit -F - <<",
	}
	for _, in := range inputs {
		ClassifyCommand(in)
		CommitMessage(in)
		CommandTarget(in)
	}
	if got := ClassifyCommand(strings.Repeat("a && ", 100000) + "go test ./..."); !slices.Equal(got, []CommandKind{kTest}) {
		t.Errorf("long compound command: got %v", got)
	}
}

func FuzzClassifyCommand(f *testing.F) {
	for _, c := range classifyCases {
		f.Add(c.cmd)
	}
	f.Add("git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"")
	f.Fuzz(func(t *testing.T, cmd string) {
		ClassifyCommand(cmd)
		CommitMessage(cmd)
		checkTargetRoundTrip(t, cmd)
	})
}

// The Bash commands of the handoff fixture (testdata/handoff/EXPECTED.md) as the
// table sees them.
func TestCommandsOnHandoffFixture(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "handoff", "-home-dev-spacepilot", "*.jsonl"))
	if err != nil || len(files) != 3 {
		t.Fatalf("handoff fixture: %v, %d files", err, len(files))
	}
	type line struct {
		Message struct {
			Content []struct {
				Type  string `json:"type"`
				Name  string `json:"name"`
				Input struct {
					Command string `json:"command"`
				} `json:"input"`
			} `json:"content"`
		} `json:"message"`
		Type string `json:"type"`
	}
	var cmds []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) != nil || l.Type != "assistant" {
				continue
			}
			for _, b := range l.Message.Content {
				if b.Type == "tool_use" && b.Name == "Bash" {
					cmds = append(cmds, b.Input.Command)
				}
			}
		}
		f.Close()
	}
	commit := "Fix rate limiter refill interval\n\n" +
		"The server built the limiter with a zero refill interval, so buckets never\n" +
		"refilled. Pass cfg.RefillEvery and raise DefaultBurst to 10.\n\n" +
		"\U0001F916 Generated with [Claude Code](https://claude.com/claude-code)\n\n" +
		"Co-Authored-By: Claude <noreply@anthropic.com>"
	got := map[string]int{}
	for _, c := range cmds {
		kinds := ClassifyCommand(c)
		target := CommandTarget(c)
		msg, isCommit := CommitMessage(c)
		var key string
		switch {
		case slices.Equal(kinds, []CommandKind{kBuild}) && target == "go build ./...":
			key = "build"
		case slices.Equal(kinds, []CommandKind{kTest}) && target == "go test ./...":
			key = "test all"
		case slices.Equal(kinds, []CommandKind{kTest}) && target == "go test ./api/...":
			key = "test api"
		case slices.Equal(kinds, []CommandKind{kCommit}) && isCommit && msg == commit:
			key = "commit"
		case slices.Equal(kinds, []CommandKind{kPush}) && target == "git push -u origin fix/ratelimit":
			key = "push"
		case slices.Equal(kinds, []CommandKind{kPR}) && !isCommit:
			key = "pr"
		default:
			t.Errorf("%q: kinds %v, target %q, commit message %q %v", c, kinds, target, msg, isCommit)
		}
		got[key]++
	}
	want := map[string]int{"build": 2, "test all": 2, "test api": 1, "commit": 1, "push": 1, "pr": 1}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d commands, want %d", k, got[k], n)
		}
	}
}

// TestRecycledParserReadsAlike: a parser back from the pool, whose blocks
// hold the commands, words, heredoc bodies and operators of earlier parses,
// reads every command line as a new parser does.
func TestRecycledParserReadsAlike(t *testing.T) {
	dirty := "cat <<EOF | tee x && git commit -m \"$(cat <<'M'\nmsg\nM\n)\" ; a b c d e f g h i j k l m n o p\nbody\nEOF\n" +
		"(cd x && make) || go test ./... & bash -c 'npm test; npx tsc' <<< input; cat <<OPEN"
	var cmds []string
	for _, c := range classifyCases {
		cmds = append(cmds, c.cmd)
	}
	cmds = append(cmds, dirty, "git push", "", "x=1 y=2", "cat <<EOF\nx\nEOF", "git commit -F - \nOPEN\nbody\nOPEN\n")
	for _, cmd := range cmds {
		want := partsOf((&shParser{src: cmd}).script(false), 0)
		parseParts(dirty, 0)        // leaves the pool's parser dirty
		parseParts("cat <<OPEN", 0) // and a heredoc waiting for its body, in its first command
		if got := parseParts(cmd, 0); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: a recycled parser read %+v, a new one %+v", cmd, got, want)
		}
	}
}

// TestParserKeepsLittle: after a command line of thousands of commands, or
// of one command of thousands of words, a parser readied for the pool keeps
// at most shKeptBlocks blocks, no long word list, and no word of the text.
func TestParserKeepsLittle(t *testing.T) {
	for _, src := range []string{strings.Repeat("a b && ", 5000), "echo " + strings.Repeat("w ", 5000)} {
		p := &shParser{src: src}
		if n := len(partsOf(p.script(false), 0)); n == 0 {
			t.Fatal("no parts")
		}
		p.reset()
		if len(p.blocks) > shKeptBlocks {
			t.Errorf("%d blocks kept, want at most %d", len(p.blocks), shKeptBlocks)
		}
		for _, b := range p.blocks {
			for _, c := range b {
				if cap(c.words) > shKeptWords || len(c.words) != 0 || c.op != "" {
					t.Fatalf("a command kept %d words (room for %d), op %q", len(c.words), cap(c.words), c.op)
				}
				for _, w := range c.words[:cap(c.words)] {
					if w.val != "" {
						t.Fatalf("a pooled command still holds the word %q", w.val)
					}
				}
			}
		}
	}
}
