// Arguments for a simple tool input schema (objects, arrays, strings, numbers, booleans, enums):
// valid ones (every property, and only the required ones) and the mistakes a model makes (a
// number sent as a string, a list sent as one item, a required property left out, an enum value
// misspelt, an item of a list missing a field, the arguments sent as a JSON string).

/** A valid value for `schema`: every property when `full`, else only the required ones. */
export function sample(schema, full = true) {
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'object': {
      const out = {};
      for (const [k, sub] of Object.entries(schema.properties ?? {})) {
        if (full || schema.required?.includes(k)) out[k] = sample(sub, full);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(2, schema.minItems ?? 0);
      return Array.from({ length: n }, (_, i) => vary(sample(schema.items ?? {}, full), i));
    }
    case 'string':
      return schema.format === 'uri' ? 'https://example.com/reports/q3.csv' : 'notes/2025/todo.md';
    case 'number':
    case 'integer':
      return Math.min(schema.maximum ?? Infinity, Math.max(schema.minimum ?? -Infinity, 5));
    case 'boolean':
      return true;
    default:
      return 'value';
  }
}

/** Item `i` of a sampled list, made distinct (strings get a suffix). */
function vary(x, i) {
  if (typeof x === 'string') return `${x.replace(/\.md$/, '')}-${i}.md`;
  if (typeof x === 'object' && x !== null && !Array.isArray(x)) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, vary(v, i)]));
  }
  return x;
}

/** What a model sends instead of a value of `schema`'s type. */
function mistyped(schema, value) {
  switch (schema.type) {
    case 'string':
      return 42;
    case 'number':
    case 'integer':
      return String(value);
    case 'boolean':
      return 'true';
    case 'array':
      return value[0];
    default:
      return JSON.stringify(value);
  }
}

/**
 * Up to `max` invalid arguments for the object schema `schema`, each one mistake away from the
 * full valid sample; for a schema with no properties, the arguments sent as a JSON string.
 */
export function mistakes(schema, max = 3) {
  const valid = sample(schema, true);
  const props = Object.entries(schema.properties ?? {});
  const out = [];
  const withProp = (k, v) => ({ ...valid, [k]: v });
  // A property of the wrong type (a number as a string, a list as one item, ...).
  const typed = props.find(([, s]) => s.type === 'number' || s.type === 'integer') ??
    props.find(([, s]) => s.type === 'array') ?? props[0];
  if (typed !== undefined) out.push(withProp(typed[0], mistyped(typed[1], valid[typed[0]])));
  // An item of a list of objects missing a required field.
  const list = props.find(([, s]) => s.type === 'array' && s.items?.type === 'object' && s.items.required?.length > 0);
  if (list !== undefined) {
    const items = valid[list[0]].map((x) => ({ ...x }));
    delete items[1][list[1].items.required[0]];
    out.push(withProp(list[0], items));
  }
  // An enum value misspelt.
  const choice = props.find(([, s]) => s.enum !== undefined);
  if (choice !== undefined) out.push(withProp(choice[0], String(choice[1].enum[0]).toUpperCase() + 'S'));
  // A required property left out.
  if (schema.required?.length > 0) {
    const partial = { ...valid };
    delete partial[schema.required[0]];
    out.push(partial);
  }
  if (out.length === 0) out.push(JSON.stringify(valid));
  return out.slice(0, max);
}
