// A validator for the part of JSON Schema 2020-12 that conformance/protocol.schema.json uses, so the tests can
// check real protocol traffic against the published schema without a validator dependency.
import schemaJson from "../../../conformance/protocol.schema.json" with { type: "json" };

type Schema = { [keyword: string]: unknown };

export const protocolSchema = schemaJson as Schema;

const KNOWN = new Set([
  "$schema", "$id", "$defs", "$ref", "title", "description", "examples", "type", "enum", "const", "required",
  "properties", "additionalProperties", "items", "minimum", "oneOf", "allOf", "if", "then",
]);

/** Errors of `value` against `schema` (a $defs name or the whole schema); empty when valid. */
export function validate(value: unknown, definition?: string): string[] {
  const schema = definition ? resolveRef(`#/$defs/${definition}`) : protocolSchema;
  return check(schema, value, "$");
}

function resolveRef(ref: string): Schema {
  const path = ref.replace(/^#\//, "").split("/");
  let node: unknown = protocolSchema;
  for (const key of path) node = (node as Schema)[key];
  if (!node) throw new Error(`unresolved $ref ${ref}`);
  return node as Schema;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function check(schema: Schema, value: unknown, at: string): string[] {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword)) throw new Error(`the test validator does not support "${keyword}" (at ${at})`);
  }
  const errors: string[] = [];
  if (typeof schema["$ref"] === "string") errors.push(...check(resolveRef(schema["$ref"]), value, at));
  if (schema["type"] !== undefined) {
    const types = ([] as unknown[]).concat(schema["type"]);
    const actual = typeOf(value);
    if (!types.some((type) => type === actual || (type === "number" && actual === "integer"))) {
      errors.push(`${at}: expected ${types.join(" or ")}, got ${actual}`);
      return errors;
    }
  }
  if (schema["enum"] && !(schema["enum"] as unknown[]).includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of the enum`);
  if ("const" in schema && schema["const"] !== value) errors.push(`${at}: expected ${JSON.stringify(schema["const"])}`);
  if (typeof schema["minimum"] === "number" && typeof value === "number" && value < schema["minimum"]) errors.push(`${at}: below the minimum`);
  if (typeOf(value) === "object") errors.push(...checkObject(schema, value as Record<string, unknown>, at));
  if (Array.isArray(value) && schema["items"]) value.forEach((item, i) => errors.push(...check(schema["items"] as Schema, item, `${at}[${i}]`)));
  if (schema["oneOf"]) {
    const matching = (schema["oneOf"] as Schema[]).filter((option) => check(option, value, at).length === 0).length;
    if (matching !== 1) errors.push(`${at}: matches ${matching} of the oneOf alternatives, not exactly one`);
  }
  for (const part of (schema["allOf"] as Schema[] | undefined) ?? []) errors.push(...check(part, value, at));
  if (schema["if"] && schema["then"] && check(schema["if"] as Schema, value, at).length === 0) {
    errors.push(...check(schema["then"] as Schema, value, at));
  }
  return errors;
}

function checkObject(schema: Schema, value: Record<string, unknown>, at: string): string[] {
  const errors: string[] = [];
  for (const key of (schema["required"] as string[] | undefined) ?? []) {
    if (!(key in value)) errors.push(`${at}: "${key}" is required`);
  }
  const properties = (schema["properties"] as Record<string, Schema> | undefined) ?? {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (property) errors.push(...check(property, item, `${at}.${key}`));
    else if (schema["additionalProperties"] === false) errors.push(`${at}: "${key}" is not allowed`);
    else if (typeof schema["additionalProperties"] === "object") errors.push(...check(schema["additionalProperties"] as Schema, item, `${at}.${key}`));
  }
  return errors;
}
