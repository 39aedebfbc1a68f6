// The validator benchmark's corpus (bench/validate.js): realistic tool input schemas, each with
// valid arguments and the invalid ones a model sends. Classes:
// - reference: the official reference servers' tools (server-everything, server-filesystem,
//   server-memory), read from the installed packages (bench/lib/reference-tools.js), with
//   arguments sampled from each schema (bench/lib/sample-arguments.js);
// - api: hand-written API-shaped schemas (an issue tracker, a payment with a oneOf of payment
//   methods, a calendar event with anyOf/oneOf) and the four schemas of earlier runs;
// - recursive: a file tree and a search filter, both through a recursive $ref;
// - unevaluated: unevaluatedProperties over allOf/$ref and over if/then.
import { referenceToolSchemas } from './lib/reference-tools.js';
import { mistakes, sample } from './lib/sample-arguments.js';

const KEY = 'c0a8012e-5f3b-4d2a-9c1e-7b6d5e4f3a21';

const ISSUE = {
  type: 'object',
  properties: {
    repository: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', description: 'owner/name' },
    title: { type: 'string', minLength: 1, maxLength: 256 },
    body: { type: 'string', maxLength: 65536 },
    labels: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 50 }, maxItems: 20, uniqueItems: true },
    assignees: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9-]{1,39}$' }, maxItems: 10 },
    priority: { enum: ['p0', 'p1', 'p2', 'p3'] },
    estimate: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.5 },
    milestone: { type: ['integer', 'null'], minimum: 1 },
    dueDate: { type: 'string', format: 'date' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { enum: ['blocks', 'blocked_by', 'duplicates', 'relates_to'] },
          issue: { type: 'integer', minimum: 1 },
        },
        required: ['kind', 'issue'],
        additionalProperties: false,
      },
    },
    customFields: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, maxProperties: 20 },
  },
  required: ['repository', 'title'],
  additionalProperties: false,
};

const PAYMENT = {
  $defs: {
    money: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
      required: ['amount', 'currency'],
      additionalProperties: false,
    },
    address: {
      type: 'object',
      properties: {
        line1: { type: 'string', minLength: 1 },
        line2: { type: 'string' },
        city: { type: 'string', minLength: 1 },
        postalCode: { type: 'string', maxLength: 16 },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
      required: ['line1', 'city', 'country'],
      additionalProperties: false,
    },
    card: {
      type: 'object',
      properties: {
        type: { const: 'card' },
        number: { type: 'string', pattern: '^[0-9]{12,19}$' },
        expMonth: { type: 'integer', minimum: 1, maximum: 12 },
        expYear: { type: 'integer', minimum: 2024 },
        cvc: { type: 'string', pattern: '^[0-9]{3,4}$' },
      },
      required: ['type', 'number', 'expMonth', 'expYear'],
      additionalProperties: false,
    },
    sepa: {
      type: 'object',
      properties: {
        type: { const: 'sepa_debit' },
        iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' },
        mandateId: { type: 'string' },
      },
      required: ['type', 'iban'],
      additionalProperties: false,
    },
    wallet: {
      type: 'object',
      properties: { type: { enum: ['apple_pay', 'google_pay'] }, token: { type: 'string', minLength: 16 } },
      required: ['type', 'token'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    amount: { $ref: '#/$defs/money' },
    customer: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^cus_[A-Za-z0-9]+$' },
        email: { type: 'string', format: 'email' },
        name: { type: 'string' },
        billingAddress: { $ref: '#/$defs/address' },
      },
      anyOf: [{ required: ['id'] }, { required: ['email'] }],
    },
    paymentMethod: { oneOf: [{ $ref: '#/$defs/card' }, { $ref: '#/$defs/sepa' }, { $ref: '#/$defs/wallet' }] },
    description: { type: 'string', maxLength: 1000 },
    capture: { type: 'boolean' },
    idempotencyKey: { type: 'string', format: 'uuid' },
    metadata: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { maxLength: 40 },
      additionalProperties: { type: 'string', maxLength: 500 },
    },
  },
  required: ['amount', 'paymentMethod', 'idempotencyKey'],
  additionalProperties: false,
};

