/**
 * The next-step types of Node's module resolve hooks, shared by the CLI's two hooks
 * (`resolve-hook.ts`: a served module's `baremcp` resolves to the running copy; `dev/dev-hook.ts`:
 * `baremcp dev` versions a module's local files per reload). Types only.
 *
 * Spec: Node.js, Modules: `module.registerHooks` (>= 22.15, >= 23.5) and `module.register` (>= 20.6).
 * @module
 */
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';

/** The next resolve step of a synchronous hook chain (`module.registerHooks`). */
export type NextResolveSync = (
  specifier: string,
  context?: Partial<ResolveHookContext>,
) => ResolveFnOutput;

/** The next resolve step of an asynchronous hook chain (`module.register`, on Node's hooks thread). */
export type NextResolve = (
  specifier: string,
  context?: Partial<ResolveHookContext>,
) => ResolveFnOutput | Promise<ResolveFnOutput>;
