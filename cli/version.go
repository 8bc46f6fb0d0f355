package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/buildinfo"
)

// newVersionCmd is `locksim version`, the same line as `locksim --version`.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version and the source commit of this locksim",
		Long: `Prints one line: the module version ("devel" for a build from a work
tree) and the source commit, with "-dirty" when the tree was modified,
as every report and JSON output records them; "commit unknown" when the
binary cannot tell it. locksim --version prints the same line.

The commit comes from the linker's stamp, which make build (and make
check, explore, report, real) sets from git, or else from the go
command's VCS stamp. go run and go test stamp none, and neither does go
build in a linked git worktree (git worktree add): Go recognises a
repository only by a .git directory, and in a worktree nested inside
another checkout it stamps that checkout's commit, which locksim ignores
(golang/go#58218). The working directory's repository is never asked: it
need not be the one the binary was built from.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), buildinfo.String())
			return err
		},
	}
}