const CALENDAR = {
  $defs: {
    when: {
      oneOf: [
        {
          type: 'object',
          properties: { dateTime: { type: 'string', format: 'date-time' }, timeZone: { type: 'string' } },
          required: ['dateTime'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { date: { type: 'string', format: 'date' } },
          required: ['date'],
          additionalProperties: false,
        },
      ],
    },
    attendee: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        displayName: { type: 'string' },
        optional: { type: 'boolean' },
        responseStatus: { enum: ['needsAction', 'declined', 'tentative', 'accepted'] },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    calendarId: { type: 'string', minLength: 1 },
    summary: { type: 'string', maxLength: 1024 },
    description: { type: 'string' },
    location: { type: 'string' },
    start: { $ref: '#/$defs/when' },
    end: { $ref: '#/$defs/when' },
    attendees: { type: 'array', items: { $ref: '#/$defs/attendee' }, maxItems: 100 },
    recurrence: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', pattern: '^RRULE:' },
          { type: 'string', pattern: '^EXDATE' },
          { type: 'string', pattern: '^RDATE' },
        ],
      },
    },
    reminders: {
      type: 'object',
      properties: {
        useDefault: { type: 'boolean' },
        overrides: {
          type: 'array',
          maxItems: 5,
          items: {
            type: 'object',
            properties: {
              method: { enum: ['email', 'popup'] },
              minutes: { type: 'integer', minimum: 0, maximum: 40320 },
            },
            required: ['method', 'minutes'],
            additionalProperties: false,
          },
        },
      },
      required: ['useDefault'],
    },
    conference: {
      anyOf: [
        { type: 'null' },
        { type: 'object', properties: { type: { const: 'meet' } }, required: ['type'] },
        {
          type: 'object',
          properties: { type: { const: 'zoom' }, url: { type: 'string', format: 'uri' } },
          required: ['type', 'url'],
        },
      ],
    },
    visibility: { enum: ['default', 'public', 'private', 'confidential'] },
    colorId: { type: 'string', pattern: '^[0-9]{1,2}$' },
  },
  required: ['calendarId', 'summary', 'start', 'end'],
  additionalProperties: false,
};

const FILE_TREE = {
  $defs: {
    entry: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^/]+$' },
        kind: { enum: ['file', 'directory', 'symlink'] },
        size: { type: 'integer', minimum: 0 },
        modified: { type: 'string', format: 'date-time' },
        target: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/entry' } },
      },
      required: ['name', 'kind'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    root: { type: 'string' },
    tree: { $ref: '#/$defs/entry' },
    depth: { type: 'integer', minimum: 1, maximum: 10 },
  },
  required: ['root', 'tree'],
  additionalProperties: false,
};

/** A directory of `width` files and `width - 1` subdirectories, `depth` levels deep. */
function directory(name, depth, width) {
  const children = [];
  for (let i = 0; i < width; i++) {
    children.push({ name: `${name}-${i}.ts`, kind: 'file', size: 1024 * i + 17, modified: '2025-08-30T10:00:00Z' });
  }
  if (depth > 1) for (let i = 1; i < width; i++) children.push(directory(`${name}${i}`, depth - 1, width));
  return { name, kind: 'directory', children };
}

