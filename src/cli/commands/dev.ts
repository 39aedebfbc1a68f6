/**
 * `baremcp dev <module>`: serves a module as `baremcp serve` does (stdio, or `--http` with the
 * same options), and reloads it on every change to it or to one of its own files, while clients
 * stay connected: they get `notifications/<list>/list_changed` when tools, prompts or resources
 * were added, removed or reshaped, and otherwise just the new code. What changed is printed on
 * stderr; a version that does not load leaves the last good one serving, and the reason is
 * printed. See `dev/reloader.ts`.
 *
 * Spec: MCP 2025-11-25, Server / Tools, Prompts, Resources ("List Changed Notification");
 * MCP 2026-07-28, Basic / Patterns / Subscriptions.
 * @module
 */
import type { ParsedArgs } from '../args.js';
import { Reloader } from '../dev/reloader.js';
import { prepareServing, serveLoaded } from './serve.js';

/** Serves `modulePath` with reloading. Resolves when serving ends (`--http`: SIGINT/SIGTERM). */
export async function runDev(args: ParsedArgs, modulePath: string): Promise<void> {
  if (await prepareServing(args)) return;
  const reloader = new Reloader(modulePath);
  try {
    const server = await reloader.start();
    await serveLoaded(server, args, modulePath);
  } finally {
    reloader.close();
  }
}
