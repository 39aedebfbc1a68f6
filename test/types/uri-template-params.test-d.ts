// Type tests for src/server/uri-template-params.ts: template variables and the template check.
import type { UriTemplateCheck, UriTemplateParams } from '../../src/server/uri-template-params.js';
import { expectTrue, type Equal } from './expect.js';

expectTrue<Equal<UriTemplateParams<'file:///{+path}'>, { path: string }>>();
expectTrue<Equal<UriTemplateParams<'file:///{+path}/{name}'>, { path: string; name: string }>>();
expectTrue<
  Equal<UriTemplateParams<'db://{table}/rows/{id}/{table}'>, { table: string; id: string }>
>();
expectTrue<Equal<UriTemplateParams<'static://readme'>, {}>>();
expectTrue<Equal<UriTemplateParams<string>, Record<string, string>>>();

// Supported templates pass through unchanged; the rest become an explanation.
expectTrue<Equal<UriTemplateCheck<'file:///{+path}'>, 'file:///{+path}'>>();
expectTrue<Equal<UriTemplateCheck<'a://{x.y}'>, 'a://{x.y}'>>();
expectTrue<Equal<UriTemplateCheck<string>, string>>();
expectTrue<
  Equal<
    UriTemplateCheck<'search://{q}{?page}'>,
    'unsupported URI template expression {?page}: use {name} or {+name}'
  >
>();
expectTrue<
  Equal<
    UriTemplateCheck<'a://{x,y}'>,
    'unsupported URI template expression {x,y}: use {name} or {+name}'
  >
>();
expectTrue<
  Equal<
    UriTemplateCheck<'a://{x:3}'>,
    'unsupported URI template expression {x:3}: use {name} or {+name}'
  >
>();
expectTrue<
  Equal<
    UriTemplateCheck<'a://{/seg*}'>,
    'unsupported URI template expression {/seg*}: use {name} or {+name}'
  >
>();
expectTrue<
  Equal<UriTemplateCheck<'a://{}'>, 'unsupported URI template expression {}: use {name} or {+name}'>
>();
expectTrue<
  Equal<
    UriTemplateCheck<'a://{x}{+y}'>,
    'adjacent URI template variables: put literal text between them'
  >
>();