const SEARCH = {
  $defs: {
    filter: {
      anyOf: [
        {
          type: 'object',
          properties: { and: { type: 'array', items: { $ref: '#/$defs/filter' }, minItems: 1 } },
          required: ['and'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { or: { type: 'array', items: { $ref: '#/$defs/filter' }, minItems: 1 } },
          required: ['or'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { not: { $ref: '#/$defs/filter' } },
          required: ['not'],
          additionalProperties: false,
        },
        { $ref: '#/$defs/condition' },
      ],
    },
    condition: {
      type: 'object',
      properties: {
        field: { type: 'string', pattern: '^[a-z_][a-z0-9_.]*$' },
        op: { enum: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains'] },
        value: { type: ['string', 'number', 'boolean', 'null', 'array'] },
      },
      required: ['field', 'op', 'value'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    collection: { type: 'string' },
    filter: { $ref: '#/$defs/filter' },
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
    sort: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, direction: { enum: ['asc', 'desc'] } },
        required: ['field'],
        additionalProperties: false,
      },
    },
  },
  required: ['collection'],
  additionalProperties: false,
};

const MEMBER = {
  $defs: {
    person: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string', pattern: '^\\+[0-9 ]{7,20}$' },
      },
      required: ['name', 'email'],
    },
    address: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
      required: ['city', 'country'],
      additionalProperties: false,
    },
  },
  allOf: [
    { $ref: '#/$defs/person' },
    {
      properties: {
        role: { enum: ['admin', 'member', 'guest'] },
        team: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        startDate: { type: 'string', format: 'date' },
      },
      required: ['role'],
    },
  ],
  unevaluatedProperties: false,
};

const NOTIFICATION = {
  type: 'object',
  properties: {
    channel: { enum: ['email', 'sms', 'push'] },
    message: { type: 'string', minLength: 1, maxLength: 2000 },
    priority: { enum: ['low', 'normal', 'high'] },
  },
  required: ['channel', 'message'],
  allOf: [
    {
      if: { properties: { channel: { const: 'email' } } },
      then: {
        properties: {
          to: { type: 'string', format: 'email' },
          subject: { type: 'string', maxLength: 200 },
          cc: { type: 'array', items: { type: 'string' } },
        },
        required: ['to', 'subject'],
      },
    },
    {
      if: { properties: { channel: { const: 'sms' } } },
      then: { properties: { phone: { type: 'string', pattern: '^\\+[0-9]{8,15}$' } }, required: ['phone'] },
    },
    {
      if: { properties: { channel: { const: 'push' } } },
      then: {
        properties: { deviceToken: { type: 'string' }, badge: { type: 'integer', minimum: 0 } },
        required: ['deviceToken'],
      },
    },
  ],
  unevaluatedProperties: false,
};

