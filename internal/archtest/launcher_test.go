package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// launcherPkg is the one package that starts redis-server: real mode, the
// benchmarks and the test helper (locks/lockstest/redistest) all go
// through it, so that every server gets the same ports, persistence,
// readiness wait and parent-death signal.
const launcherPkg = "redisserver"

type sourceFiles struct {
	ImportPath string
	Dir        string
	GoFiles    []string
}

// TestOneRedisServerLauncher: no package's code but redisserver's names
// the redis-server executable in an exec.Command (tests may: they start
// odd servers on purpose, a TLS one, a mute one).
func TestOneRedisServerLauncher(t *testing.T) {
	checked := 0
	for _, p := range goList[sourceFiles](t, "ImportPath,Dir,GoFiles") {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		for _, f := range p.GoFiles {
			checked++
			if rel == launcherPkg {
				continue
			}
			v, err := serverLaunches(filepath.Join(p.Dir, f), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range v {
				t.Errorf("%s (start redis-server through package %s)", s, launcherPkg)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d files; the listing is wrong", checked)
	}
}

// serverLaunches returns the exec.Command, exec.CommandContext and
// exec.LookPath calls in the file at path (src, when not nil) whose
// executable is the redis-server binary: the literal "redis-server", or a
// Binary constant or field.
func serverLaunches(path string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	var text any // nil: read the file
	if src != nil {
		text = src
	}
	f, err := parser.ParseFile(fset, path, text, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isExecCommand(call.Fun) {
			return true
		}
		args := call.Args
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "CommandContext" && len(args) > 0 {
			args = args[1:]
		}
		if len(args) > 0 && namesRedisServer(args[0]) {
			out = append(out, fmt.Sprintf("%s: starts redis-server itself", fset.Position(call.Pos())))
		}
		return true
	})
	return out, nil
}

func isExecCommand(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "exec" && (sel.Sel.Name == "Command" || sel.Sel.Name == "CommandContext" || sel.Sel.Name == "LookPath")
}

func namesRedisServer(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return err == nil && filepath.Base(s) == "redis-server"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Binary"
	case *ast.Ident:
		return e.Name == "Binary"
	}
	return false
}

// TestServerLaunchesFound proves the check on sources of its own.
func TestServerLaunchesFound(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"literal", "package a\nimport \"os/exec\"\nfunc f() { exec.Command(\"redis-server\", \"--port\", \"0\") }\n", 1},
		{"path", "package a\nimport \"os/exec\"\nfunc f() { exec.Command(\"/usr/bin/redis-server\") }\n", 1},
		{"context", "package a\nimport \"os/exec\"\nfunc f() { exec.CommandContext(ctx, redistest.Binary) }\n", 1},
		{"looked up", "package a\nimport \"os/exec\"\nconst Binary = \"redis-server\"\nfunc f() { exec.LookPath(Binary) }\n", 1},
		{"a config's binary", "package a\nimport \"os/exec\"\nfunc f(cfg Config) { exec.LookPath(cfg.Binary) }\n", 1},
		{"other program", "package a\nimport \"os/exec\"\nfunc f() { exec.Command(\"sleep\", \"1\") }\n", 0},
		{"a variable path", "package a\nimport \"os/exec\"\nfunc f(path string) { exec.Command(path) }\n", 0},
	} {
		v, err := serverLaunches(c.name+".go", []byte(c.src))
		if err != nil || len(v) != c.want {
			t.Errorf("%s: serverLaunches = %q, %v; want %d", c.name, v, err, c.want)
		}
	}
}
