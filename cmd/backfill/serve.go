package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/backfill-explainer/explainer/internal/site"
)

// serveCmd runs `backfill serve [--dir dist] [--addr 127.0.0.1:8080]`: it
// serves the built site until interrupted (SIGINT or SIGTERM shut it down
// cleanly, exit 0). Bad flags exit 2; a listen or directory error exits 1.
// The flag handling lives in site.ServeCommand, where it is tested.
func serveCmd(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return site.ServeCommand(ctx, args, stdout, stderr)
}