/** The hand-written entries: `{ name, class, schema, valid: [...], invalid: [...] }`. */
export const HAND_WRITTEN = [
  {
    name: 'issue tracker: create issue',
    class: 'api',
    schema: ISSUE,
    valid: [
      { repository: 'acme/api', title: 'Login fails with SSO' },
      {
        repository: 'acme/web', title: 'Dark mode', body: 'Users asked for a dark theme in the settings.',
        labels: ['ui', 'feature'], assignees: ['ada', 'linus'], priority: 'p2', estimate: 3.5, milestone: 12,
        dueDate: '2025-10-01', links: [{ kind: 'relates_to', issue: 41 }], customFields: { team: 'frontend', points: 5 },
      },
      {
        repository: 'acme/api', title: 'Timeout on /v2/orders', labels: ['bug'], priority: 'p0', milestone: null,
        links: [{ kind: 'blocks', issue: 7 }, { kind: 'duplicates', issue: 12 }],
      },
    ],
    invalid: [
      { repository: 'acme/api', title: 'Crash on start', priority: 'high', estimate: '3' },
      { repo: 'acme/api', title: 'Crash on start', labels: 'bug' },
      { repository: 'acme api', title: '', assignees: ['ada'], links: [{ kind: 'blocks' }] },
    ],
  },
  {
    name: 'payment: create payment (oneOf of $refs)',
    class: 'api',
    schema: PAYMENT,
    valid: [
      {
        amount: { amount: 1999, currency: 'EUR' },
        paymentMethod: { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2027, cvc: '123' },
        idempotencyKey: KEY,
      },
      {
        amount: { amount: 250000, currency: 'USD' },
        customer: {
          id: 'cus_9f8a7b', email: 'ada@example.com',
          billingAddress: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
        },
        paymentMethod: { type: 'sepa_debit', iban: 'DE89370400440532013000' },
        description: 'Invoice 2025-0042', capture: false, idempotencyKey: KEY,
        metadata: { orderId: 'A-1001', channel: 'web' },
      },
      {
        amount: { amount: 500, currency: 'GBP' }, customer: { email: 'bob@example.com' },
        paymentMethod: { type: 'apple_pay', token: 'tok_1NqGk2ZvKYlo2C0x' }, idempotencyKey: KEY,
      },
    ],
    invalid: [
      {
        amount: { amount: 19.99, currency: 'eur' },
        paymentMethod: { type: 'card', number: '4242 4242 4242 4242', expMonth: 13, expYear: 2027 },
        idempotencyKey: KEY,
      },
      { amount: { amount: 1999, currency: 'EUR' }, paymentMethod: { type: 'paypal', email: 'ada@example.com' }, idempotencyKey: KEY },
      { amount: '19.99 EUR', customer: { name: 'Ada' }, paymentMethod: { type: 'sepa_debit', iban: 'DE89370400440532013000' } },
    ],
  },
  {
    name: 'calendar: create event (anyOf/oneOf)',
    class: 'api',
    schema: CALENDAR,
    valid: [
      {
        calendarId: 'primary', summary: 'Standup',
        start: { dateTime: '2025-09-01T09:00:00+02:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2025-09-01T09:15:00+02:00', timeZone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'], reminders: { useDefault: true },
      },
      {
        calendarId: 'team@example.com', summary: 'Offsite', location: 'Lisbon',
        start: { date: '2025-10-06' }, end: { date: '2025-10-08' },
        attendees: [{ email: 'ada@example.com', responseStatus: 'accepted' }, { email: 'linus@example.com', optional: true }],
        visibility: 'private', conference: null,
      },
      {
        calendarId: 'primary', summary: '1:1',
        start: { dateTime: '2025-09-03T15:00:00Z' }, end: { dateTime: '2025-09-03T15:30:00Z' },
        attendees: [{ email: 'grace@example.com', displayName: 'Grace' }],
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }, { method: 'email', minutes: 1440 }] },
        conference: { type: 'zoom', url: 'https://zoom.us/j/123' },
      },
    ],
    invalid: [
      {
        calendarId: 'primary', summary: 'Standup', start: '2025-09-01 09:00',
        end: { dateTime: '2025-09-01T09:15:00Z', date: '2025-09-01' },
      },
      {
        calendarId: 'primary', summary: 'Planning', start: { date: '2025-09-01' }, end: { date: '2025-09-01' },
        attendees: ['ada@example.com'], reminders: { overrides: [{ method: 'sms', minutes: 10 }] },
      },
      {
        calendarId: 'primary', summary: 'Review', start: { date: '2025-09-01' }, end: { date: '2025-09-02' },
        conference: { type: 'teams' }, recurrence: ['FREQ=DAILY'],
      },
    ],
  },
  {
    name: 'file tree (recursive $ref)',
    class: 'recursive',
    schema: FILE_TREE,
    valid: [
      { root: '/srv/app', tree: directory('src', 3, 3) },
      { root: '/srv/app', tree: directory('lib', 2, 4), depth: 2 },
      { root: '/home/ada', tree: { name: 'notes.md', kind: 'file', size: 2048 } },
    ],
    invalid: (() => {
      const a = directory('src', 3, 3);
      a.children[3].children[1].size = '12kB';
      const b = directory('lib', 2, 4);
      delete b.children[5].children[2].kind;
      const c = directory('src', 3, 3);
      c.children[4].children = { name: 'x', kind: 'file' };
      return [{ root: '/srv/app', tree: a }, { root: '/srv/app', tree: b }, { root: '/srv/app', tree: c, depth: 3 }];
    })(),
  },
  {
    name: 'search filter (recursive $ref in anyOf)',
    class: 'recursive',
    schema: SEARCH,
    valid: [
      { collection: 'orders', filter: { field: 'status', op: 'eq', value: 'open' }, limit: 50 },
      {
        collection: 'orders',
        filter: {
          and: [
            { field: 'total', op: 'gte', value: 100 },
            { or: [{ field: 'country', op: 'in', value: ['DE', 'FR'] }, { not: { field: 'vip', op: 'eq', value: false } }] },
            { field: 'customer.email', op: 'contains', value: '@example.com' },
          ],
        },
        sort: [{ field: 'created', direction: 'desc' }],
      },
      {
        collection: 'events',
        filter: { or: [{ and: [{ field: 'kind', op: 'eq', value: 'login' }, { field: 'ok', op: 'eq', value: true }] }, { field: 'kind', op: 'eq', value: 'logout' }] },
        limit: 1000,
      },
    ],
    invalid: [
      { collection: 'orders', filter: { field: 'status', op: 'equals', value: 'open' } },
      { collection: 'orders', filter: { and: [{ field: 'total', op: 'gte', value: 100 }, { or: { field: 'x', op: 'eq', value: 1 } }] }, limit: 0 },
      { collection: 'events', filter: { not: { field: 'Kind', op: 'eq', value: { a: 1 } } }, sort: ['created'] },
    ],
  },
  {
    name: 'team member (allOf + unevaluatedProperties)',
    class: 'unevaluated',
    schema: MEMBER,
    valid: [
      { name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' },
      {
        name: 'Linus', email: 'linus@example.com', phone: '+358 40 123 4567', role: 'member', team: 'kernel',
        address: { street: 'Main St 1', city: 'Helsinki', country: 'FI' }, startDate: '2024-02-01',
      },
      { name: 'Grace', email: 'grace@example.com', role: 'guest', team: 'navy' },
    ],
    invalid: [
      { name: 'Ada', email: 'ada@example.com', role: 'admin', nickname: 'countess' },
      { name: 'Linus', role: 'owner', address: { city: 'Helsinki', country: 'Finland' } },
      { name: '', email: 'grace@example.com', team: 'navy', manager: 'Ada' },
    ],
  },
  {
    name: 'notification (if/then + unevaluatedProperties)',
    class: 'unevaluated',
    schema: NOTIFICATION,
    valid: [
      { channel: 'email', message: 'Your report is ready.', to: 'ada@example.com', subject: 'Report', cc: ['linus@example.com'] },
      { channel: 'sms', message: 'Code 123456', phone: '+4915112345678', priority: 'high' },
      { channel: 'push', message: 'New comment', deviceToken: 'f3a9c2e1', badge: 3 },
    ],
    invalid: [
      { channel: 'email', message: 'Your report is ready.', to: 'ada@example.com' },
      { channel: 'sms', message: 'Code 123456', phone: '015112345678', subject: 'Code' },
      { channel: 'fax', message: '', priority: 'urgent' },
    ],
  },
];

