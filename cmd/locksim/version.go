package main

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
as every report and JSON output records them. locksim --version prints
the same line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), buildinfo.String())
			return err
		},
	}
}
