/**
 * `UriTemplateParams<T>` and `UriTemplateCheck<T>`: the variables of a resource template's URI
 * template string as an object type, and a compile-time check that the string only uses the
 * expressions baremcp's matcher supports (`{name}` and `{+name}`, see `uri-template.ts`).
 * Computed by the compiler from the string literal; types only, no runtime code.
 *
 * Spec: RFC 6570 §2.2 (expressions and operators), §2.3 (variable lists), §2.4 (modifiers),
 * §3.2.2 (simple string expansion), §3.2.3 (reserved expansion); MCP 2025-11-25, Server /
 * Resources (`ResourceTemplate.uriTemplate`).
 * @module
 */

/** The body of every `{...}` expression in `T`, as a union. */
type Expressions<T extends string> = T extends `${string}{${infer Body}}${infer Rest}`
  ? Body | Expressions<Rest>
  : never;

/** The variable name of a supported expression body: `name` or `+name`. */
type VariableName<Body extends string> = Body extends `+${infer Name}` ? Name : Body;

/**
 * Expression bodies the matcher refuses: an operator other than `+` (RFC 6570 §2.2), a variable
 * list (§2.3), a prefix or explode modifier (§2.4), or an empty body.
 */
type Unsupported<Body extends string> = Body extends ''
  ? Body
  : Body extends `${'#' | '.' | '/' | ';' | '?' | '&' | '=' | ',' | '!' | '@' | '|'}${string}`
    ? Body
    : Body extends `${string}${',' | '*' | ':' | '{'}${string}`
      ? Body
      : never;

/**
 * The `params` a resource template's `read` receives for template `T`: one `string` per
 * variable, percent-decoded. `'file:///{+path}/{name}'` gives `{ path: string; name: string }`.
 * A non-literal `string` template gives `Record<string, string>`.
 * @example
 * type P = UriTemplateParams<'repo://{owner}/{repo}/{+path}'>;
 * // { owner: string; repo: string; path: string }
 */
export type UriTemplateParams<T extends string> = string extends T
  ? Record<string, string>
  : { [Name in VariableName<Expressions<T>>]: string };

/**
 * `T` itself when every expression of the template is `{name}` or `{+name}` and no two variables
 * are adjacent; otherwise a string literal type that explains the fault, so that passing `T`
 * fails to compile with that explanation (the same faults `compileUriTemplate` throws for).
 * @example
 * type Ok = UriTemplateCheck<'file:///{+path}'>; // 'file:///{+path}'
 * type Bad = UriTemplateCheck<'search{?q}'>;
 * // 'unsupported URI template expression {?q}: use {name} or {+name}'
 */
export type UriTemplateCheck<T extends string> = string extends T
  ? T
  : [Unsupported<Expressions<T>>] extends [never]
    ? T extends `${string}}{${string}`
      ? 'adjacent URI template variables: put literal text between them'
      : T
    : `unsupported URI template expression {${Unsupported<Expressions<T>>}}: use {name} or {+name}`;