/** The four schemas of earlier runs (bench/RESULTS.md history), with invalid arguments added. */
export const EARLIER = [
  {
    name: 'flat object of primitives',
    class: 'api',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'File to read' },
        encoding: { type: 'string', enum: ['utf8', 'base64'] },
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: 10000 },
        follow: { type: 'boolean' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    valid: [
      { path: '/etc/hosts' },
      { path: 'src/index.ts', encoding: 'utf8', offset: 10, limit: 200 },
      { path: 'README.md', follow: true, limit: 50 },
      { path: 'a/b/c.txt', encoding: 'base64', offset: 0, limit: 10000, follow: false },
    ],
    invalid: [
      { path: 'src/index.ts', limit: '200' },
      { file: 'README.md' },
      { path: '', encoding: 'latin1', offset: -1 },
    ],
  },
  {
    name: 'nested objects with arrays',
    class: 'api',
    schema: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 256 },
        body: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' }, maxItems: 20, uniqueItems: true },
        assignees: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              login: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
              role: { type: 'string', enum: ['owner', 'reviewer', 'watcher'] },
            },
            required: ['login'],
            additionalProperties: false,
          },
        },
        milestone: {
          type: 'object',
          properties: { id: { type: 'integer' }, due: { type: 'string' } },
          required: ['id'],
        },
        metadata: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['title'],
      additionalProperties: false,
    },
    valid: [
      { title: 'Crash on start' },
      {
        title: 'Add dark mode', body: 'Users asked for it.', labels: ['ui', 'feature'],
        assignees: [{ login: 'ada', role: 'owner' }, { login: 'linus' }],
      },
      { title: 'Docs', milestone: { id: 3, due: '2025-01-01' }, metadata: { area: 'docs', size: 's' } },
      {
        title: 'Refactor', labels: ['tech-debt'], assignees: [{ login: 'grace', role: 'reviewer' }],
        milestone: { id: 7 },
      },
    ],
    invalid: [
      { title: 'Add dark mode', labels: ['ui', 'ui'], assignees: [{ login: 'ada', role: 'admin' }] },
      { title: 'Docs', milestone: { id: '3' }, metadata: { size: 2 } },
      { body: 'no title', assignees: ['ada'] },
    ],
  },
  {
    name: '$defs/$ref schema',
    class: 'api',
    schema: {
      $defs: {
        filter: {
          type: 'object',
          properties: {
            field: { type: 'string' },
            op: { enum: ['eq', 'ne', 'lt', 'gt', 'in'] },
            value: { type: ['string', 'number', 'boolean', 'null'] },
          },
          required: ['field', 'op', 'value'],
        },
        sort: {
          type: 'object',
          properties: { field: { type: 'string' }, order: { enum: ['asc', 'desc'] } },
          required: ['field'],
        },
        page: {
          type: 'object',
          properties: {
            size: { type: 'integer', minimum: 1, maximum: 100 },
            cursor: { type: 'string' },
          },
        },
      },
      type: 'object',
      properties: {
        table: { type: 'string' },
        filters: { type: 'array', items: { $ref: '#/$defs/filter' } },
        sort: { type: 'array', items: { $ref: '#/$defs/sort' } },
        page: { $ref: '#/$defs/page' },
      },
      required: ['table'],
    },
    valid: [
      { table: 'users' },
      { table: 'orders', filters: [{ field: 'total', op: 'gt', value: 100 }], page: { size: 20 } },
      {
        table: 'events',
        filters: [{ field: 'kind', op: 'eq', value: 'login' }, { field: 'ok', op: 'ne', value: false }],
        sort: [{ field: 'at', order: 'desc' }],
      },
      { table: 'logs', sort: [{ field: 'level' }], page: { size: 100, cursor: 'abc' } },
    ],
    invalid: [
      { table: 'orders', filters: [{ field: 'total', op: 'gte', value: 100 }] },
      { table: 'orders', page: { size: 500 }, sort: [{ order: 'desc' }] },
      { filters: [{ field: 'x', op: 'eq' }] },
    ],
  },
  {
    name: 'anyOf union',
    class: 'api',
    schema: {
      type: 'object',
      properties: {
        action: {
          anyOf: [
            {
              type: 'object',
              properties: { type: { const: 'click' }, selector: { type: 'string' } },
              required: ['type', 'selector'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: {
                type: { const: 'type' }, selector: { type: 'string' }, text: { type: 'string' },
              },
              required: ['type', 'selector', 'text'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { type: { const: 'navigate' }, url: { type: 'string' } },
              required: ['type', 'url'],
              additionalProperties: false,
            },
          ],
        },
        timeoutMs: { type: 'integer', minimum: 0 },
      },
      required: ['action'],
    },
    valid: [
      { action: { type: 'click', selector: '#ok' } },
      { action: { type: 'type', selector: 'input', text: 'hello' }, timeoutMs: 500 },
      { action: { type: 'navigate', url: 'https://example.com' } },
      { action: { type: 'navigate', url: 'https://example.org/a' }, timeoutMs: 0 },
    ],
    invalid: [
      { action: { type: 'click' } },
      { action: { type: 'scroll', selector: 'body' }, timeoutMs: -5 },
      { action: 'click #ok' },
    ],
  },
];

/** Every entry: the reference servers' tools first (read from the installed packages). */
export async function corpus() {
  const reference = (await referenceToolSchemas()).map(({ name, schema }) => ({
    name,
    class: 'reference',
    schema,
    valid: [sample(schema, true), sample(schema, false)],
    invalid: mistakes(schema),
  }));
  return [...reference, ...HAND_WRITTEN, ...EARLIER];
}
