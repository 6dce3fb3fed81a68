package server_test

// The browser UI's own tests: the unit tests of its modules (web/test, run
// by node's built-in test runner), and a check that the server hands out
// every module the pages import, as JavaScript, and nothing of the tests.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"emergo/server"
)

// TestWebJS checks that every module of web/ parses, and runs
// web/test/*.test.js with `node --test`, failing with node's report when
// one of them fails. It needs node 18 or later in PATH (Debian's nodejs),
// and skips without it.
func TestWebJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("JavaScript unit tests skipped: no node in PATH; install Debian's nodejs (.ci/run does)")
	}
	version, err := exec.CommandContext(t.Context(), node, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(version)), "v"), ".")
	if n, err := strconv.Atoi(major); err != nil || n < 18 {
		t.Skipf("JavaScript unit tests skipped: node %s has no test runner; they need node 18 or later", strings.TrimSpace(string(version)))
	}
	// Every module parses, those the tests do not import included (the
	// pages' own), so that a slip in one shows here and not only in a
	// browser.
	modules, err := filepath.Glob(filepath.Join("web", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		cmd := exec.CommandContext(t.Context(), node, "--check", filepath.Base(m))
		cmd.Dir = "web"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", m, err, out)
		}
	}
	files, err := filepath.Glob(filepath.Join("web", "test", "*.test.js"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no JavaScript tests in web/test")
	}
	args := []string{"--test"}
	for _, f := range files {
		rel, err := filepath.Rel("web", f)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, rel)
	}
	cmd := exec.CommandContext(t.Context(), node, args...)
	cmd.Dir = "web" // where package.json makes the .js files ES modules
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %s: %v\n%s", strings.Join(args[1:], " "), err, out)
	}
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, "# tests ") || strings.HasPrefix(line, "# pass ") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// importRE finds the modules a module imports: relative paths, as every
// module of web/ writes them, imported at its top or when needed
// (import('./x.js')); and the scripts of the workers it starts (new
// URL('./x.js', import.meta.url)).
var importRE = regexp.MustCompile(`(?m)^import\s(?:[^'"]*\sfrom\s)?'\./([a-z0-9_-]+\.js)';|import\('\./([a-z0-9_-]+\.js)'\)|new URL\('\./([a-z0-9_-]+\.js)', import\.meta\.url\)`)

// entryRE finds the entry module of a page: its one script.
var entryRE = regexp.MustCompile(`<script type="module" src="/([a-z0-9_-]+\.js)"></script>`)

// TestUIModulesServed follows the imports from the entry of every page
// (app.js, or its own): each module is served as JavaScript (a browser
// refuses a module of another type), and every module of web/ is among
// them. The tests and the notes beside the
// modules are not served.
func TestUIModulesServed(t *testing.T) {
	e := newEnv(t, server.Config{})
	get := func(path string) (int, string, string) {
		t.Helper()
		resp, err := http.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
	}
	// The entry of every page: app.js, or a page's own.
	pages, err := filepath.Glob(filepath.Join("web", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var queue []string
	for _, p := range pages {
		html, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range entryRE.FindAllSubmatch(html, -1) {
			if name := string(m[1]); !seen[name] {
				seen[name] = true
				queue = append(queue, name)
			}
		}
	}
	if !seen["app.js"] || !seen["learn.js"] {
		t.Fatalf("the pages' entries are %v, want app.js and learn.js among them", queue)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		code, ctype, body := get("/" + name)
		if code != http.StatusOK {
			t.Errorf("/%s: %d", name, code)
			continue
		}
		if !strings.HasPrefix(ctype, "text/javascript") && !strings.HasPrefix(ctype, "application/javascript") {
			t.Errorf("/%s: Content-Type %q, want JavaScript", name, ctype)
		}
		for _, m := range importRE.FindAllStringSubmatch(body, -1) {
			if name := m[1] + m[2] + m[3]; !seen[name] {
				seen[name] = true
				queue = append(queue, name)
			}
		}
	}
	modules, err := filepath.Glob(filepath.Join("web", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		if name := filepath.Base(m); !seen[name] {
			t.Errorf("web/%s is not imported from a page's entry: a module no page uses", name)
		}
	}
	// The catalogues of the languages, which i18n.js fetches.
	for _, lang := range []string{"en", "pt", "ru", "lfn"} {
		code, ctype, body := get("/i18n/" + lang + ".json")
		if code != http.StatusOK || !strings.HasPrefix(ctype, "application/json") || !json.Valid([]byte(body)) {
			t.Errorf("/i18n/%s.json: %d %q, want the catalogue as JSON", lang, code, ctype)
		}
	}
	for _, path := range []string{"/test/clock.test.js", "/package.json", "/README.md"} {
		if code, _, _ := get(path); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404 (not part of the site)", path, code)
		}
	}
}
